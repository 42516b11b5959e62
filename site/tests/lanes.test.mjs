// The space-time diagram's lanes in headless Chromium: bars along the
// lifelines for the time a process is in its critical section, leader or
// crashed (one path per class, in the topology's colours); a red band where
// two processes are in their critical sections at once, as in world 1 of
// Lamport's algorithm on non-FIFO links, with a tooltip that names them,
// and none for the bully example; a
// tooltip near the plot's right and bottom edges stays inside the diagram.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { playground, pickExample, runState, patience, artifact } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

// run picks an example, runs it and shows its world w (0-based).
async function run(page, path, w) {
  await pickExample(page, path);
  await page.click("#run");
  await runState(page, "done");
  if ((await page.locator("#world option").count()) > 1 && (await page.inputValue("#world")) !== String(w)) {
    await page.selectOption("#world", String(w));
    await runState(page, "done");
  }
  // drawn: arrows, and the lanes of the world's first state change
  await page.waitForFunction(() => Number(document.querySelector("#diagram svg")?.getAttribute("data-total-arrows")) > 0 &&
    [...document.querySelectorAll("#diagram svg path.lane")].some((p) => p.getAttribute("d")), null, { timeout: patience });
}

// drawn maps each lane class, and the band, to how many stretches its path
// draws, with the path's stroke (or fill) colour.
function drawn(page) {
  return page.evaluate(() => {
    const out = {};
    for (const p of document.querySelectorAll("#diagram svg path.lane, #diagram svg path.band")) {
      const cls = p.classList.contains("band") ? "band" : [...p.classList].find((c) => c !== "lane");
      const css = getComputedStyle(p);
      out[cls] = { n: ((p.getAttribute("d") || "").match(/M/g) || []).length, stroke: css.stroke, fill: css.fill };
    }
    return out;
  });
}

// colour is the computed colour of a CSS variable of the page.
function colour(page, name) {
  return page.evaluate((name) => {
    const probe = document.createElement("i");
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  }, name);
}

test("lamport without FIFO: critical sections as green bars, their overlap as a red band", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await run(page, "mutex/lamport-no-fifo.lua", 0);
  const lanes = await drawn(page);
  for (const c of ["in-cs", "token", "leader", "candidate", "waiting", "crashed", "band"]) assert.ok(lanes[c], `a path for ${c}: ${JSON.stringify(lanes)}`);
  // processes 1 and 2 each enter the critical section once, and overlap
  assert.equal(lanes["in-cs"].n, 2, JSON.stringify(lanes));
  assert.equal(lanes["in-cs"].stroke, await colour(page, "--in-cs"));
  assert.equal(lanes.crashed.stroke, await colour(page, "--crashed"));
  assert.equal(lanes.band.n, 1, "one violation band");
  assert.equal(lanes.band.fill, await colour(page, "--danger"));
  // the band spans the plot's height, and lies behind the arrows and marks
  const order = await page.evaluate(() => {
    const all = [...document.querySelectorAll("#diagram svg > *")];
    const at = (sel) => all.indexOf(document.querySelector(`#diagram svg > ${sel}`));
    return { band: at("path.band"), lane: at("path.lane"), kinds: at("g.kinds"), mark: at("path.mark") };
  });
  assert.ok(order.band < order.lane && order.lane < order.kinds && order.lane < order.mark, JSON.stringify(order));
  const svg = await page.locator("#diagram svg").boundingBox();
  const band = await page.locator("#diagram svg path.band").boundingBox();
  assert.ok(band.height > svg.height * 0.8 && band.width >= 2, `band ${JSON.stringify(band)} in ${JSON.stringify(svg)}`);
  // between events, the band's tooltip names the processes
  await page.mouse.move(band.x + band.width / 2, band.y + band.height - 8);
  const tip = page.locator("#diagram .tip");
  await tip.waitFor({ state: "visible", timeout: patience });
  assert.match(await tip.textContent(), /mutual exclusion broken: processes \[1 2\]/);
  await page.mouse.move(0, 0);
  await tip.waitFor({ state: "hidden", timeout: patience });
  await page.screenshot({ path: artifact("lamport-lanes-1440.png") });
});

test("bully: leader and crash bars, no violation band", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await run(page, "election/bully-textbook.lua", 0);
  const lanes = await drawn(page);
  assert.ok(lanes.leader.n >= 1, JSON.stringify(lanes));
  assert.equal(lanes.leader.stroke, await colour(page, "--leader"));
  assert.ok(lanes.crashed.n >= 2, "P1 and P4 crash");
  assert.equal(lanes["in-cs"].n, 0);
  assert.equal(lanes.band.n, 0, "no violation band");
});

test("a tooltip near the plot's right and bottom edges stays inside the diagram", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1000, height: 800 } });
  await run(page, "election/bully-textbook.lua", 0);
  // in linear time the last delivery, at t=201 of 205, is at the plot's
  // right edge; collapsing idle stretches widens the busy ones
  await page.click("#collapse");
  await page.waitForFunction(() => !document.querySelector("#diagram svg path.break").getAttribute("d"), null, { timeout: patience });
  // an arrowhead's tip is a delivery: the one furthest right, and lowest
  // among those, is an event near the corner
  const [x, y] = await page.evaluate(() => {
    let best = null;
    for (const p of document.querySelectorAll("#diagram svg path.heads")) {
      for (const m of (p.getAttribute("d") || "").matchAll(/M(-?[\d.]+) (-?[\d.]+)/g)) {
        const pt = [Number(m[1]), Number(m[2])];
        if (!best || pt[0] > best[0] + 20 || (pt[0] > best[0] - 20 && pt[1] > best[1])) best = pt;
      }
    }
    return best;
  });
  const svg = await page.locator("#diagram svg").boundingBox();
  assert.ok(x > svg.width - 60, `an event near the right edge: x=${x} of ${svg.width}`);
  await page.mouse.move(svg.x + x, svg.y + y);
  const tip = page.locator("#diagram .tip");
  await tip.waitFor({ state: "visible", timeout: patience });
  assert.match(await tip.textContent(), /^#\d+ +t=\d+/);
  const box = await tip.boundingBox();
  const dia = await page.locator("#diagram").boundingBox();
  t.diagnostic(`pointer ${x},${y} in ${svg.width}x${svg.height}; tip ${JSON.stringify(box)}`);
  assert.ok(box.x >= dia.x && box.x + box.width <= dia.x + dia.width + 0.5, `tip ${JSON.stringify(box)} inside ${JSON.stringify(dia)} across`);
  assert.ok(box.y >= dia.y && box.y + box.height <= dia.y + dia.height + 0.5, `tip ${JSON.stringify(box)} inside ${JSON.stringify(dia)} down`);
});

test("six-digit process ids fit the row labels", async (t) => {
  const page = await pg.open(t);
  await page.evaluate(() =>
    dsimEditor.setText('local w = sim.world{algorithm = "election.changroberts", ids = {123456, 987654, 555555}, config = { all = true }}\nw:run()\n'),
  );
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => Number(document.querySelector("#diagram svg")?.getAttribute("data-total-arrows")) > 0, null, { timeout: patience });
  const svg = await page.locator("#diagram svg").boundingBox();
  const labels = await page.locator("#diagram svg .labels text:not([visibility])").evaluateAll((ts) => ts.map((t) => [t.textContent, t.getBBox().x]));
  assert.equal(labels.length, 3, JSON.stringify(labels));
  for (const [text, x] of labels) assert.ok(x >= 0, `${text} starts at ${x} of ${svg.width}`);
});
