// Quiet processes in the space-time diagram in headless Chromium: an
// election round a ring of 200 runs one hop at a time, so zoomed in, only a
// few processes have anything in view (the markers are told apart by their
// text); with the toolbar's "Fold" button on
// (the default past 20 processes) the others' rows fold into "… n quiet"
// markers, and off, every process has its row again.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { playground, runState, patience, artifact } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

// rows scrolls the plot from its top to its bottom (alt+wheel) and reads
// the row labels shown on the way: the processes' and the markers'.
async function rows(page) {
  const procs = new Set(), quiet = new Set();
  await page.evaluate(() => document.querySelector("#diagram svg").dispatchEvent(new WheelEvent("wheel", { deltaY: -1e6, altKey: true, cancelable: true })));
  for (let k = 0; k < 100; k++) {
    await frame(page);
    const shown = await page.evaluate(() => {
      const texts = (sel) => [...document.querySelectorAll(`#diagram svg .labels ${sel}:not([visibility])`)].map((t) => t.textContent);
      return { procs: texts("text.row"), quiet: texts("text.quiet") };
    });
    const before = procs.size + quiet.size;
    shown.procs.forEach((p) => procs.add(p));
    shown.quiet.forEach((q) => quiet.add(q));
    if (k > 0 && procs.size + quiet.size === before) break; // the bottom
    await page.evaluate(() => document.querySelector("#diagram svg").dispatchEvent(new WheelEvent("wheel", { deltaY: 60, altKey: true, cancelable: true })));
  }
  return { procs: [...procs], quiet: [...quiet] };
}

// frame waits until the diagram has drawn what was asked of it.
const frame = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

test("a ring of 200: quiet rows fold when zoomed in, and the toggle unfolds them", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await page.evaluate(() =>
    dsimEditor.setText('local w = sim.world{algorithm = "election.changroberts", n = 200}\nw:command(1, "elect")\nw:run()\n'),
  );
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => Number(document.querySelector("#diagram svg")?.getAttribute("data-total-arrows")) > 0, null, { timeout: patience });
  await frame(page);
  const toggle = page.locator("#diagram #fold");
  assert.equal(await toggle.getAttribute("aria-pressed"), "true", "folded by default past 20 processes");

  // zoomed in on the end of the run, the ELECTED message's last few hops
  // (about the middle, the two markers would read alike)
  await page.evaluate(() => {
    const svg = document.querySelector("#diagram svg");
    const r = svg.getBoundingClientRect();
    for (let k = 0; k < 4; k++) svg.dispatchEvent(new WheelEvent("wheel", { deltaY: -500, clientX: r.right - 2, clientY: r.top + 40, cancelable: true }));
  });
  await frame(page);
  await page.screenshot({ path: artifact("ring200-folded-1440.png") });
  const folded = await rows(page);
  assert.ok(folded.procs.length > 0 && folded.procs.length < 20, `a few processes' rows: ${folded.procs}`);
  assert.ok(folded.quiet.length > 0 && folded.quiet.every((q) => /^… \d+ quiet$/.test(q)), `quiet markers: ${folded.quiet}`);
  const quiet = folded.quiet.reduce((n, q) => n + Number(q.match(/\d+/)[0]), 0);
  assert.equal(folded.procs.length + quiet, 200, `every process is a row or in a marker: ${JSON.stringify(folded)}`);

  await toggle.click();
  assert.equal(await toggle.getAttribute("aria-pressed"), "false");
  const unfolded = await rows(page);
  assert.deepEqual(unfolded.quiet, [], "no markers");
  assert.equal(unfolded.procs.length, 200, `rows of ${unfolded.procs.length} processes`);
});
