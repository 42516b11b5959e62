// Message kinds in headless Chromium: after the bully example, one legend
// lists its kinds in order of first send; the diagram's arrows take their
// kind's colour, long ones carry its name, and the topology's message dots
// take the same colour as the legend; past the palette a kind's colour
// comes again dashed; the next run's kinds replace the last's; selecting
// an event still greys every arrow outside its causal cone.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { playground, pickExample, runState, patience, root, cli, artifact } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

const bully = "election/bully-textbook.lua";

// events are the CLI's trace of a shipped example's first world, the
// reference for the kinds and their order, each with its index, which is
// the page's event index.
function events(path) {
  let out;
  try {
    out = execFileSync(cli, ["run", "--format", "jsonl", join(root, "scripts/examples", path)], { encoding: "utf8" });
  } catch (err) {
    out = err.stdout; // a failing expectation still prints the trace
  }
  const lines = out.split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const end = lines.findIndex((e, i) => i > 0 && e.type === "world"); // the second world's header
  return lines.slice(1, end < 0 ? undefined : end).map((e, index) => ({ ...e, index }));
}

// legendColours maps each kind of the legend to its swatch's colour.
function legendColours(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("#kinds li")].map((li) => [li.dataset.kind, getComputedStyle(li.querySelector(".swatch line")).stroke]),
    ),
  );
}

// kindsSent are the message kinds a shipped example's first world sends,
// in order of first send.
function kindsSent(path) {
  return [...new Set(events(path).filter((e) => e.type === "send").map((e) => e.kind))];
}

async function legendKinds(page) {
  return page.locator("#kinds li").evaluateAll((ls) => ls.map((l) => l.dataset.kind));
}

async function labelTexts(page) {
  return page.locator("#diagram svg text.klabel:not(.off)").evaluateAll((ls) => ls.map((l) => l.textContent));
}

test("the bully example's kinds: one legend, coloured arrows with labels, coloured dots", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await pickExample(page, bully);
  await page.click("#run");
  await runState(page, "done");

  // the legend lists the kinds in order of their first send
  const ref = events(bully).filter((e) => e.type === "send");
  const kinds = kindsSent(bully);
  for (const k of ["ELECTION", "COORDINATOR"]) assert.ok(kinds.includes(k), `bully sends ${k}: ${kinds}`);
  assert.ok(kinds.includes("ANSWER") || kinds.includes("OK"), `bully answers: ${kinds}`);
  assert.equal(await page.locator("#kinds").isVisible(), true);
  assert.deepEqual(await page.locator("#kinds li").evaluateAll((ls) => ls.map((l) => l.textContent)), kinds);
  assert.deepEqual(await legendKinds(page), kinds);
  const colours = await legendColours(page);
  assert.equal(new Set(Object.values(colours)).size, kinds.length, `one colour a kind: ${JSON.stringify(colours)}`);

  // the diagram draws arrows in at least two colours, each a legend's
  const strokes = await page.evaluate(() =>
    [...document.querySelectorAll("#diagram svg path.arrows")].filter((p) => /M/.test(p.getAttribute("d") || "")).map((p) => getComputedStyle(p).stroke),
  );
  assert.ok(new Set(strokes).size >= 2, `arrow colours: ${strokes}`);
  for (const s of strokes) assert.ok(Object.values(colours).includes(s), `arrow colour ${s} is not in the legend`);

  // long arrows are named, in their kind's colour
  const labels = await page.evaluate(() =>
    [...document.querySelectorAll("#diagram svg text.klabel:not(.off)")].map((l) => ({ kind: l.textContent, fill: getComputedStyle(l).fill })),
  );
  assert.ok(labels.length > 0, "no kind label is drawn");
  for (const l of labels) assert.equal(l.fill, colours[l.kind], `label ${l.kind}`);
  await page.screenshot({ path: artifact("bully-textbook-kinds-1440.png") });

  // the topology's dots of messages in flight take the legend's colours:
  // just after the first send, its message is on its way
  await page.locator("#scrubber").fill(String(ref[0].index + 1));
  const dots = await page.evaluate(() =>
    [...document.querySelectorAll("#topology circle.msg:not(.off)")].map((d) => ({ kind: d.dataset.kind, fill: getComputedStyle(d).fill })),
  );
  assert.ok(dots.length > 0, "no message in flight in the topology");
  for (const d of dots) assert.equal(d.fill, colours[d.kind], `dot of ${d.kind}`);

  // scrubbed back, the legend is the world's, not the cursor's
  assert.equal(await page.locator("#kinds li").count(), kinds.length);
});

test("past the palette a colour comes again dashed; the next example's kinds replace the last's", async (t) => {
  const page = await pg.open(t);
  const central = "mutex/central-coordinator-crash.lua";
  let kinds = kindsSent(central);
  assert.ok(kinds.length > 8, `${central} sends ${kinds.length} kinds`);
  await pickExample(page, central);
  await page.click("#run");
  await runState(page, "done");
  assert.deepEqual(await legendKinds(page), kinds);
  const swatches = await page.locator("#kinds .swatch line").evaluateAll((ls) =>
    ls.map((l) => ({ stroke: getComputedStyle(l).stroke, dash: getComputedStyle(l).strokeDasharray })),
  );
  assert.equal(swatches[8].stroke, swatches[0].stroke, "the ninth kind takes the first colour again");
  assert.equal(swatches[0].dash, "none");
  assert.notEqual(swatches[8].dash, "none", "the ninth kind is dashed");
  assert.equal(new Set(swatches.map((s) => `${s.stroke} ${s.dash}`)).size, kinds.length, "two kinds look alike");

  // The label elements are reused: each must name a kind of the new run,
  // though an index into the kinds of the last one named another there
  // (this pair of examples has such a label).
  const ring = "election/ring-six.lua";
  kinds = kindsSent(ring);
  await pickExample(page, ring);
  await page.click("#run");
  await runState(page, "done");
  assert.deepEqual(await legendKinds(page), kinds);
  const labels = await labelTexts(page);
  assert.ok(labels.length > 0);
  for (const l of labels) assert.ok(kinds.includes(l), `label ${l} is not a kind of ${ring}`);
});

test("a selected event's causal cone wins over the kinds' colours", async (t) => {
  const page = await pg.open(t);
  await pickExample(page, bully);
  await page.click("#run");
  await runState(page, "done");
  const deliver = events(bully).find((e) => e.type === "deliver").index;
  await page.locator("#log-scroll").evaluate((el, k) => (el.scrollTop = k * 24 - 20), deliver);
  // the log recycles its rows as it scrolls: a row found before that is
  // redrawn under the pointer
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  await page.locator(`#log tr[data-index="${deliver}"]`).click();
  assert.match(await page.locator(`#log tr[data-index="${deliver}"]`).getAttribute("class"), /selected/);
  await page.waitForFunction(() => /^M/.test(document.querySelector("#diagram path.arrows.selected").getAttribute("d")), null, { timeout: patience });
  const coloured = await page.evaluate(() =>
    [...document.querySelectorAll("#diagram svg .kinds path")].filter((p) => /M/.test(p.getAttribute("d") || "")).length,
  );
  assert.equal(coloured, 0, "arrows kept their kind's colour beside a selection");
  // a kind's name shown is in the cone's colours
  const labels = await page.locator("#diagram svg text.klabel:not(.off)").evaluateAll((ls) => ls.map((l) => l.getAttribute("class")));
  for (const c of labels) assert.match(c, /klabel (past|future|selected)$/);
});
