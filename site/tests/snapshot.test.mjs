// Snapshots and replicas on the page (issue 15): the Snapshot button draws
// the cut a snapshot algorithm recorded and says what it recorded, and the
// chart under the diagram follows the balances of a bank's accounts or of
// a replicated account's replicas, diverging or agreeing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { playground, artifact, patience, runExample } from "./harness.mjs";

const pg = playground();
before(() => pg.start());
after(() => pg.stop());

const verdict = (page) => page.evaluate(() => {
  const v = document.querySelector(".cut-verdict");
  return { text: v.textContent, consistent: v.dataset.consistent, snapshot: v.dataset.snapshot };
});

test("Snapshot draws the cut Chandy-Lamport recorded, and what it recorded", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await runExample(page, "snapshot/bank.lua");
  await page.waitForSelector("#snapshot-cut:not([hidden])", { timeout: patience });
  await page.locator("#diagram svg").focus();
  await page.keyboard.press("s");
  let v = await verdict(page);
  t.diagnostic(v.text);
  assert.equal(v.snapshot, "1");
  assert.equal(v.consistent, "true");
  assert.match(v.text, /P1 70, P2 50, P3 100/);
  assert.match(v.text, /30 in the channel 1→2 \(transfer #1\), 50 in the channel 2→1 \(transfer #1\); total 300/);
  assert.match(v.text, /2 messages in flight across it/);
  // the accounts' balances, charted under the diagram, end at 120, 80, 100
  await page.waitForSelector("#clocks:not([hidden]) polyline", { timeout: patience });
  const lines = await page.$$eval("#clock-svg polyline", (ls) => ls.map((l) => `${l.dataset.name}=${l.dataset.last}`));
  assert.deepEqual(lines, ["P1=120", "P2=80", "P3=100"]);
  assert.equal(await page.textContent("#clock-title"), "Balance");
  assert.equal(await page.getAttribute("#clock-svg", "aria-label"), "balance over time");
  assert.ok(Number(await page.textContent("#clock-bottom")) >= 0, "balances that never go negative get no negative scale");
  await page.screenshot({ path: artifact("snapshot-bank.png") });

  // without FIFO links the marker overtakes a transfer: the recorded cut
  // is inconsistent and 10 of the 200 go missing
  await runExample(page, "snapshot/broken-cut.lua");
  await page.click("#snapshot-cut");
  v = await verdict(page);
  t.diagnostic(v.text);
  assert.equal(v.consistent, "false");
  // two transfers on the channel 1→2, told apart as the checks tell them
  assert.match(v.text, /crossing it backwards \(TRANSFER 1→2 #\d+ of \d+\)/);
  assert.match(v.text, /total 190/);
  await page.screenshot({ path: artifact("snapshot-broken-cut.png") });
});

test("the replicated bank's replicas diverge under FIFO order and agree under total order", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await runExample(page, "ordering/replicated-bank.lua");
  const balances = async () => {
    await page.waitForSelector("#clocks:not([hidden]) polyline", { timeout: patience });
    return page.$$eval("#clock-svg polyline", (ls) => ls.map((l) => Number(l.dataset.last)));
  };
  const worlds = await page.$$eval("#world option", (os) => os.map((o) => o.textContent));
  t.diagnostic(worlds.join(" | "));
  const seen = [];
  for (let i = 0; i < worlds.length; i++) {
    await page.selectOption("#world", String(i));
    await page.waitForFunction((i) => document.querySelector("#world").value === String(i) && !document.querySelector("#clocks").hidden, i, { timeout: patience });
    await page.waitForTimeout(200);
    seen.push({ world: worlds[i], balances: (await balances()).sort(), legend: await page.$$eval("#clock-legend li", (ls) => ls.map((l) => l.textContent)) });
  }
  t.diagnostic(JSON.stringify(seen));
  assert.deepEqual(seen[0].balances, [1110, 1111], "FIFO: the replicas diverge");
  // a unit apart on a scale of a thousand: the legend says where each ends
  assert.deepEqual(seen[0].legend, ["P1 1111", "P2 1110"]);
  for (const s of seen.slice(1)) assert.deepEqual(s.balances, [1111, 1111], `${s.world}: the replicas agree`);
  await page.selectOption("#world", "0");
  await page.waitForTimeout(300);
  await page.screenshot({ path: artifact("replicated-bank.png") });
});
