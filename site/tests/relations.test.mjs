// The relations view beside the topology (issue 16): a transaction world's
// global wait-for graph at the cursor with its cycle, the fully distributed
// detector's augmented graph of each site, and the atomic commit
// protocol's phases, stable logs and blocked sites.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { playground, artifact, runExample } from "./harness.mjs";

const pg = playground();
before(() => pg.start());
after(() => pg.stop());

// scrubTo puts the cursor after the last event at time t or before.
async function scrubTo(page, t) {
  const at = (n) => page.evaluate((n) => {
    const s = document.querySelector("#scrubber");
    s.value = n;
    s.dispatchEvent(new Event("input", { bubbles: true }));
    return Number(/t=(\d+)/.exec(document.querySelector("#time").textContent)[1]);
  }, n);
  let lo = 0, hi = Number(await page.getAttribute("#scrubber", "max"));
  while (lo < hi) { // the last n whose time is at most t
    const mid = Math.ceil((lo + hi) / 2);
    if ((await at(mid)) <= t) lo = mid; else hi = mid - 1;
  }
  await at(lo);
}

const relations = (page) => page.evaluate(() => ({
  title: document.querySelector("#rel-title").textContent,
  hidden: document.querySelector("#relations").hidden,
  svgShown: getComputedStyle(document.querySelector("#rel-svg")).display !== "none",
  caption: document.querySelector("#rel-caption").textContent,
  nodes: [...document.querySelectorAll("#rel-svg .txn text")].map((t) => t.textContent),
  red: document.querySelectorAll("#rel-svg .wait-item.cycle").length,
  sites: [...document.querySelectorAll("#rel-sites figure")].map((f) => f.querySelector("figcaption").textContent),
  rows: [...document.querySelectorAll("#rel-table tr[data-phase]")].map((r) => [...r.cells].map((c) => c.textContent).join(" | ")),
  blocked: document.querySelectorAll("#rel-table tr.blocked").length,
}));

test("the wait-for graph at the cursor, its cycle in red; hidden for other worlds", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  // the majority protocol deadlocks on a single item: T1 and T2 each hold
  // half the copies of Q and wait for the other's
  await runExample(page, "cc/majority-deadlock.lua");
  let r = await relations(page);
  t.diagnostic(JSON.stringify(r));
  assert.equal(r.hidden, false);
  assert.equal(r.title, "Wait-for graph");
  assert.equal(r.svgShown, true);
  assert.deepEqual(r.nodes, ["T1", "T2"]);
  assert.equal(r.caption, "Deadlock: T1 → T2 → T1");
  assert.equal(r.red, 2);
  // at the start nothing waits yet
  await scrubTo(page, 0);
  r = await relations(page);
  assert.notEqual(r.caption.startsWith("Deadlock"), true, r.caption);
  await page.screenshot({ path: artifact("relations-waitfor.png") });

  await runExample(page, "election/bully-textbook.lua");
  assert.equal((await relations(page)).hidden, true, "an election has no relations view");
});

test("P_ex: each site's augmented graph, with the cycles of the text's example", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await runExample(page, "deadlock/pex-seed.lua");
  await scrubTo(page, 4); // both sites have found their cycles through P_ex
  const r = await relations(page);
  t.diagnostic(JSON.stringify(r));
  assert.deepEqual(r.sites, ["S1: Pex → T2 → T3 → Pex", "S2: Pex → T3 → T4 → T2 → Pex"]);
  assert.equal(r.caption, "Deadlock: T2 → T3 → T4 → T2");
  await page.screenshot({ path: artifact("relations-pex.png") });
});

test("two-phase commit: the phases, the stable logs, and the sites blocked while the coordinator is down", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await runExample(page, "commit/twophase-blocking.lua");
  await scrubTo(page, 20);
  let r = await relations(page);
  t.diagnostic(JSON.stringify(r));
  assert.equal(r.title, "Atomic commit");
  assert.equal(r.svgShown, false, "the table takes the graph's place");
  assert.deepEqual(r.rows, [
    "P1 (coordinator) | down |  | <prepare T1>",
    "P2 | blocked | ready | <ready T1>",
    "P3 | blocked | ready | <ready T1>",
  ]);
  assert.equal(r.blocked, 2);
  assert.match(r.caption, /the coordinator is down; 2 sites blocked/);
  await page.screenshot({ path: artifact("relations-2pc-blocked.png") });
  await scrubTo(page, 1e9);
  r = await relations(page);
  assert.equal(r.blocked, 0);
  assert.deepEqual(r.rows, [
    "P1 (coordinator) | complete |  | <prepare T1> <abort T1> <complete T1>",
    "P2 | abort | ready | <ready T1> <abort T1>",
    "P3 | abort | ready | <ready T1> <abort T1>",
  ]);
});

test("OM(1): a lieutenant's tree of orders folds into its decision; the traitor is marked", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await runExample(page, "agreement/om-lieutenant.lua");
  const tree = () => page.evaluate(() => ({
    title: document.querySelector("#rel-title").textContent,
    lines: [...document.querySelectorAll("#rel-tree li")].map((li) => li.firstChild.textContent + li.children[1].textContent),
    folds: [...document.querySelectorAll("#rel-tree .fold")].map((f) => f.textContent),
    traitors: [...document.querySelectorAll("#rel-tree li.traitor")].length,
    caption: document.querySelector("#rel-caption").textContent,
  }));
  let r = await tree();
  t.diagnostic(JSON.stringify(r));
  assert.equal(r.title, "OM(1): the orders a lieutenant received");
  // the paper's Fig. 3: the traitor P4 passes attack to P2 and retreat to P3
  assert.deepEqual(r.lines, ["P1 → P2: attack", "P1 → P3 → P2: attack", "P1 → P4 → P2: attack"]);
  assert.deepEqual(r.folds, [" ⇒ majority(attack, attack, attack) = attack"]);
  assert.equal(r.traitors, 1);
  assert.equal(r.caption, "Decisions: P2 attack, P3 attack, P4 traitor");
  await page.screenshot({ path: artifact("relations-om.png") });
  await page.selectOption("#rel-pick", "3");
  r = await tree();
  assert.deepEqual(r.lines, ["P1 → P3: attack", "P1 → P2 → P3: attack", "P1 → P4 → P3: retreat"]);
  assert.deepEqual(r.folds, [" ⇒ majority(attack, attack, retreat) = attack"]);
  // before the relays arrive, a missing order counts as retreat
  await scrubTo(page, 0);
  r = await tree();
  assert.match(r.lines[1], /nothing yet \(retreat by default\)/);
});
