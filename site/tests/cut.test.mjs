// The cut tool (issue 15): with Cut on, the diagram draws a cut, starting
// at the cursor, and a click on a process's line moves that process's cut
// point; the page says whether the cut is consistent and highlights the
// messages that cross it backwards and those in flight across it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { playground, runState, artifact, patience } from "./harness.mjs";

const pg = playground();
before(() => pg.start());
after(() => pg.stop());

// Ricart-Agrawala on three processes, 1 and 2 asking at t=0: REQUESTs
// from 1 and 2 to everyone at t=0, delivered at t=1, REPLYs after.
const src = `local w = sim.world{algorithm = "mutex.ricartagrawala", n = 3}
w:command(1, "request", {duration = 5})
w:command(2, "request", {duration = 5})
w:run()
`;

test("a cut drawn on the diagram is judged consistent or not, with the messages that cross it", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await page.evaluate((s) => dsimEditor.setText(s), src);
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => document.querySelector("#diagram svg")?.hasAttribute("data-plot"), null, { timeout: patience });
  const verdict = page.locator("#diagram .cut-verdict");
  const d = (sel) => page.locator(`#diagram svg path.${sel}`).getAttribute("d");
  // The diagram redraws on the next animation frame, after the verdict.
  const drawn = (sel) =>
    page.waitForFunction((s) => document.querySelector(`#diagram svg path.${s}`)?.getAttribute("d")?.startsWith("M"), sel, { timeout: patience });

  // At the end of the run, the cut holds everything: consistent, nothing
  // in flight.
  await page.click("#cut-tool");
  assert.equal(await page.locator("#cut-tool").getAttribute("aria-pressed"), "true");
  assert.equal(await verdict.textContent(), "Consistent cut");
  await drawn("cut-line");
  assert.equal(await d("cut-back"), "");

  // P1 before its first event, P2 after t=1 (it has received 1's REQUEST):
  // that REQUEST crosses the cut backwards.
  await page.click("#collapse"); // time to scale, so that a time is a place
  await page.waitForFunction(() => document.querySelector("#collapse").getAttribute("aria-pressed") === "false");
  await page.waitForTimeout(200);
  const svg = page.locator("#diagram svg");
  const [left, width] = (await svg.getAttribute("data-plot")).split(" ").map(Number);
  const t0 = Number(await svg.getAttribute("data-t0")), t1 = Number(await svg.getAttribute("data-t1"));
  const x = (t) => left + ((t - t0) / (t1 - t0)) * width;
  const box = await page.locator("#diagram svg").boundingBox();
  const rowY = async (id) => {
    const r = await page.locator("#diagram svg g.labels text", { hasText: new RegExp(`^P${id}$`) }).boundingBox();
    return r.y + r.height / 2;
  };
  await page.mouse.click(box.x + left + 1, await rowY(1));
  await page.mouse.click(box.x + x(1.5), await rowY(2));
  assert.equal(await verdict.getAttribute("data-consistent"), "false");
  assert.match(await verdict.textContent(), /^Inconsistent cut: \d messages? crossing it backwards \(REQUEST 1→2\b/);
  await drawn("cut-back"); // the crossing message is highlighted
  await page.screenshot({ path: artifact("cut-inconsistent-1440.png") });

  // P1 moved past its sends at t=0: consistent again, 1's REQUEST to 3
  // (not yet received by 3, whose point is before t=1) in flight.
  await page.mouse.click(box.x + x(0.5), await rowY(1));
  await page.mouse.click(box.x + left + 1, await rowY(3));
  assert.equal(await verdict.getAttribute("data-consistent"), "true");
  assert.match(await verdict.textContent(), /^Consistent cut; \d messages in flight across it \(.*REQUEST 1→3/);
  await drawn("cut-flight");

  // C turns the tool off: no cut, no verdict.
  await page.locator("#diagram svg").focus();
  await page.keyboard.press("c");
  assert.equal(await page.locator("#cut-tool").getAttribute("aria-pressed"), "false");
  assert.ok(await verdict.isHidden());
  await page.waitForFunction(() => document.querySelector("#diagram svg path.cut-line").getAttribute("d") === "", null, { timeout: patience });
});
