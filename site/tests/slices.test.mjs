// A long world is indexed in slices: the trace's and the diagram's indexes
// are built a bounded number of events at a time, each step giving the
// page the thread back, so that showing a world of a hundred thousand
// events holds it for no long task. Structure, not time, is asserted: the
// page's own measures show the indexing took more than one task, and the
// world is drawn whole afterwards.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { playground, runState, patience } from "./harness.mjs";

const pg = playground();
before(() => pg.start());
after(() => pg.stop());

test("a world of tens of thousands of events is indexed in several slices, then drawn whole", async (t) => {
  const page = await pg.open(t);
  // Chang-Roberts in its worst case, every process an initiator on a ring
  // of descending ids: n(n+1)/2 ELECTION messages, some 93,000 events
  // (under the 100,000 the page reads whole), indexed at about 1 µs each
  // in WebAssembly: several 12 ms slices
  const n = 300;
  await page.evaluate((s) => dsimEditor.setText(s), `local n = ${n}
local ids = {}
for i = 1, n do ids[i] = n + 1 - i end
local w = sim.world{algorithm = "election.changroberts", ids = ids, config = {all = true}}
w:run()
expect(w:agreed("leader") == n, "every process follows n")
`);
  // the page showed a world when it opened: count only this run's measures
  const since = await page.evaluate(() => performance.now());
  await page.click("#run");
  await runState(page, "done");
  // The world is drawn when its last step has run; the run is done before.
  await page.waitForFunction(() => Number(document.querySelector("#diagram svg")?.getAttribute("data-total-arrows")) > 0, null, { timeout: patience });

  const steps = await page.evaluate((since) => {
    const count = {};
    for (const m of performance.getEntriesByType("measure")) {
      if (m.startTime >= since && m.name.startsWith("dsim: ")) count[m.name.slice(6)] = (count[m.name.slice(6)] ?? 0) + 1;
    }
    return count;
  }, since);
  t.diagnostic(`measures: ${JSON.stringify(steps)}`);
  assert.ok(steps["index the trace"] > 1, `the trace was indexed in ${steps["index the trace"]} task(s)`);
  assert.ok(steps["index the diagram"] >= 1, "the diagram was indexed");

  // drawn whole: n(n+1)/2 ELECTION and n ELECTED messages, every one an
  // arrow
  const events = Number(await page.locator("#scrubber").getAttribute("max"));
  assert.ok(events > 80000 && events <= 100000, `${events} events`);
  assert.ok(await page.locator("#window").isHidden(), "a world the page reads whole");
  assert.equal(Number(await page.locator("#diagram svg").getAttribute("data-total-arrows")), n * (n + 1) / 2 + n);
  const drawn = await page.evaluate(() =>
    [...document.querySelectorAll("#diagram svg path.arrows")].reduce((k, p) => k + (p.getAttribute("d").match(/M/g) || []).length, 0));
  assert.ok(drawn > 0, "arrows drawn");
  // the timeline is on, at the end of the run
  assert.equal(await page.isDisabled("#scrubber"), false);
  assert.equal(await page.isDisabled("#play"), false);
  assert.equal(Number(await page.locator("#scrubber").inputValue()), events);
  // the checks, and every process in the topology
  assert.equal(await page.locator("#checks .verdict").textContent(), "4 passed, 0 failed"); // the expect and the world's properties
  assert.equal(await page.locator("#topology g.node").count(), n);
});
