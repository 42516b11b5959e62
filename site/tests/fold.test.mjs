// Idle stretches of the space-time diagram in headless Chromium: the bully
// example waits from t=27 to t=100 for a timeout; with the toolbar's "≈"
// button on (the default) that wait is a narrow break labelled with its
// length, and off, time is linear again.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { playground, pickExample, runState, patience, artifact } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

// GapW of package spacetime: a collapsed gap's width in pixels.
const gapW = 28;

// geometry reads the diagram: the x of the lifelines' ends (times 0 and
// the run's end), of P1's recovery at t=100, of the last arrow end before
// it, and the axis labels shown.
function geometry(page) {
  return page.evaluate(() => {
    const svg = document.querySelector("#diagram svg");
    const xs = (d) => [...(d || "").matchAll(/[ML](-?[\d.]+) /g)].map((m) => Number(m[1]));
    const life = xs(svg.querySelector("path.lifeline").getAttribute("d"));
    // a recovery is a ring of radius 4 from its left edge
    const recover = xs(svg.querySelector("path.mark.recover:not(.late)").getAttribute("d"))[0] + 4;
    const ends = [...svg.querySelectorAll("path.arrows")].flatMap((p) => xs(p.getAttribute("d")));
    const labels = [...svg.querySelectorAll(".axis text:not([visibility])")].map((t) => t.textContent);
    return { x0: life[0], xEnd: life[1], recover, before: Math.max(...ends.filter((x) => x < recover - 1)), labels, breaks: svg.querySelector("path.break").getAttribute("d") || "" };
  });
}

test("bully: the wait for a timeout collapses to a break, and the toggle restores linear time", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await pickExample(page, "election/bully-textbook.lua");
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => Number(document.querySelector("#diagram svg")?.getAttribute("data-total-arrows")) > 0, null, { timeout: patience });
  const toggle = page.locator("#diagram #collapse");
  assert.equal(await toggle.getAttribute("aria-pressed"), "true", "collapsed by default");

  const on = await geometry(page);
  assert.ok(Math.abs(on.recover - on.before - gapW) < 1, `t=27 to 100 is ${on.recover - on.before} px, want ${gapW}: ${JSON.stringify(on)}`);
  assert.ok(on.labels.includes("≈73") && on.labels.includes("≈88"), `gap labels: ${on.labels}`);
  assert.ok(!on.labels.includes("50") && !on.labels.includes("150"), `no time labels inside the gaps: ${on.labels}`);
  assert.ok(on.breaks.length > 0, "a break mark");
  await page.screenshot({ path: artifact("bully-collapsed-1440.png") });

  await toggle.click();
  assert.equal(await toggle.getAttribute("aria-pressed"), "false");
  await page.waitForFunction(() => !document.querySelector("#diagram svg path.break").getAttribute("d"), null, { timeout: patience });
  const off = await geometry(page);
  const linear = ((off.xEnd - off.x0) * (100 - 27)) / 205;
  assert.ok(Math.abs(off.recover - off.before - linear) < 1.5, `linear: t=27 to 100 is ${off.recover - off.before} px, want ${linear}`);
  assert.ok(off.recover - off.before > 5 * (on.recover - on.before), "the wait is much wider in linear time");
  assert.ok(!off.labels.some((l) => l.startsWith("≈")), `no gap labels: ${off.labels}`);
  await page.screenshot({ path: artifact("bully-linear-1440.png") });

  await toggle.click();
  await page.waitForFunction(() => document.querySelector("#diagram svg path.break").getAttribute("d"), null, { timeout: patience });
  const again = await geometry(page);
  assert.ok(Math.abs(again.recover - again.before - gapW) < 1, "collapsed again");
});
