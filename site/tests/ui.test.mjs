// The playground's UI end to end, in headless Chromium: an example runs and
// shows its leader and one arrow per delivered message; the timeline steps,
// plays and scrubs; "fork from here" crashes a process and keeps the
// intervention in the scenario; a Lua error marks its line; share links
// round-trip and a damaged one loses nothing; script strings are shown as
// text; the downloads are the trace; the page works offline; and the
// budgets (first render, a 10,000-message trace) are measured.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { playground, runState, artifact, patience, root, cli, uiReady, runExample } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

const bully = "election/bully-textbook.lua";

// cliTrace is the native CLI's JSONL trace of a shipped example, parsed:
// the reference the page's rendering is checked against.
function cliTrace(path) {
  let out;
  try {
    out = execFileSync(cli, ["run", "--format", "jsonl", join(root, "scripts/examples", path)], { encoding: "utf8" });
  } catch (err) {
    out = err.stdout; // a failing expectation still prints the trace
  }
  const worlds = [];
  for (const line of out.split("\n")) {
    if (!line) continue;
    const e = JSON.parse(line);
    if (e.type === "world") worlds.push({ header: e, events: [] });
    else worlds.at(-1).events.push(e);
  }
  return { text: out, worlds };
}

// finalLeaders is what the trace says every live process believes at the
// end: its last "leader" value.
function finalLeaders(events) {
  const up = new Map();
  const leader = new Map();
  for (const e of events) {
    if (e.type === "crash") {
      up.set(e.node, false);
      leader.delete(e.node);
    } else if (e.type === "recover") {
      up.set(e.node, true);
      leader.delete(e.node);
    } else if (e.type === "state" && e.key === "leader") {
      leader.set(e.node, e.value);
    }
  }
  return [...leader.entries()].filter(([n]) => up.get(n) !== false).map(([, l]) => l);
}

// arrowsDrawn counts the arrows in the diagram's SVG: every delivered
// message is one segment of one of the arrow paths.
async function arrowsDrawn(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("#diagram svg path.arrows")].reduce((n, p) => n + (p.getAttribute("d").match(/M/g) || []).length, 0),
  );
}

async function cursor(page) {
  const m = (await page.locator("#time").textContent()).match(/event (\d[\d\u2009]*) of (\d[\d\u2009]*)/);
  return { at: Number(m[1].replace(/\u2009/g, "")), of: Number(m[2].replace(/\u2009/g, "")) };
}

test("an example runs: the leader is shown and every delivery is an arrow", async (t) => {
  const page = await pg.open(t);
  await runExample(page, bully);
  const ref = cliTrace(bully).worlds[0];
  const deliveries = ref.events.filter((e) => e.type === "deliver").length;
  assert.ok(deliveries > 0);
  assert.equal(await arrowsDrawn(page), deliveries, "arrows drawn in the diagram");
  assert.equal(Number(await page.locator("#diagram svg").getAttribute("data-total-arrows")), deliveries);
  assert.equal(Number(await page.locator("#scrubber").getAttribute("max")), ref.events.length);

  const leaders = [...new Set(finalLeaders(ref.events))];
  assert.equal(leaders.length, 1, `the trace ends with one leader: ${leaders}`);
  const leader = leaders[0];
  assert.match(await page.locator("#summary").textContent(), new RegExp(`^leader ${leader}, known to all`));
  assert.match(await page.locator(`#topology g.node[data-id="${leader}"]`).getAttribute("class"), /cls-leader/);
  assert.equal(await page.locator(`#state tr[data-id="${leader}"] td.status`).textContent(), "leader");
  // the log lists every event; the checks panel every expectation
  assert.equal(await page.locator("#log-filters .count").textContent(), `${ref.events.length} events`);
  const checks = ref.events.filter((e) => e.type === "check");
  assert.equal(await page.locator("#checks li").count(), checks.length);
  assert.equal(await page.locator("#checks li.fail").count(), checks.filter((c) => !c.pass).length);
});

test("step, play and scrub move the cursor through the recorded run", async (t) => {
  const page = await pg.open(t);
  await runExample(page, bully);
  const ref = cliTrace(bully).worlds[0].events;
  const end = await cursor(page);
  assert.deepEqual(end, { at: ref.length, of: ref.length });

  // scrub back to the start: nothing has happened yet
  await page.locator("#scrubber").fill("0");
  assert.equal((await cursor(page)).at, 0);
  assert.equal(await page.locator("#summary").textContent(), "");
  assert.equal(await page.locator("#topology g.node.cls-crashed").count(), 0);

  // Step applies exactly one event; so does the → key, and ← takes it back
  await page.click("#step");
  assert.equal((await cursor(page)).at, 1);
  await page.locator("#log-scroll").focus();
  await page.keyboard.press("ArrowRight");
  assert.equal((await cursor(page)).at, 2);
  await page.locator("body").press("ArrowLeft");
  assert.equal((await cursor(page)).at, 1);

  // scrub to just after the first crash: the topology shows it
  const firstCrash = ref.findIndex((e) => e.type === "crash");
  await page.locator("#scrubber").fill(String(firstCrash + 1));
  assert.match(await page.locator(`#topology g.node[data-id="${ref[firstCrash].node}"]`).getAttribute("class"), /cls-crashed/);
  assert.match(await page.locator("#time").textContent(), new RegExp(`^t=${ref[firstCrash].t} `));
  // the log shows the event the cursor reached
  assert.equal(await page.locator(`#log tr[data-index="${firstCrash}"] td.ev`).isVisible(), true);

  // playing at the fastest speed reaches the end and stops by itself
  await page.locator("#speed").fill("10");
  await page.click("#play");
  assert.equal(await page.locator("#pause").isEnabled(), true);
  await page.waitForFunction(() => /event (\S+) of \1$/.test(document.getElementById("time").textContent), null, { timeout: patience });
  assert.equal(await page.locator("#pause").isEnabled(), false);

  // selecting an event in the log selects it in the diagram: causal cones
  await page.locator("#scrubber").fill("0");
  const firstDeliver = ref.findIndex((e) => e.type === "deliver");
  await page.locator("#log-scroll").evaluate((el, k) => (el.scrollTop = k * 24 - 20), firstDeliver);
  await page.locator(`#log tr[data-index="${firstDeliver}"]`).click();
  assert.match(await page.locator(`#log tr[data-index="${firstDeliver}"]`).getAttribute("class"), /selected/);
  assert.equal((await cursor(page)).at, firstDeliver + 1, "selecting moves the cursor just after the event");
  await page.waitForFunction(() => /^M[^M]*$/.test(document.querySelector("#diagram path.arrows.selected").getAttribute("d")), null, { timeout: patience });
  // Three styles: the events before it, after it, and concurrent with it,
  // counted as happened-before says, computed here from the CLI's trace
  // alone (vector clocks over process order and send-deliver pairs).
  const want = causalCounts(ref, firstDeliver);
  assert.ok(want.concurrent > 0 && want.past > 0 && want.future > 0, JSON.stringify(want));
  await page.waitForFunction(() => !document.querySelector("#diagram .cone-legend").hidden, null, { timeout: patience });
  assert.deepEqual(await page.locator("#diagram .cone-legend span").allTextContents(),
    [`○ ${want.past} before`, `○ ${want.future} after`, `□ ${want.concurrent} concurrent`]);
  for (const style of ["past", "future", "concurrent"]) {
    assert.ok((await page.locator(`#diagram path.cone.${style}`).getAttribute("d") || "").length > 0, `no ${style} marks drawn`);
  }
  // the log marks the concurrent events too
  const concurrentRows = await page.locator("#log tr.concurrent").evaluateAll((rs) => rs.map((r) => Number(r.dataset.index)));
  assert.ok(concurrentRows.length > 0 && concurrentRows.every((i) => want.of[i] === "concurrent"), `${concurrentRows}`);
  // clicking it again clears the selection and the legend
  await page.locator(`#log tr[data-index="${firstDeliver}"]`).click();
  await page.waitForFunction(() => document.querySelector("#diagram .cone-legend").hidden, null, { timeout: patience });
});

// causalCounts counts the events at a process that happened before event
// x, after it, and neither, from a parsed JSONL trace.
function causalCounts(events, x) {
  const procs = [...new Set(events.filter((e) => e.node !== undefined).map((e) => e.node))];
  const at = new Map(procs.map((p, k) => [p, k]));
  const last = new Map(), sent = new Map(), vc = [];
  events.forEach((e, i) => {
    if (e.node === undefined) return;
    const v = last.has(e.node) ? [...last.get(e.node)] : procs.map(() => 0);
    if (e.type === "deliver" && sent.has(e.id)) sent.get(e.id).forEach((c, k) => (v[k] = Math.max(v[k], c)));
    v[at.get(e.node)]++;
    vc[i] = v;
    last.set(e.node, v);
    if (e.type === "send") sent.set(e.id, v);
  });
  const leq = (a, b) => a.every((c, k) => c <= b[k]);
  const n = { past: 0, future: 0, concurrent: 0, of: [] }; // of: each event's relation to x
  vc.forEach((v, i) => {
    if (!v || i === x) return;
    n.of[i] = leq(v, vc[x]) ? "past" : leq(vc[x], v) ? "future" : "concurrent";
    n[n.of[i]]++;
  });
  return n;
}

test("fork from here: crashing a process reruns the scenario with the intervention kept", async (t) => {
  const page = await pg.open(t);
  await runExample(page, bully);
  const ref = cliTrace(bully).worlds[0].events;
  const original = await page.evaluate(() => dsimEditor.getText());
  // fork when P3 is up, half-way through
  const k = Math.floor(ref.length / 3);
  await page.locator("#scrubber").fill(String(k));
  const forkT = ref[k - 1].t;
  await page.click("#fork");
  assert.equal(await page.locator("#fork").getAttribute("aria-pressed"), "true");
  await page.click('#topology g.node[data-id="3"]');
  await runState(page, "done");

  const text = await page.evaluate(() => dsimEditor.getText());
  const line = `sim.intervene{world=1, t=${forkT}, crash=3}`;
  assert.equal(text, line + "\n" + original, "the intervention is the scenario's first line");
  // the rerun's trace has the crash at the fork time, named in the log
  await page.selectOption("#log-type", "crash");
  const crashes = await page.locator("#log tbody tr:not([hidden]) td.ev").allTextContents();
  const times = await page.locator("#log tbody tr:not([hidden]) td.t").allTextContents();
  assert.ok(crashes.some((c, i) => c === "P3 crash" && Number(times[i]) === forkT), `crashes: ${crashes} at ${times}`);
  await page.selectOption("#log-type", "log");
  assert.ok((await page.locator("#log tbody tr:not([hidden]) td.ev").allTextContents()).some((s) => s.includes("sim.intervene: crash 3")));
  assert.equal(await page.locator("#fork").getAttribute("aria-pressed"), "false");

  // a second fork, by key: cut the link between P2 and P3 where it is drawn
  await page.locator("#scrubber").fill("5");
  const cutT = Number((await page.locator("#time").textContent()).match(/^t=(\d+)/)[1]);
  await page.evaluate(() => document.activeElement.blur()); // keys go to the page, not the scrubber
  await page.keyboard.press("f");
  assert.equal(await page.locator("#fork").getAttribute("aria-pressed"), "true");
  const a = await page.locator('#topology g.node[data-id="2"]').boundingBox();
  const b = await page.locator('#topology g.node[data-id="3"]').boundingBox();
  const mx = (a.x + a.width / 2 + b.x + b.width / 2) / 2;
  const my = (a.y + a.height / 2 + b.y + b.height / 2) / 2;
  await page.mouse.move(mx, my);
  assert.notEqual(await page.locator("#topology path.edge-hot").getAttribute("d"), "", "the link to cut is not highlighted");
  await page.mouse.click(mx, my);
  await runState(page, "done");
  const cut = await page.evaluate(() => dsimEditor.getText());
  assert.equal(cut, `sim.intervene{world=1, t=${cutT}, cut={2, 3}}\n` + text);

  // the forks survive a reload: they are in the stored scenario
  await page.reload();
  await uiReady(page);
  assert.equal(await page.evaluate(() => dsimEditor.getText()), cut);
});

test("a Lua error marks its line and shows the message", async (t) => {
  const page = await pg.open(t);
  await page.evaluate(() => dsimEditor.setText('local w = sim.world{algorithm = "election.bully", n = 3}\nw:run()\nlocal x = nil + 1\n'));
  await page.click("#run");
  await runState(page, "error");
  assert.equal(await page.locator("#editor .cm-dsim-error-line").getAttribute("data-error-line"), "3");
  assert.match(await page.locator("#error").textContent(), /^scenario\.lua:3: /);
  assert.match(await page.locator("#editor .cm-dsim-error-msg").textContent(), /cannot perform add operation/);
  // what ran before the error is still shown
  assert.ok(Number(await page.locator("#scrubber").getAttribute("max")) > 0);
});

test("a share link carries the scenario; a damaged one loses nothing", async (t) => {
  const page = await pg.open(t);
  const text = '-- shared: é ✓ \u{1F600} <b>not bold</b>\nlocal w = sim.world{algorithm = "election.bully", n = 4}\nw:run()\n';
  await page.evaluate((s) => dsimEditor.setText(s), text);
  await page.click("#share");
  const link = await page.locator("#share-url").inputValue();
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/#s=[A-Za-z0-9_-]+$/);
  // the link shown carries the scenario as it was: an edit takes it away
  await page.locator("#editor .cm-content").click();
  await page.keyboard.type("-- edited");
  await page.waitForSelector("#share-url", { state: "hidden", timeout: patience });
  assert.equal(await page.locator("#share-url").inputValue(), "");
  const text2 = "-- another shared one\n";
  await page.evaluate((s) => dsimEditor.setText(s), text2);
  await page.click("#share");
  const link2 = await page.locator("#share-url").inputValue();

  // another tab, other work stored: the link replaces the scenario, and
  // the work is kept for Restore
  const other = await pg.open(t);
  await other.evaluate(() => dsimEditor.setText("-- my own work\n"));
  await other.waitForFunction(() => localStorage.getItem("dsim.scenario") === "-- my own work\n");
  assert.ok(await other.locator("#shared-note").isHidden());
  await other.goto(link);
  await uiReady(other);
  assert.equal(await other.evaluate(() => dsimEditor.getText()), text);
  assert.match(await other.locator("#status").textContent(), /share link/);
  assert.equal(await other.evaluate(() => location.hash), "", "the fragment is dropped once loaded");
  assert.ok(await other.locator("#shared-note").isVisible());
  assert.equal(await other.locator("#shared-note").textContent(), "Opened a shared scenario; your previous one is kept — Restore");
  assert.equal(await other.evaluate(() => localStorage.getItem("dsim.scenario")), text);
  // another link: the first link's scenario, unedited, is not work to keep
  await other.goto(link2);
  await uiReady(other);
  assert.equal(await other.evaluate(() => dsimEditor.getText()), text2);
  assert.equal(await other.evaluate(() => localStorage.getItem("dsim.scenario.previous")), "-- my own work\n");
  await other.click("#restore");
  assert.equal(await other.evaluate(() => dsimEditor.getText()), "-- my own work\n");
  assert.equal(await other.evaluate(() => localStorage.getItem("dsim.scenario")), "-- my own work\n");
  assert.ok(await other.locator("#shared-note").isHidden());
  assert.match(await other.locator("#status").textContent(), /previous scenario is back/);

  // a damaged link: a clear message, and the stored scenario is untouched
  await other.evaluate(() => dsimEditor.setText("-- my own work\n"));
  await other.waitForFunction(() => localStorage.getItem("dsim.scenario") === "-- my own work\n");
  const broken = link.slice(0, link.length - 8) + "$$$";
  await other.goto(broken);
  await uiReady(other);
  assert.match(await other.locator("#error").textContent(), /^This share link cannot be opened: .*base64url.*Your saved scenario is unchanged\.$/);
  assert.equal(await other.evaluate(() => dsimEditor.getText()), "-- my own work\n");
  assert.equal(await other.evaluate(() => localStorage.getItem("dsim.scenario")), "-- my own work\n");
  await other.goto(link.slice(0, link.length - 10)); // cut short
  await uiReady(other);
  assert.match(await other.locator("#error").textContent(), /cut short|not valid/);
  assert.equal(await other.evaluate(() => dsimEditor.getText()), "-- my own work\n");
});

test("XSS probe: strings from a script are shown as text", async (t) => {
  const page = await pg.open(t);
  let dialogs = 0;
  page.on("dialog", async (d) => {
    dialogs++;
    await d.dismiss();
  });
  const probe = "<img src=x onerror=alert(1)>";
  await page.evaluate(
    (p) =>
      dsimEditor.setText(
        `local w = sim.world{algorithm = "election.bully", n = 3, checks = {}}\n` +
          `log(${JSON.stringify(p)})\n` +
          `print(${JSON.stringify(p)})\n` +
          `w:run()\n` +
          `expect(false, ${JSON.stringify(p)})\n`,
      ),
    probe,
  );
  await page.click("#run");
  await runState(page, "done");
  assert.ok((await page.locator("#output").textContent()).includes(probe), "the output shows the probe literally");
  await page.selectOption("#log-type", "log");
  assert.equal(await page.locator("#log tbody tr:not([hidden]) td.ev").first().textContent(), `log ${probe} (line 2)`);
  assert.equal(await page.locator("#checks li.fail .text").textContent(), probe);
  assert.equal(await page.locator("img").count(), 0, "an <img> element was created");
  await page.waitForTimeout(200); // an onerror handler would have fired by now
  assert.equal(dialogs, 0, "a dialog opened");
});

test("downloads are the run's trace: JSONL as the CLI writes it, and ShiViz", async (t) => {
  const page = await pg.open(t);
  await runExample(page, bully);
  const [jsonl] = await Promise.all([page.waitForEvent("download"), page.click("#download-jsonl")]);
  assert.equal(readFileSync(await jsonl.path(), "utf8"), cliTrace(bully).text);
  const [shiviz] = await Promise.all([page.waitForEvent("download"), page.click("#download-shiviz")]);
  const lines = readFileSync(await shiviz.path(), "utf8").split("\n");
  assert.equal(lines[0], "(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)");
  assert.equal(lines[1], "^=== (?<trace>.*) ===$");
  assert.match(lines[2], /^=== world 1: election\.bully seed \d+ ===$/);
  assert.match(lines[3], /^P\d+ \{"P\d+":1\}$/);
});

test("screenshots of a finished run at 1280x800 and at phone width", async (t) => {
  for (const [name, viewport] of [["finished-run-1280x800.png", { width: 1280, height: 800 }], ["finished-run-390x844.png", { width: 390, height: 844 }]]) {
    const page = await pg.open(t, { viewport });
    await runExample(page, "election/ring-six.lua");
    // nothing sticks out sideways
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: the page is ${overflow}px wider than the window`);
    await page.screenshot({ path: artifact(name), fullPage: viewport.width < 600 });
    t.diagnostic(`screenshot: ${artifact(name)}`);
  }
});

// The service worker answers every navigation from its cache once it is
// active: a reload, a share link opened in another tab of the same
// browser, index.html by name, and all of it offline.
test("the service worker: reload, a share link in a new tab, index.html, offline", async (t) => {
  const page = await pg.open(t);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: patience });
  const reloaded = await page.reload();
  assert.ok(reloaded.fromServiceWorker(), "the reload was not answered by the service worker");
  assert.equal(reloaded.status(), 200);
  await uiReady(page);

  const text = '-- from the share link\nlocal w = sim.world{algorithm = "election.ring", n = 5}\nw:node(2):command("elect")\nw:run()\n';
  await page.evaluate((s) => dsimEditor.setText(s), text);
  await page.click("#share");
  const link = await page.locator("#share-url").inputValue();

  const tab = await pg.open(t, { path: link.slice(pg.url.length) });
  assert.equal(await tab.evaluate(() => dsimEditor.getText()), text);
  const byName = await tab.goto(pg.url + "index.html");
  assert.ok(byName.fromServiceWorker() && byName.status() === 200, "index.html by name");
  await uiReady(tab);

  await page.context().setOffline(true);
  try {
    const off = await pg.open(t, { path: link.slice(pg.url.length) });
    assert.equal(await off.evaluate(() => dsimEditor.getText()), text);
    await off.click("#run");
    await runState(off, "done");
    assert.match(await off.locator("#summary").textContent(), /^leader 5/);
    await off.reload();
    await uiReady(off);
    await runExample(off, "election/ring-six.lua");
    assert.match(await off.locator("#summary").textContent(), /^leader/);
  } finally {
    await page.context().setOffline(false);
  }
});

// A shorter trace shown after a longer one: every view must switch to the
// new world at once (the page's Go program used to panic on the old
// cursor).
test("two examples in a row on one page, then worlds switched back and forth", async (t) => {
  const page = await pg.open(t);
  for (const path of [bully, "election/ring-six.lua", bully]) {
    await runExample(page, path);
    const ref = cliTrace(path).worlds[0].events;
    assert.deepEqual(await cursor(page), { at: ref.length, of: ref.length }, path);
    assert.equal(await arrowsDrawn(page), ref.filter((e) => e.type === "deliver").length, path);
    assert.equal(await page.locator("#log-filters .count").textContent(), `${ref.length} events`);
    assert.match(await page.locator("#summary").textContent(), /^leader/);
  }

  const multi = "election/changroberts-best.lua";
  const worlds = cliTrace(multi).worlds;
  // the traced worlds (rings of 4, 8, 16 and 32); the example also runs
  // untraced ones, for the base algorithm's counts
  const traced = worlds.map((_, i) => i).filter((i) => worlds[i].events.length > 0);
  assert.ok(traced.length >= 4, `${multi} has ${traced.length} traced worlds`);
  const [first, second, third] = traced;
  const last = traced.at(-1);
  await runExample(page, multi);
  const shows = async (w) => {
    const n = worlds[w].events.length;
    // the timeline is back on once the world is drawn
    const deliveries = worlds[w].events.filter((e) => e.type === "deliver").length;
    await page.waitForFunction(([n, deliveries]) => {
      const s = document.getElementById("scrubber");
      return !s.disabled && Number(s.max) === n && Number(s.value) === n &&
        Number(document.querySelector("#diagram svg").getAttribute("data-total-arrows")) === deliveries;
    }, [n, deliveries], { timeout: patience });
    assert.deepEqual(await cursor(page), { at: n, of: n }, `world ${w + 1}`);
    // a ring of 32 does not fit the diagram's height: arrows out of view
    // are not drawn
    const inView = Number(await page.locator("#diagram svg").getAttribute("data-arrows"));
    assert.ok(inView > 0 && inView <= deliveries, `world ${w + 1}: ${inView} arrows in view`);
    assert.equal(await arrowsDrawn(page), inView, `world ${w + 1}`);
    assert.equal(await page.locator("#topology g.node").count(), worlds[w].header.ids.length, `world ${w + 1}`);
    assert.equal(await page.locator("#log-filters .count").textContent(), `${n.toLocaleString("en").replace(/,/g, "\u2009")} events`);
  };
  await shows(first);
  for (const w of [last, first, last, second, third, first]) {
    await page.selectOption("#world", String(w));
    await shows(w);
    // step back and forth in the world shown
    await page.click("#step-back");
    await page.click("#step");
  }
  // switched again before the last one is drawn: the last choice wins
  await page.selectOption("#world", String(last));
  await page.selectOption("#world", String(first));
  await shows(first);
  assert.equal(await page.locator("#error").isHidden(), true, await page.locator("#error").textContent());
});

// The budgets of the issue, measured and printed (the closing note gives
// them): first render of the page, and a trace of more than 10,000 messages
// drawn, then scrolled, zoomed and scrubbed while every frame is timed.
test("budgets: first render, and 10,000 messages rendered and scrolled", async (t) => {
  const page = await pg.open(t);
  const figures = {};
  figures.uiReadyMs = await page.evaluate(() => Math.round(performance.getEntriesByName("dsim-ui-ready")[0].startTime));

  const n = 141; // Chang-Roberts worst case: n(n+1)/2 + n = 10,152 messages
  await page.evaluate((n) => dsimEditor.setText(
    `local n = ${n}\nlocal ids = {}\nfor i = 1, n do ids[i] = n + 1 - i end\n` +
    `local w = sim.world{ algorithm = "election.changroberts", ids = ids, config = { all = true }, latency = {"uniform", 1, 5} }\n` +
    `w:run()\nprint(w:stats().sent)\n`), n);
  await page.evaluate(() => {
    window.__frames = [];
    window.__long = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(Math.round(e.duration)))).observe({ type: "longtask" });
    let last = performance.now();
    const tick = (now) => {
      window.__frames.push(now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const started = Date.now();
  await page.click("#run");
  await runState(page, "done");
  figures.runAndRenderMs = Date.now() - started;
  figures.renderMs = Number(await page.evaluate(() => document.body.dataset.renderMs));
  figures.messages = Number((await page.locator("#output").textContent()).trim());
  assert.ok(figures.messages >= 10000, `only ${figures.messages} messages`);
  assert.equal(Number(await page.locator("#diagram svg").getAttribute("data-total-arrows")), figures.messages);
  const during = await page.evaluate(() => {
    const f = window.__frames.slice(1);
    const out = { maxFrameMs: Math.round(Math.max(...f)), longTasks: window.__long.slice() };
    window.__frames = [];
    window.__long = [];
    return out;
  });
  figures.renderMaxFrameMs = during.maxFrameMs;
  figures.renderLongTasksMs = during.longTasks;
  // the page's own measures of each slice of reading and each drawing step
  figures.renderStepsMs = await page.evaluate(() => {
    const steps = {};
    for (const m of performance.getEntriesByType("measure")) {
      if (!m.name.startsWith("dsim: ")) continue;
      const s = (steps[m.name.slice(6)] ??= { count: 0, totalMs: 0, maxMs: 0 });
      s.count++;
      s.totalMs = Math.round(s.totalMs + m.duration);
      s.maxMs = Math.max(s.maxMs, Math.round(m.duration));
    }
    return steps;
  });

  // interact: zoom in and out, pan by dragging, hover, scroll the log, scrub
  const svg = await page.locator("#diagram svg").boundingBox();
  const cx = svg.x + svg.width / 2;
  const cy = svg.y + svg.height / 2;
  await page.mouse.move(cx, cy);
  for (let i = 0; i < 12; i++) { await page.mouse.wheel(0, -150); await page.waitForTimeout(25); }
  for (let i = 0; i < 16; i++) { await page.mouse.wheel(0, 150); await page.waitForTimeout(25); }
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) { await page.mouse.move(cx - i * 15, cy + i * 4); await page.waitForTimeout(16); }
  await page.mouse.up();
  for (let i = 0; i < 10; i++) { await page.mouse.move(svg.x + 80 + i * 40, svg.y + 40 + i * 8); await page.waitForTimeout(16); }
  const log = await page.locator("#log-scroll").boundingBox();
  await page.mouse.move(log.x + 100, log.y + 40);
  for (let i = 0; i < 30; i++) { await page.mouse.wheel(0, 600); await page.waitForTimeout(16); }
  await page.locator("#scrubber").focus();
  for (let i = 0; i < 20; i++) { await page.keyboard.press("ArrowLeft"); await page.waitForTimeout(10); }
  const scrolled = await page.evaluate(() => {
    const f = window.__frames.slice(1).sort((a, b) => a - b);
    return { frames: f.length, maxFrameMs: Math.round(f.at(-1)), p95FrameMs: Math.round(f[Math.floor(f.length * 0.95)]), longTasks: window.__long.slice() };
  });
  figures.interactionFrames = scrolled.frames;
  figures.interactionMaxFrameMs = scrolled.maxFrameMs;
  figures.interactionP95FrameMs = scrolled.p95FrameMs;
  figures.interactionLongTasksMs = scrolled.longTasks;
  // the log really scrolled, and only the rows in sight exist
  assert.ok(Number(await page.locator("#log-scroll").evaluate((el) => el.scrollTop)) > 0);
  figures.logRowsInDOM = await page.locator("#log tbody tr:not(.spacer)").count();
  assert.ok(figures.logRowsInDOM < 200, `${figures.logRowsInDOM} log rows in the DOM`);
  for (const [k, v] of Object.entries(figures)) t.diagnostic(`${k}: ${JSON.stringify(v)}`);
  writeFileSync(artifact("budgets.json"), JSON.stringify(figures, null, 2) + "\n");
});

// A runaway loop and a string that doubles for ever stop within seconds,
// with the editor's marker at their line, and the page stays usable.
test("hostile scripts stop within seconds with the marker at their line", async (t) => {
  const page = await pg.open(t);
  for (const [src, line, msg] of [
    ["local x = 0\nwhile true do x = x + 1 end\n", "2", /instruction budget of 50000000 exhausted/],
    ['local s = ("x"):rep(2^20)\nfor i = 1, 40 do s = s .. s end\n', "2", /concatenation would make a string of 33554432 bytes/],
    ["local t = {}\nwhile true do t[#t + 1] = {} end\n", "2", /memory budget of 256 MiB exceeded|instruction budget/],
  ]) {
    await page.evaluate((s) => dsimEditor.setText(s), src);
    const start = Date.now();
    await page.click("#run");
    await runState(page, "error");
    const took = Date.now() - start;
    t.diagnostic(`line ${line}: stopped after ${took} ms: ${await page.locator("#error").textContent()}`);
    assert.ok(took < 15_000, `stopped after ${took} ms`);
    assert.equal(await page.locator("#editor .cm-dsim-error-line").getAttribute("data-error-line"), line);
    assert.match(await page.locator("#editor .cm-dsim-error-msg").textContent(), msg);
    await page.screenshot({ path: artifact(`hostile-line-${line}-${took}ms.png`) });
  }
});
