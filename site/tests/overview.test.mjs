// The overview strip above the space-time diagram in headless Chromium:
// past 20 processes, a strip shows the whole run (its cells shaded by how
// many events they hold), the diagram's window as a frame, and a failed
// check as a red tick; a click on it moves the diagram's time window and
// scrolls its rows there, and arrow keys pan. Its time collapses idle
// stretches as the diagram's does. Up to 20 processes, there is no strip.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { playground, pickExample, runState, patience, artifact } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

// frame waits until the diagram has drawn what was asked of it.
const frame = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

// state reads the strip and the diagram: the strip's box and label, its
// grid (a canvas pixel a cell: the cells with events, by colour), failed
// checks' ticks and frame (in percent of the strip), the diagram's time
// window and the processes whose rows it shows.
function state(page) {
  return page.evaluate(() => {
    const box = document.querySelector("#diagram .overview");
    const canvas = box.querySelector("canvas");
    const st = document.querySelector("#diagram svg");
    const r = box.getBoundingClientRect();
    const shades = {};
    const px = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    for (let k = 0; k < px.length; k += 4) {
      if (px[k + 3] > 0) {
        const c = `${px[k]},${px[k + 1]},${px[k + 2]}`;
        shades[c] = (shades[c] || 0) + 1;
      }
    }
    const style = box.querySelector(".window").style;
    const pct = (v) => parseFloat(v);
    return {
      hidden: box.hidden,
      height: r.height,
      label: box.getAttribute("aria-label"),
      cols: canvas.width,
      bands: canvas.height,
      shades,
      fails: box.querySelectorAll(".fails i").length,
      win: { x: pct(style.left), y: pct(style.top), w: pct(style.width), h: pct(style.height) },
      t0: Number(st.getAttribute("data-t0")),
      t1: Number(st.getAttribute("data-t1")),
      procs: [...st.querySelectorAll(".labels text.row:not([visibility])")].map((t) => Number(t.textContent.slice(1))),
    };
  });
}

// clickStrip clicks the strip at fractions fx, fy of its width and height.
async function clickStrip(page, fx, fy) {
  const r = await page.locator("#diagram .overview").boundingBox();
  await page.mouse.click(r.x + fx * r.width, r.y + fy * r.height);
  await frame(page);
}

test("a ring of 200: the strip shows the run, and a click moves the diagram there", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await page.evaluate(() =>
    dsimEditor.setText(
      'local w = sim.world{algorithm = "election.changroberts", n = 200}\nw:command(1, "elect")\nw:run()\nexpect(false, "a failed check, for its tick")\n',
    ),
  );
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => Number(document.querySelector("#diagram svg")?.getAttribute("data-total-arrows")) > 0, null, { timeout: patience });
  await frame(page);

  const fit = await state(page);
  assert.equal(fit.hidden, false, "a strip past 20 processes");
  assert.ok(fit.height >= 32 && fit.height <= 48, `strip height ${fit.height}`);
  assert.match(fit.label, /^overview of the run: 200 processes, t=0\.\.\d+$/);
  const end = Number(fit.label.match(/\.\.(\d+)$/)[1]);
  assert.ok(end > 200, `the run ends at ${end}`);
  assert.equal(fit.bands, 40, "200 rows in 40 bands");
  const cells = Object.values(fit.shades);
  assert.ok(cells.reduce((a, b) => a + b, 0) > 40, `cells painted, by colour: ${JSON.stringify(fit.shades)}`);
  assert.ok(cells.length >= 2, `more than one shade: ${JSON.stringify(fit.shades)}`);
  // fitted, the diagram shows the whole run, and the first rows
  assert.ok(fit.win.x <= 1 && fit.win.x + fit.win.w >= 99, `the frame spans the run: ${JSON.stringify(fit.win)}`);
  assert.ok(fit.win.y === 0 && fit.win.h > 0 && fit.win.h < 50, `the frame holds the first rows: ${JSON.stringify(fit.win)}`);
  assert.ok(fit.procs.includes(1), `P1 shown: ${fit.procs}`);
  assert.equal(fit.fails, 1, "a tick for the failed check");
  await page.screenshot({ path: artifact("overview-200-1440.png") });

  // a low band: the last processes' rows
  await clickStrip(page, 0.5, 0.95);
  const low = await state(page);
  assert.ok(low.procs.length > 0 && Math.min(...low.procs) > 150, `the last processes shown: ${low.procs}`);
  assert.ok(low.win.y > 90, `the frame near the bottom: ${JSON.stringify(low.win)}`);

  // zoomed in, a click near the right end centres the window there
  await page.click("#zoom-in");
  await page.click("#zoom-in");
  await frame(page);
  const zoomed = await state(page);
  const span = zoomed.t1 - zoomed.t0;
  assert.ok(span < end / 2, `zoomed in: t=${zoomed.t0}..${zoomed.t1}`);
  await clickStrip(page, 0.95, 0.5);
  const right = await state(page);
  const mid = (right.t0 + right.t1) / 2;
  assert.ok(Math.abs(mid - 0.95 * end) < end * 0.03, `window t=${right.t0}..${right.t1} centred on ${mid}, want about ${0.95 * end}`);
  assert.ok(Math.abs(right.t1 - right.t0 - span) <= 1, "the zoom is kept");
  assert.ok(right.win.x > zoomed.win.x + 25, `the frame moved right: ${zoomed.win.x} to ${right.win.x}`);

  // arrow keys pan the diagram from the strip
  await page.focus("#diagram .overview");
  await page.keyboard.press("ArrowLeft");
  await frame(page);
  const left = await state(page);
  assert.ok(left.t0 < right.t0 && left.t1 < right.t1, `ArrowLeft: t=${right.t0}.. to ${left.t0}..`);
});

// busyColumns is the fraction of the strip's columns with an event.
function busyColumns(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector("#diagram .overview canvas");
    const px = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    let busy = 0;
    for (let c = 0; c < canvas.width; c++) {
      for (let b = 0; b < canvas.height; b++) {
        if (px[4 * (b * canvas.width + c) + 3] > 0) {
          busy++;
          break;
        }
      }
    }
    return busy / canvas.width;
  });
}

test("two elections 5000 apart: the strip collapses the wait as the diagram does", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await page.evaluate(() =>
    dsimEditor.setText(
      'local w = sim.world{algorithm = "election.changroberts", n = 30}\nw:command(1, "elect")\nw:run()\n' +
        'w:at(w:now() + 5000, function() w:command(2, "elect") end)\nw:run()\n',
    ),
  );
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => Number(document.querySelector("#diagram svg")?.getAttribute("data-total-arrows")) > 0, null, { timeout: patience });
  await frame(page);
  const collapsed = await busyColumns(page);
  assert.ok(collapsed > 0.6, `collapsed: ${collapsed} of the columns busy`);

  await page.click("#diagram #collapse");
  await frame(page);
  const linear = await busyColumns(page);
  assert.ok(linear < 0.1, `linear: ${linear} of the columns busy`);
  const s = await state(page);
  assert.ok(s.win.x <= 1 && s.win.x + s.win.w >= 99, `the refitted window spans the run: ${JSON.stringify(s.win)}`);
});

test("5 processes: no strip", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await pickExample(page, "election/bully-textbook.lua");
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => Number(document.querySelector("#diagram svg")?.getAttribute("data-total-arrows")) > 0, null, { timeout: patience });
  await frame(page);
  const s = await state(page);
  assert.equal(s.hidden, true, "the strip is hidden");
  assert.equal(s.height, 0, "and takes no room");
});
