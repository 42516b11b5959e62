// Playback a student can follow, in headless Chromium: by events, the
// cursor moves one event at a time at the chosen rate; in time, a long wait
// (timers running out) is skipped; and a finished run offers to play from
// its start. Wall-clock times are logged, not asserted (the machine is
// shared); the one time limit is a guard many times what the page needs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { playground, runState, artifact, patience, root, cli, runExample } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

const bully = "election/bully-textbook.lua";

// eventTimes is the time of each event of the example's first world, from
// the native CLI's JSONL trace.
function eventTimes(path) {
  const out = execFileSync(cli, ["run", "--format", "jsonl", join(root, "scripts/examples", path)], { encoding: "utf8" });
  const lines = out.split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const worlds = lines.filter((e) => e.type === "world");
  assert.equal(worlds.length, 1, `${path} has one world`);
  return lines.filter((e) => e.type !== "world").map((e) => e.t);
}

// watchCursor records, in the page, the cursor and the time "#time" shows
// each time the cursor changes, with the moment it changed
// (performance.now()), into window.cursorSeen; fmtInt groups digits with a
// thin space.
async function watchCursor(page) {
  await page.evaluate(() => {
    const time = document.getElementById("time");
    const seen = (window.cursorSeen = []);
    const read = () => {
      const [t, at] = time.textContent.match(/^t=([\d\u2009]+) · event ([\d\u2009]+) of/).slice(1).map((s) => Number(s.replace(/\u2009/g, "")));
      if (seen.length === 0 || seen.at(-1).at !== at) seen.push({ t, at, ms: performance.now() });
    };
    read();
    new MutationObserver(read).observe(time, { childList: true, characterData: true, subtree: true });
  });
}

const seenCursors = (page) => page.evaluate(() => window.cursorSeen);

async function atEnd(page, timeout = patience) {
  await page.waitForFunction(() => /event (\S+) of \1$/.test(document.getElementById("time").textContent) && document.getElementById("pause").disabled, null, { timeout });
}

test("by events at the top speed: the cursor goes from the start to the end one event at a time", async (t) => {
  const page = await pg.open(t);
  await runExample(page, bully);
  const total = eventTimes(bully).length;
  assert.equal(await page.locator("#pace").inputValue(), "events", "events is the default pace");
  assert.equal(await page.locator("#speed-label").textContent(), "5 ev/s");
  await page.locator("#speed").fill("10");
  assert.equal(await page.locator("#speed-label").textContent(), "60 ev/s");

  await page.locator("#scrubber").fill("0");
  await watchCursor(page);
  await page.click("#play");
  await atEnd(page);
  const seen = await seenCursors(page);
  const ats = seen.map((s) => s.at);
  assert.equal(ats[0], 0);
  assert.equal(ats.at(-1), total, "the cursor reaches the last event");
  const steps = ats.slice(1).map((n, i) => n - ats[i]);
  assert.deepEqual([...new Set(steps)], [1], `every change of the cursor is one event: ${ats}`);
  const ms = seen.at(-1).ms - seen[0].ms;
  t.diagnostic(`${total} events at 60 ev/s played in ${(ms / 1000).toFixed(2)} s (in time at 10 t/s the run took 20.6 s)`);
  await page.screenshot({ path: artifact("playback-events-end.png") });
});

test("in time, the longest wait of the run is skipped", async (t) => {
  const page = await pg.open(t);
  await runExample(page, bully);
  const times = eventTimes(bully);
  // the longest stretch without events: from event k-1 to event k
  let k = 1;
  for (let i = 1; i < times.length; i++) if (times[i] - times[i - 1] > times[k] - times[k - 1]) k = i;
  const gap = times[k] - times[k - 1];
  assert.ok(gap >= 20, `bully-textbook waits ${gap} time units at most`);

  await page.selectOption("#pace", "time");
  await page.locator("#speed").fill("1");
  assert.equal(await page.locator("#speed-label").textContent(), "1 t/s");
  await page.locator("#scrubber").fill(String(k)); // just before the wait
  await watchCursor(page);
  await page.click("#play");
  // At 1 t/s the wait would last gap seconds; skipped, it lasts half a
  // second. The limit guards against the wait being played, not a speed.
  await page.waitForFunction((k) => window.cursorSeen.at(-1).at > k, k, { timeout: (gap * 1000) / 3 });
  await page.click("#pause");
  const seen = await seenCursors(page);
  assert.equal(seen[0].at, k);
  // in time, the events of one instant come together
  assert.deepEqual(seen[1], { ...seen[1], t: times[k], at: times.filter((x) => x <= times[k]).length }, "the events after the wait came next");
  t.diagnostic(`a wait of ${gap} time units at 1 t/s crossed in ${((seen[1].ms - seen[0].ms) / 1000).toFixed(2)} s`);
});

test("a finished run offers to play from the start, and the offer hides while playing", async (t) => {
  const page = await pg.open(t);
  const replay = page.locator("#replay");
  assert.equal(await replay.isVisible(), false, "no offer before a run");
  await runExample(page, bully);
  const total = eventTimes(bully).length;
  assert.equal(await replay.isVisible(), true);
  assert.equal(await replay.textContent(), "▶ Play from the start");
  assert.match(await page.locator("#time").textContent(), new RegExp(`event ${total} of ${total}$`), "the run still shows its end");

  // a new run takes the offer away until it is done
  await page.evaluate(() => {
    const el = document.getElementById("replay");
    const hidden = (window.replayHidden = []);
    new MutationObserver(() => hidden.push(el.hidden)).observe(el, { attributes: true, attributeFilter: ["hidden"] });
  });
  await page.click("#run");
  await runState(page, "done");
  assert.deepEqual(await page.evaluate(() => window.replayHidden), [true, false], "hidden while the new run ran, offered again after it");

  await watchCursor(page);
  await replay.click();
  assert.equal(await replay.isVisible(), false, "hidden while playing");
  assert.equal(await page.locator("#pause").isEnabled(), true, "playing");
  await page.waitForFunction(() => window.cursorSeen.length >= 3, null, { timeout: patience });
  const seen = await seenCursors(page);
  assert.deepEqual(seen.slice(0, 3).map((s) => s.at), [total, 0, 1], "playback starts at event 0, one event at a time");

  // Space still pauses and plays on
  await page.locator("body").press(" ");
  assert.equal(await page.locator("#pause").isEnabled(), false, "Space pauses");
  assert.equal(await replay.isVisible(), false);
  await page.locator("body").press(" ");
  assert.equal(await page.locator("#pause").isEnabled(), true, "Space plays on");
});
