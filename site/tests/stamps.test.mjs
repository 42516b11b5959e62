// Timestamps on the diagram (issue 15): C(e) labels the sends, receives
// and internal events with their Lamport, then their vector timestamps,
// which this test computes again from the CLI's trace alone.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { playground, runState, artifact, cli, patience } from "./harness.mjs";

const pg = playground();
before(() => pg.start());
after(() => pg.stop());

// Three processes of Ricart-Agrawala, two asking at once: sends,
// receives and commands on every process.
const src = `local w = sim.world{algorithm = "mutex.ricartagrawala", n = 3}
w:command(1, "request", {duration = 5})
w:command(2, "request", {duration = 5})
w:run()
`;

// stamps computes the Lamport and vector timestamps of a parsed JSONL
// world: sends, deliveries, timers, commands, crashes and recoveries are
// events, in process order, a delivery after its send; but a timer or a
// command whose handler sends (its process's next events, before any event
// elsewhere) is none: its first send is, and takes its place.
function stamps(header, events) {
  const step = new Set(["send", "deliver", "timer", "command", "crash", "recover"]);
  const pos = new Map(header.ids.map((id, k) => [id, k]));
  const lastL = new Map(), lastV = new Map(), sentL = new Map(), sentV = new Map();
  const lamport = [], vector = [];
  let cause = null; // {node, k}: the timer or command just stamped, at lamport[k]
  for (const e of events) {
    if (cause && (e.node !== cause.node || (step.has(e.type) && e.type !== "send"))) cause = null;
    if (e.node === undefined || !step.has(e.type)) continue;
    if (cause && e.type === "send") {
      sentL.set(e.id, lastL.get(e.node));
      sentV.set(e.id, lastV.get(e.node));
      cause = null;
      continue; // the send keeps the stamps pushed for its cause
    }
    if (e.type === "timer" || e.type === "command") cause = { node: e.node };
    let l = lastL.get(e.node) ?? 0;
    const v = [...(lastV.get(e.node) ?? header.ids.map(() => 0))];
    if (e.type === "deliver" && sentL.has(e.id)) {
      l = Math.max(l, sentL.get(e.id));
      sentV.get(e.id).forEach((c, k) => (v[k] = Math.max(v[k], c)));
    }
    l++;
    v[pos.get(e.node)]++;
    lastL.set(e.node, l);
    lastV.set(e.node, v);
    if (e.type === "send") (sentL.set(e.id, l), sentV.set(e.id, v));
    lamport.push(String(l));
    vector.push(`(${v.join(",")})`);
  }
  return { lamport: lamport.sort(), vector: vector.sort() };
}

test("C(e) labels the events with their Lamport, then vector timestamps", async (t) => {
  const file = artifact("stamps.lua");
  writeFileSync(file, src);
  const [header, ...events] = execFileSync(cli, ["run", "--format", "jsonl", file], { encoding: "utf8" }).trim().split("\n").map((l) => JSON.parse(l));
  const want = stamps(header, events);

  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await page.evaluate((s) => dsimEditor.setText(s), src);
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => document.querySelector("#diagram svg")?.hasAttribute("data-plot"), null, { timeout: patience });
  const labels = () => page.locator("#diagram svg g.stamps text").evaluateAll((ts) => ts.map((x) => x.textContent).filter((s) => s !== "").sort());

  assert.deepEqual(await labels(), [], "no labels at first");
  await page.click("#stamps");
  assert.equal(await page.locator("#stamps").getAttribute("data-mode"), "lamport");
  await page.waitForFunction(() => [...document.querySelectorAll("#diagram svg g.stamps text")].some((x) => x.textContent !== ""), null, { timeout: patience });
  assert.deepEqual(await labels(), want.lamport);
  await page.screenshot({ path: artifact("stamps-lamport-1440.png") });

  await page.click("#stamps");
  assert.equal(await page.locator("#stamps").getAttribute("data-mode"), "vector");
  await page.waitForFunction(() => [...document.querySelectorAll("#diagram svg g.stamps text")].some((x) => x.textContent.startsWith("(")), null, { timeout: patience });
  assert.deepEqual(await labels(), want.vector);

  await page.locator("#diagram svg").focus();
  await page.keyboard.press("t");
  assert.equal(await page.locator("#stamps").getAttribute("data-mode"), "");
  await page.waitForFunction(() => [...document.querySelectorAll("#diagram svg g.stamps text")].every((x) => x.textContent === ""), null, { timeout: patience });
});

test("a run of clock.lamport shows its own clocks: Tanenbaum's 61 and 70", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await page.selectOption("#examples", "clocks/lamport-tanenbaum.lua");
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => document.querySelector("#diagram svg")?.hasAttribute("data-plot"), null, { timeout: patience });
  await page.click("#stamps");
  await page.waitForFunction(() => [...document.querySelectorAll("#diagram svg g.stamps text")].some((x) => x.textContent !== ""), null, { timeout: patience });
  assert.equal(await page.locator("#stamps").getAttribute("data-own"), "true");
  const labels = await page.locator("#diagram svg g.stamps text").evaluateAll((ts) => ts.map((x) => x.textContent).filter((s) => s !== ""));
  for (const v of ["6", "60", "61", "69", "70"]) assert.ok(labels.includes(v), `no label ${v} in ${labels.join(" ")}`);
  await page.screenshot({ path: artifact("stamps-tanenbaum-1440.png") });
});
