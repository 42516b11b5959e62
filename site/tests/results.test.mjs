// Results first (issue 14): the trace stays in the engine's worker, the page
// shows checks, statistics and output the moment the engine ends, asks for
// the one world it shows, and a world too large to read whole comes in
// windows of events rather than a page that reads for minutes. The world
// menu lists only worlds with something to show.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { playground, runState, artifact, cli, launch, uiReady } from "./harness.mjs";

const pg = playground();
before(() => pg.start());
after(() => pg.stop());

// longTasks counts the page's main-thread tasks over 50 ms from now on
// (the browser reports no shorter ones), for the figures in the log.
async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.dsimLongTasks = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.dsimLongTasks.push(e.duration)))
      .observe({ type: "longtask" });
  });
}

async function runText(page, src) {
  await page.evaluate((s) => dsimEditor.setText(s), src);
  const start = Date.now();
  await page.click("#run");
  return start;
}

const big = (n) => `local w = sim.world{algorithm = "election.changroberts", n = ${n}}
w:command(1, "elect")
w:run()
expect(w:agreed("leader") == ${n}, "every process follows ${n}")
`;

test("a world too large to read whole is shown in windows, from the state the processes had", async (t) => {
  const page = await pg.open(t);
  await watchLongTasks(page);
  const file = artifact("cr-1e5.lua");
  writeFileSync(file, big(100000));
  let cliMs = Date.now();
  execFileSync(cli, ["run", file], { stdio: "ignore" });
  cliMs = Date.now() - cliMs;

  const start = await runText(page, big(100000));
  await page.waitForSelector("#checks .verdict", { timeout: 120_000 });
  const checksMs = Date.now() - start;
  await runState(page, "done");
  const longest = await page.evaluate(() => Math.max(0, ...window.dsimLongTasks));
  t.diagnostic(`Chang-Roberts n=10^5: checks after ${checksMs} ms in the page, ${cliMs} ms for the CLI (${(checksMs / cliMs).toFixed(1)}x); longest main-thread task ${Math.round(longest)} ms`);

  assert.equal(await page.locator("#checks .verdict").textContent(), "4 passed, 0 failed");
  // fmtInt groups digits with a thin space
  const digits = (s) => s.replace(/(\d)\D(?=\d{3}\b)/g, "$1");
  const windowText = async () => digits(await page.locator("#window-text").textContent());
  assert.match(digits(await page.locator("#status").textContent()), /World 1 has 1300003 events and 100000 processes, more than this page reads at once \(100000 events or 2000 processes\): it shows at most 20000 events of 2000 processes at a time/);
  // The statistics are the whole run's, from the engine's summary: 3n-1
  // messages (n-1 ELECTION hops from process 1 to n, n round the ring back
  // to n, and n ELECTED), all delivered.
  const cells = (await page.locator("#stats tbody tr td").allTextContents()).map(digits);
  assert.deepEqual(cells, ["all", "299999", "299999", "0"]);
  // The first window is drawn: its events in the log and the diagram,
  // the cursor at its end, the checks (recorded at the end) pending.
  // A window holds at most 20,000 events naming at most 2,000 processes:
  // here, each process's first state.
  const [, first] = (await windowText()).match(/^events 1–(\d+) of 1300003$/);
  assert.ok(Number(first) >= 2000 && Number(first) <= 20000, first);
  assert.equal(await page.locator("#topology [aria-label^='process']").count(), 2000);
  assert.match(digits(await page.locator("#time").textContent()), new RegExp(`^t=\\d+ · event ${first} of 1300003$`));
  assert.ok(await page.locator("#diagram path").count() > 0);
  assert.equal(await page.locator("#checks li.pending").count(), 4);
  assert.ok(await page.isDisabled("#window-prev"));

  // Play goes on into the next window at the end of this one.
  const max = Number(await page.locator("#scrubber").getAttribute("max"));
  await page.locator("#scrubber").fill(String(max - 1));
  await page.click("#play");
  await page.waitForFunction((f) => document.querySelector("#window-text").textContent.replace(/\D/g, "").startsWith(String(f + 1)) && !document.querySelector("#pause").disabled, Number(first), { timeout: 60_000 });
  await page.click("#pause");
  await page.click("#window-prev");
  await page.waitForFunction(() => /^events 1–/.test(document.querySelector("#window-text").textContent) && !document.querySelector("#scrubber").disabled, null, { timeout: 60_000 });
  // Later: the next window, the cursor at its start.
  await page.click("#window-next");
  await page.waitForFunction((f) => document.querySelector("#window-text").textContent.replace(/\D/g, "").startsWith(String(f + 1)) && !document.querySelector("#scrubber").disabled, Number(first), { timeout: 60_000 });
  assert.match(await windowText(), new RegExp(`^events ${Number(first) + 1}–\\d+ of 1300003$`));
  assert.match(digits(await page.locator("#time").textContent()), new RegExp(` · event ${first} of 1300003$`), "the cursor starts at the window's start");
  assert.ok(!(await page.isDisabled("#window-prev")));
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press("ArrowRight");
  assert.match(digits(await page.locator("#time").textContent()), new RegExp(` · event ${Number(first) + 1} of 1300003$`));
  await page.keyboard.press("Home");
  assert.match(digits(await page.locator("#time").textContent()), new RegExp(` · event ${first} of 1300003$`), "Home stays in the window");
  // Earlier: back to the first window, which ends where this one starts.
  await page.click("#window-prev");
  await page.waitForFunction(() => /^events 1–/.test(document.querySelector("#window-text").textContent) && !document.querySelector("#scrubber").disabled, null, { timeout: 60_000 });
  assert.equal(await windowText(), `events 1–${first} of 1300003`);

  // A check's button brings the window with its event and selects it.
  const goto = page.locator("#checks li", { hasText: "every process follows" }).locator(".goto");
  const seq = digits(await goto.textContent()).match(/event (\d+)/)[1];
  await goto.click();
  await page.waitForFunction((s) => [...document.querySelectorAll("#log tr.selected td")].some((td) => td.textContent === s), seq, { timeout: 60_000 });
  assert.match(await windowText(), /^events \d+–1300003 of 1300003$/);
  assert.ok(await page.isDisabled("#window-next"));
  assert.equal(await page.locator("#checks li", { hasText: "every process follows" }).getAttribute("class"), "pass");
  // At the start of that window the processes it names have the state the
  // run gave them before it, which the window itself does not set: every
  // one has a role and a leader to follow or forward.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press("Home");
  const rows = await page.locator("#state tbody tr").evaluateAll((rs) => rs.slice(0, 20).map((r) => r.textContent));
  assert.ok(rows.length === 20 && rows.every((r) => /(follower|candidate|leader)/.test(r)), rows.join(" | "));
  // A share link made here names positions in the whole run, and opens
  // the same window at the same moment.
  const time = await page.locator("#time").textContent();
  await page.click("#share");
  const link = await page.locator("#share-url").inputValue();
  const [, at, sel] = link.match(/&at=(\d+)&sel=(\d+)$/);
  assert.equal(sel, seq);
  assert.ok(Number(at) > 1_200_000, `at=${at}`);
  const other = await pg.open(t);
  await other.goto("about:blank");
  await other.goto(link);
  await other.waitForFunction(() => document.body.dataset.run === "done" && /shared moment/.test(document.querySelector("#status").textContent), null, { timeout: 120_000 });
  assert.equal(await other.locator("#time").textContent(), time);
  // the window around the moment
  const [, from, to] = digits(await other.locator("#window-text").textContent()).match(/^events (\d+)–(\d+) of/);
  assert.ok(Number(from) <= Number(at) && Number(at) <= Number(to), `${at} outside the window ${from}–${to}`);
  assert.ok(await other.locator("#log tr.selected").count() === 1);
  // The overview strip is the whole run's, which the engine counts, and a
  // click on it brings the window at that time.
  const strip = page.locator("#diagram .overview");
  await page.waitForFunction(() => /^overview of the run: 100000 processes, t=0\.\.299999$/.test(document.querySelector("#diagram .overview")?.getAttribute("aria-label")) && !document.querySelector("#diagram .overview").hidden, null, { timeout: 30_000 });
  const box = await strip.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => !/^events 1–/.test(document.querySelector("#window-text").textContent) && !document.querySelector("#scrubber").disabled, null, { timeout: 60_000 });
  const mid = Number(digits(await page.locator("#time").textContent()).match(/^t=(\d+)/)[1]);
  assert.ok(Math.abs(mid - 150000) < 3000, `the strip's middle brought t=${mid}`);
  // The log's filters search the whole run past the window: the next
  // ELECTED delivery is after the window around t=150000, before the end.
  await page.selectOption("#log-type", "deliver");
  await page.locator("#log-search").fill("ELECTED");
  await page.waitForFunction(() => /^0 of /.test(document.querySelector("#log-filters .count").textContent));
  await page.locator("#log-filters .beyond button", { hasText: "Later match" }).click();
  await page.waitForFunction(() => document.querySelector("#log tr.selected") && !document.querySelector("#scrubber").disabled, null, { timeout: 60_000 });
  assert.match(await page.locator("#log tr.selected td.ev, #log tr.selected td:last-child").first().textContent(), /deliver ELECTED/);
  assert.equal(await page.locator("#log-type").inputValue(), "deliver", "the filters stay");
  await page.screenshot({ path: artifact("cr-1e5-1440.png") });
});

test("the world menu lists only worlds with a trace; the first of them opens", async (t) => {
  const page = await pg.open(t);
  const src = `for i = 1, 3 do
  local w = sim.world{algorithm = "election.bully", n = 3, trace = (i == 2)}
  w:run()
end
print("three worlds")
`;
  await runText(page, src);
  await runState(page, "done");
  const options = await page.locator("#world option").allTextContents();
  assert.equal(options.length, 1, `menu: ${options.join(" | ")}`);
  assert.match(options[0], /^world 2: election\.bully/);
  assert.ok(await page.locator("#world").isHidden(), "one world to show needs no menu");
  assert.ok(await page.locator("#log tbody tr").count() > 0, "world 2's events are in the log");
  assert.equal(await page.locator("#output").textContent(), "three worlds\n");
});

test("a run whose worlds are all untraced shows its output and says why there is no diagram", async (t) => {
  const page = await pg.open(t);
  await runText(page, `local w = sim.world{algorithm = "election.bully", n = 3, trace = false}
w:run()
print("ran to t=" .. w:now())
`);
  await runState(page, "done");
  assert.match(await page.locator("#output").textContent(), /^ran to t=\d+\n$/);
  assert.match(await page.locator("#status").textContent(), /No world of this run records a trace/);
});

// Lamport's algorithm on links that reorder (the example's world 1) with
// its checks recorded at the end: mutex.safety fails, and its button goes
// to the entry that broke it, not to the end of the run.
const lamportNoFIFO = `local w = sim.world{ algorithm = "mutex.lamport", n = 2, fifo = false }
w:at(0, function()
  w:link(1, 2, { latency = 10 })
  w:command(1, "request", { duration = 20 })
  w:link(1, 2, { latency = 1 })
  w:command(2, "request", { duration = 20 })
end)
w:run()
expect(w:now() > 100, "the run goes past t=100")
`;

test("checks follow the cursor, a failing one is marked in the editor and goes to the violation", async (t) => {
  const page = await pg.open(t);
  await runText(page, lamportNoFIFO);
  await runState(page, "done");
  const safety = page.locator("#checks li", { hasText: "mutex.safety" });
  assert.match(await safety.locator(".text").textContent(), /^mutex\.safety: t=2 seq=(\d+):/);
  const seq = (await safety.locator(".text").textContent()).match(/seq=(\d+)/)[1];
  // At the end of the run every check has its verdict.
  assert.equal(await page.locator("#checks li.pending").count(), 0);
  // The button names the violating event and selects it; the checks,
  // recorded later, are pending there.
  assert.equal(await safety.locator(".goto").textContent(), `event ${seq}`);
  await safety.locator(".goto").click();
  assert.equal(await page.locator("#log tr.selected td").first().textContent(), seq);
  await page.waitForFunction(() => document.querySelectorAll("#checks li.pending").length === 4);
  assert.equal(await safety.locator(".mark").textContent(), "…");
  await page.evaluate(() => document.activeElement.blur()); // a focused button keeps its keys
  await page.keyboard.press("End");
  await page.waitForFunction(() => document.querySelectorAll("#checks li.pending").length === 0);
  assert.equal(await safety.locator(".mark").textContent(), "✗");
  // The failing expect and the failing property are marked at their
  // lines; "line N" puts the editor's cursor there.
  const marked = await page.locator("[data-fail-line]").evaluateAll((ls) => ls.map((l) => l.dataset.failLine));
  assert.deepEqual(marked.sort(), ["1", "9"]);
  await page.locator("#checks li", { hasText: "the run goes past" }).locator("button.line").click();
  const cursorLine = await page.evaluate(() => {
    const v = dsimEditor.view;
    return v.state.doc.lineAt(v.state.selection.main.head).number;
  });
  assert.equal(cursorLine, 9);
  await page.screenshot({ path: artifact("lamport-no-fifo-violation-1440.png") });
});

test("report's tables are drawn as tables, in the output where they were printed", async (t) => {
  const page = await pg.open(t);
  await page.selectOption("#examples", "mutex/costs.lua");
  await page.click("#run");
  await runState(page, "done");
  const tables = page.locator("#output .report table");
  assert.ok((await tables.count()) >= 1, "no table drawn");
  const first = tables.first();
  const header = await first.locator("tr").first().locator("th").allTextContents();
  assert.deepEqual(header.slice(0, 3), ["n", "central", "lamport"]);
  assert.equal(await first.locator("tr").nth(1).locator("td").first().textContent(), "2");
  assert.equal(await first.locator("tr").nth(1).locator("td.num").count() > 0, true, "numbers are marked to align right");
  // The text around the tables is kept, in order.
  const text = await page.locator("#output").textContent();
  assert.ok(text.startsWith("messages per entry, one request at a time"), text.slice(0, 80));
  // A table's cells are text, never markup.
  await page.evaluate(() => dsimEditor.setText('report({{name = "<img src=x onerror=alert(1)>", n = 1}})\n'));
  await page.click("#run");
  await runState(page, "done");
  assert.equal(await page.locator("#output .report td").first().textContent(), "<img src=x onerror=alert(1)>");
  assert.equal(await page.locator("#output img").count(), 0);
});

test("on a phone: 40 px touch targets, the checks in view after a run, nodes that say their state", async (t) => {
  const phone = await launch({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  t.after(() => phone.close());
  const page = await phone.context.newPage();
  await page.goto(pg.url);
  await uiReady(page);
  await page.selectOption("#examples", "election/bully-textbook.lua");
  await page.click("#run");
  await runState(page, "done");
  const small = await page.evaluate(() =>
    [...document.querySelectorAll("button, select, summary")]
      .filter((b) => b.offsetParent !== null && !b.closest("#editor"))
      .map((b) => [b.id || b.className || b.textContent.trim().slice(0, 20), b.getBoundingClientRect().height])
      .filter(([, h]) => h < 40));
  assert.deepEqual(small, [], "controls under 40 px");
  const box = await page.locator("#checks").boundingBox();
  assert.ok(box.y >= 0 && box.y < 844, `the checks are at y=${box.y}, out of view`);
  // The leader's node says so, not only by its colour.
  const labels = await page.locator("#topology [aria-label]").evaluateAll((ns) => ns.map((n) => n.getAttribute("aria-label")));
  assert.ok(labels.some((l) => /^process \d+, leader$/.test(l)), labels.join(" | "));
  await page.screenshot({ path: artifact("bully-textbook-390.png") });
});

test("a million processes: a clear message naming the limit, at once", async (t) => {
  const page = await pg.open(t);
  await runText(page, big(1000000));
  await runState(page, "error");
  assert.match(await page.locator("#error").textContent(),
    /^scenario\.lua:1: sim\.world: election\.changroberts with n = 1000000 needs about [\d.]+ GiB .*more than the memory budget of 256 MiB; the largest n that fits is \d+$/);
});
