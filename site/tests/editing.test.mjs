// Safe editing and share links of a moment, in headless Chromium: picking
// an example keeps the user's text as a restorable draft (and storage keeps
// it too); the description follows the editor's text; a share link made at
// a moment of a run (seed, world, time, selected event) reopens that moment
// in a fresh page with the same trace; links of the first format still
// open; a malformed link says what is wrong and loses nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { playground, pickExample, runState, artifact, patience, uiReady } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

const bully = "election/bully-textbook.lua";
const ring = "election/ring-six.lua";
const big = { width: 1440, height: 900 };

// fresh opens the page with nothing stored: the tests of this file share
// one browser profile.
async function fresh(t, opts) {
  const page = await pg.open(t, opts);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await uiReady(page);
  return page;
}

const text = (page) => page.evaluate(() => dsimEditor.getText());
const stored = (page, key) => page.evaluate((k) => localStorage.getItem(k), key);
const drafts = async (page) => JSON.parse((await stored(page, "dsim.drafts")) || "[]");
const desc = (page) => page.locator("#example-desc").textContent();
const exampleDesc = (page, path) => page.locator(`#examples option[value="${path}"]`).getAttribute("title");

// openLink loads url as a new document (not a same-page hash change), as
// a link opened from elsewhere is.
async function openLink(page, url) {
  await page.goto("about:blank");
  await page.goto(url);
  await uiReady(page);
}

// undoUntil presses an editor key until the text is want: CodeMirror groups
// quick keystrokes into one undo step, or into a few.
async function undoUntil(page, key, want) {
  for (let i = 0; i < 20 && (await text(page)) !== want; i++) await page.keyboard.press(key);
  assert.equal(await text(page), want);
}

async function typeAtStart(page, s) {
  await page.locator("#editor .cm-content").click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.type(s);
}

test("switching examples after editing keeps the edit as a draft, in storage too", async (t) => {
  const page = await fresh(t, { viewport: big });
  await pickExample(page, bully);
  const cleanBully = await text(page);
  assert.equal(await desc(page), await exampleDesc(page, bully));
  assert.ok(await page.locator("#restore-draft").isHidden(), "no draft yet");

  // an edit: the description says it is the user's script, not the example
  await typeAtStart(page, "-- my <b>leader</b> election\n");
  const mine = await text(page);
  await page.waitForFunction(() => document.getElementById("example-desc").textContent === "Your script: my <b>leader</b> election", null, { timeout: patience });
  assert.equal(await page.locator("#examples").inputValue(), "", "the menu no longer names the example");
  await page.waitForFunction((s) => localStorage.getItem("dsim.scenario") === s, mine, { timeout: patience });

  // undoing the edit brings the example's description back
  assert.deepEqual(await drafts(page), [], "an edit alone keeps no draft");
  await undoUntil(page, "Control+z", cleanBully);
  await page.waitForFunction((d) => document.getElementById("example-desc").textContent === d, await exampleDesc(page, bully), { timeout: patience });
  assert.equal(await page.locator("#examples").inputValue(), bully);
  await undoUntil(page, "Control+y", mine);

  // another example replaces the text: the edit is kept, and offered back
  await pickExample(page, ring);
  assert.notEqual(await text(page), mine);
  assert.equal(await desc(page), await exampleDesc(page, ring));
  assert.deepEqual(await drafts(page), [mine]);
  assert.ok(await page.locator("#restore-draft").isVisible());
  assert.equal(await page.locator("#restore-draft").textContent(), "Restore your draft: -- my <b>leader</b> election");
  assert.match(await page.locator("#status").textContent(), /edited scenario is kept/);
  assert.equal(await page.locator("header b, #example-desc b").count(), 0, "the script's words were parsed as HTML");
  await page.screenshot({ path: artifact("draft-restore-1440x900.png") });
  t.diagnostic(`screenshot: ${artifact("draft-restore-1440x900.png")}`);
  // at phone width the button fits too
  await page.setViewportSize({ width: 390, height: 844 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "the page is wider than a phone");
  await page.screenshot({ path: artifact("draft-restore-390x844.png") });
  await page.setViewportSize(big);

  // the draft outlives a reload
  await page.reload();
  await uiReady(page);
  assert.ok(await page.locator("#restore-draft").isVisible());
  assert.equal(await page.locator('#examples optgroup[label="Your drafts"] option').count(), 1);

  await page.click("#restore-draft");
  assert.equal(await text(page), mine);
  assert.equal(await stored(page, "dsim.scenario"), mine);
  assert.equal(await desc(page), "Your script: my <b>leader</b> election");
  assert.ok(await page.locator("#restore-draft").isHidden(), "the editor holds the draft");

  // two edited scenarios replaced in a row: both kept, both in the menu
  await pickExample(page, ring);
  await typeAtStart(page, "-- ring, edited\n");
  const ringEdit = await text(page);
  await pickExample(page, bully);
  assert.deepEqual(await drafts(page), [ringEdit, mine]);
  assert.deepEqual(await page.locator('#examples optgroup[label="Your drafts"] option').allTextContents(), ["Draft: -- ring, edited", "Draft: -- my <b>leader</b> election"]);
  await page.selectOption("#examples", "draft:1");
  assert.equal(await text(page), mine);
  assert.equal(await stored(page, "dsim.scenario"), mine);
  // restoring a draft over another edit keeps that edit as well
  await typeAtStart(page, "-- more\n");
  const more = await text(page);
  await page.selectOption("#examples", "draft:0");
  assert.equal(await text(page), ringEdit);
  assert.equal((await drafts(page))[0], more);
});

// A two-world script whose latencies are random: the seed decides the run.
const twoWorlds = `-- two rings, random latencies
for _, n in ipairs({5, 7}) do
  local ids = {}
  for i = 1, n do ids[i] = n + 1 - i end
  local w = sim.world{ algorithm = "election.changroberts", ids = ids, config = { all = true }, latency = {"uniform", 1, 9} }
  w:run()
end
`;

async function download(page) {
  const [d] = await Promise.all([page.waitForEvent("download"), page.click("#download-jsonl")]);
  return readFileSync(await d.path(), "utf8");
}

test("a share link reopens the moment: seed, world, time and selected event", async (t) => {
  const page = await fresh(t);
  await page.evaluate((s) => dsimEditor.setText(s), twoWorlds);
  await page.fill("#seed", "4242");
  await page.click("#run");
  await runState(page, "done");
  await page.selectOption("#world", "1");
  await page.waitForFunction(() => !document.getElementById("scrubber").disabled && document.getElementById("scrubber").value === document.getElementById("scrubber").max && document.getElementById("world").value === "1", null, { timeout: patience });
  const total = Number(await page.locator("#scrubber").getAttribute("max"));
  assert.ok(total > 40, `${total} events in world 2`);
  // select an event in the log, then seek elsewhere
  const sel = 7;
  await page.locator("#log-scroll").evaluate((el, k) => (el.scrollTop = k * 24 - 20), sel);
  await page.locator(`#log tr[data-index="${sel}"]`).click();
  await page.locator("#scrubber").fill("30");
  const time = await page.locator("#time").textContent();
  const trace = await download(page);
  assert.match(trace, /"seed":4242/);

  await page.click("#share");
  const link = await page.locator("#share-url").inputValue();
  assert.match(link, /#s=[A-Za-z0-9_-]+&seed=4242&w=2&at=30&sel=7$/);

  // a fresh page: other work stored, the seed box empty
  const other = await fresh(t, { viewport: big });
  await other.evaluate(() => dsimEditor.setText("-- my own work\n"));
  await other.waitForFunction(() => localStorage.getItem("dsim.scenario") === "-- my own work\n", null, { timeout: patience });
  // the run states the page goes through, from its start
  await other.addInitScript(() => document.addEventListener("DOMContentLoaded", () => {
    window.__runStates = [];
    new MutationObserver(() => window.__runStates.push(document.body.dataset.run)).observe(document.body, { attributes: true, attributeFilter: ["data-run"] });
  }));
  await openLink(other, link);
  await runState(other, "done");
  // the link's run starts as the page does, and the page says so until it is done
  const states = await other.evaluate(() => window.__runStates);
  assert.ok(states.includes("running") && states.lastIndexOf("idle") < states.indexOf("running"), `run states: ${states}`);
  assert.equal(await text(other), twoWorlds);
  assert.equal(await other.locator("#seed").inputValue(), "4242");
  assert.equal(await other.locator("#world").inputValue(), "1");
  assert.match(await other.locator("#world option:checked").textContent(), /^world 2: election\.changroberts, seed 4242, /);
  assert.equal(await other.locator("#scrubber").inputValue(), "30");
  assert.equal(await other.locator("#time").textContent(), time);
  assert.match(await other.locator(`#log tr[data-index="${sel}"]`).getAttribute("class"), /selected/);
  assert.ok(await other.locator(`#log tr[data-index="${sel}"]`).isVisible(), "the selected event is in sight");
  assert.match(await other.locator("#status").textContent(), /^Showing the shared moment: world 2, t=/);
  assert.ok(await other.locator("#error").isHidden(), await other.locator("#error").textContent());
  // the same run, event for event
  assert.equal(await download(other), trace);
  // the user's work is kept for Restore
  assert.equal(await stored(other, "dsim.scenario.previous"), "-- my own work\n");
  await other.screenshot({ path: artifact("share-moment-1440x900.png") });
  t.diagnostic(`screenshot: ${artifact("share-moment-1440x900.png")}`);

  // no run shown: the link carries the scenario and the seed box's seed
  await other.evaluate(() => dsimEditor.setText("-- edited, not run\n"));
  await other.click("#share");
  assert.match(await other.locator("#share-url").inputValue(), /#s=[A-Za-z0-9_-]+&seed=4242$/);
});

test("a link of the first format (scenario only) still opens", async (t) => {
  const page = await fresh(t);
  const script = '-- an old link\nlocal w = sim.world{algorithm = "election.bully", n = 3}\nw:run()\n';
  const old = "#s=" + deflateRawSync(Buffer.from(script)).toString("base64url");
  await openLink(page, pg.url + old);
  assert.equal(await text(page), script);
  assert.equal(await page.locator("#status").textContent(), "Loaded the scenario from the share link.");
  assert.equal(await desc(page), "Your script: an old link");
  assert.equal(await page.locator("#seed").inputValue(), "");
  assert.equal(await page.evaluate(() => document.body.dataset.run), "idle", "an old link runs nothing by itself");
});

test("a malformed link says what is wrong and loses nothing", async (t) => {
  const page = await fresh(t);
  await page.evaluate(() => dsimEditor.setText("-- my own work\n"));
  await page.waitForFunction(() => localStorage.getItem("dsim.scenario") === "-- my own work\n", null, { timeout: patience });
  const good = "#s=" + deflateRawSync(Buffer.from(twoWorlds)).toString("base64url");
  for (const [tail, want] of [
    ["&seed=99999999999999999999999999", /^This share link cannot be opened: the share link is damaged: the seed "9{24}…" is out of range \(0 to 9007199254740991\)\. Your saved scenario is unchanged\.$/],
    ["&w=two&at=3", /the world number "two" is not a whole number/],
    ["&w=1&at=" + "9".repeat(5000), /the time position \(events applied\) "9{24}…" is out of range/],
    ["&sel=3", /needs both w= and at=/],
    ["&seed=1&seed=2", /seed= appears twice/],
  ]) {
    await openLink(page, pg.url + good + tail);
    assert.match(await page.locator("#error").textContent(), want, tail.slice(0, 40));
    assert.equal(await text(page), "-- my own work\n");
    assert.equal(await stored(page, "dsim.scenario"), "-- my own work\n");
  }
  // well formed, but past the run: the run is shown, and the message says why not the moment
  await openLink(page, pg.url + good + "&w=9&at=3");
  await runState(page, "done");
  assert.equal(await page.locator("#error").textContent(), "The share link shows world 9, but the run has 2: showing world 1 instead.");
  await openLink(page, pg.url + good + "&w=2&at=100000&sel=3");
  await runState(page, "done");
  assert.match(await page.locator("#error").textContent(), /^The share link points at event 100000 of world 2, which has \d+ events: showing the end of the run instead\.$/);
});

// An example's description shows two lines, an ellipsis where it goes on;
// a click, Enter or Space opens it all, and closes it again.
test("the description opens in full on a click or from the keyboard", async (t) => {
  const page = await fresh(t, { viewport: big });
  await pickExample(page, "snapshot/concurrent.lua");
  const d = page.locator("#example-desc");
  const height = () => d.evaluate((e) => e.getBoundingClientRect().height);
  const closed = await height();
  assert.ok(await d.evaluate((e) => e.scrollHeight > e.clientHeight), "the description goes on past its two lines");
  await d.click();
  assert.equal(await d.getAttribute("aria-expanded"), "true");
  assert.ok((await height()) > closed, "a click opens the description");
  await d.press("Enter");
  assert.equal(await d.getAttribute("aria-expanded"), "false");
  assert.equal(await height(), closed, "Enter closes it again");
  await d.press(" ");
  assert.equal(await d.getAttribute("aria-expanded"), "true", "Space opens it");
});
