// The chart of clock error over time (issue 15): a line per process of its
// clock minus true time, the corrections marked under it, and with two
// worlds of drifting clocks a comparison of their largest errors. The
// scale is checked against the CLI's trace of the same script.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { playground, runState, artifact, cli, patience } from "./harness.mjs";

const pg = playground();
before(() => pg.start());
after(() => pg.stop());

// Three drifting clocks, twice: left alone, then stepped to true time
// every 100 ticks.
const src = `for _, fix in ipairs{false, true} do
  local w = sim.world{algorithm = "clock.lamport", n = 3, seed = 7, config = {events = 60, rate = 0.1}}
  w:clock(1, {drift = 0.02})
  w:clock(2, {offset = -5, drift = -0.01})
  w:clock(3, {offset = 3})
  if fix then
    for t = 100, 500, 100 do
      w:at(t, function() for _, id in ipairs(w:ids()) do w:step_clock(id, w:now()) end end)
    end
  end
  w:run()
end
`;

test("the clock chart draws each clock's error, its corrections, and compares worlds", async (t) => {
  const file = artifact("clocks.lua");
  writeFileSync(file, src);
  const lines = execFileSync(cli, ["run", "--format", "jsonl", file], { encoding: "utf8" }).trim().split("\n").map((l) => JSON.parse(l));
  // the largest error of world 1, by the events' local and true times
  let world = 0, worst = 0;
  for (const e of lines) {
    if (e.type === "world") world++;
    else if (world === 1 && e.node !== undefined) worst = Math.max(worst, Math.abs(e.local - e.t));
  }
  assert.ok(worst >= 12, `world 1's clocks drift apart: largest error ${worst}`);

  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await page.evaluate((s) => dsimEditor.setText(s), src);
  await page.click("#run");
  await runState(page, "done");
  await page.waitForSelector("#clocks:not([hidden]) #clock-svg polyline", { timeout: patience });
  const chart = () => page.evaluate(() => ({
    lines: [...document.querySelectorAll("#clock-svg polyline")].map((l) => l.dataset.name),
    marks: document.querySelectorAll("#clock-svg .mark").length,
    top: Number(document.querySelector("#clock-top").textContent),
    end: document.querySelector("#clock-end").textContent,
    compare: !document.querySelector("#clock-compare").hidden,
  }));
  let c = await chart();
  t.diagnostic(JSON.stringify(c));
  assert.deepEqual(c.lines, ["P1", "P2", "P3"]);
  assert.equal(c.marks, 0, "world 1 makes no correction");
  assert.ok(c.top >= worst && c.top <= worst * 1.1 + 2, `the scale's top ${c.top} fits the largest error ${worst}`);
  assert.ok(c.compare, "two worlds of drifting clocks offer a comparison");
  await page.screenshot({ path: artifact("clocks-world1.png") });

  await page.selectOption("#world", "1");
  await page.waitForFunction(() => document.querySelectorAll("#clock-svg .mark").length > 0, null, { timeout: patience });
  c = await chart();
  assert.equal(c.marks, 5, "world 2's five rounds of corrections are marked");

  await page.click("#clock-compare");
  c = await chart();
  assert.deepEqual(c.lines, ["world 1: clock.lamport", "world 2: clock.lamport"]);
  await page.screenshot({ path: artifact("clocks-compare.png") });

  // a run of true clocks has no chart
  await page.evaluate(() => dsimEditor.setText(`local w = sim.world{algorithm = "election.bully", n = 3}\nw:command(1, "elect")\nw:run()\n`));
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => document.querySelector("#clocks").hidden, null, { timeout: patience });
});

// World 2's clocks start up to 5 ticks off and are stepped to true time
// every 100 ticks, drifting by at most 2 ticks in between: zoomed to the
// error once synchronized, the scale narrows from the start's offsets to
// that drift, and the lines are clipped. Hide folds the chart
// and gives its room back; Show brings it back as it was.
test("the clock chart zooms to the synchronized error, and folds away", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await page.evaluate((s) => dsimEditor.setText(s), src);
  await page.click("#run");
  await runState(page, "done");
  await page.waitForSelector("#clocks:not([hidden]) #clock-svg polyline", { timeout: patience });
  assert.ok(await page.locator("#clock-zoom").isHidden(), "world 1 makes no correction: nothing to zoom to");
  await page.selectOption("#world", "1");
  await page.waitForFunction(() => document.querySelectorAll("#clock-svg .mark").length > 0, null, { timeout: patience });
  const span = () => page.evaluate(() => Number(document.querySelector("#clock-top").textContent) - Number(document.querySelector("#clock-bottom").textContent));
  const whole = await span();
  await page.click("#clock-zoom");
  const zoomed = await span();
  t.diagnostic(`scale ${whole} → ${zoomed}`);
  assert.ok(whole >= 8 && zoomed <= 5, `zoomed scale ${zoomed} ticks, the whole run's ${whole}`);
  assert.equal(await page.getAttribute("#clock-zoom", "aria-pressed"), "true");
  assert.match(await page.textContent("#clock-caption"), /Zoomed to the error once synchronized/);
  assert.ok(await page.evaluate(() => document.querySelector("#clock-svg").classList.contains("zoomed")), "the zoomed plot clips its lines");
  await page.screenshot({ path: artifact("clocks-zoomed.png") });
  await page.click("#clock-zoom");
  assert.equal(await span(), whole, "unzoomed, the whole run's scale again");

  const diagram = () => page.evaluate(() => document.querySelector("#diagram").getBoundingClientRect().height);
  const before = await diagram();
  await page.click("#clock-fold");
  assert.ok(await page.locator("#clock-body").isHidden(), "Hide folds the plot and its caption");
  assert.equal(await page.getAttribute("#clock-fold", "aria-expanded"), "false");
  assert.equal(await page.textContent("#clock-fold"), "Show");
  await page.waitForFunction((h) => document.querySelector("#diagram").getBoundingClientRect().height >= h, before, { timeout: patience });
  await page.selectOption("#world", "0");
  await page.waitForFunction(() => document.querySelector("#clock-legend").textContent.includes("P1"), null, { timeout: patience });
  assert.ok(await page.locator("#clock-body").isHidden(), "the chart stays folded from world to world");
  await page.click("#clock-fold");
  assert.ok(await page.locator("#clock-svg polyline").first().isVisible(), "Show brings the chart back");
});
