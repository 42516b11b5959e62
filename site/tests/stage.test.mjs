// The topology as a stage: messages in flight travel between the rims of
// the processes and never cover one, named by kind when few; a ring of 200
// processes is dots with its leader large and labelled; a click on a
// process opens its menu, whose crash or command becomes a sim.intervene
// line of the scenario and a rerun.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { playground, pickExample, runState, artifact, patience } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

// circles gives the centre and radius, in page pixels, of the circles
// matched by selector.
function circles(page, selector) {
  return page.evaluate((sel) =>
    [...document.querySelectorAll(sel)].map((c) => {
      const b = c.getBoundingClientRect();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2, r: b.width / 2, id: c.parentNode.dataset.id, kind: c.dataset.kind };
    }), selector);
}

async function runScenario(page, text) {
  await page.evaluate((s) => dsimEditor.setText(s), text);
  await page.click("#run");
  await runState(page, "done");
}

test("a message in flight never covers a process, and says its kind", async (t) => {
  const page = await pg.open(t);
  await pickExample(page, "election/bully-textbook.lua");
  await page.click("#run");
  await runState(page, "done");
  const total = Number(await page.locator("#scrubber").getAttribute("max"));
  let seen = 0;
  for (let k = 1; k <= Math.min(total, 60); k++) {
    await page.locator("#scrubber").fill(String(k));
    const dots = await circles(page, "#topology circle.msg:not(.off)");
    if (dots.length === 0) continue;
    const nodes = await circles(page, "#topology g.node circle");
    for (const d of dots) {
      for (const n of nodes) {
        assert.ok(Math.hypot(d.x - n.x, d.y - n.y) > n.r, `at event ${k}, a ${d.kind} dot's centre is inside process ${n.id}`);
      }
    }
    if (seen === 0) await page.locator(".topo").screenshot({ path: artifact("stage-dots.png") });
    seen += dots.length;
    if (dots.length <= 12) {
      const names = await page.locator("#topology text.msg:not(.off)").allTextContents();
      assert.deepEqual(names.sort(), dots.map((d) => d.kind).sort(), `at event ${k}, the kinds named`);
    }
  }
  assert.ok(seen > 0, "no message was in flight in the first events");
});

test("a ring of 200: ordinary processes are dots, the leader is large and labelled", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await runScenario(page, 'local w = sim.world{algorithm = "election.changroberts", n = 200}\nw:command(1, "elect")\nw:run()\n');
  await page.waitForFunction(() => document.querySelectorAll("#topology g.node").length === 200, null, { timeout: patience });
  const leader = page.locator("#topology g.node.cls-leader");
  assert.equal(await leader.count(), 1);
  assert.equal(await leader.getAttribute("data-id"), "200");
  assert.equal(await leader.locator("text").textContent(), "200");
  // the others are dots, apart and unlabelled
  const dots = await circles(page, "#topology g.node:not(.cls-leader) circle");
  assert.equal(dots.length, 199);
  assert.equal(await page.locator("#topology g.node:not(.cls-leader) text").count(), 0);
  const [big] = await circles(page, "#topology g.node.cls-leader circle");
  for (const d of dots) assert.ok(big.r > 2 * d.r, `leader radius ${big.r} beside ${d.r}`);
  for (let i = 0; i < dots.length; i++) {
    for (let j = i + 1; j < dots.length; j++) {
      assert.ok(Math.hypot(dots[i].x - dots[j].x, dots[i].y - dots[j].y) >= dots[i].r + dots[j].r, `processes ${dots[i].id} and ${dots[j].id} overlap`);
    }
  }
  // drawn over the dots
  assert.equal(await page.evaluate(() => document.querySelector("#topology g.node.cls-leader").parentNode.getAttribute("class")), "notables");
  await page.locator(".topo").screenshot({ path: artifact("ring200-1440-topology.png") });
  await page.screenshot({ path: artifact("ring200-1440.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator(".topo").scrollIntoViewIfNeeded();
  await page.screenshot({ path: artifact("ring200-390.png") });
});

test("a click on a process opens its menu: crash, or a command, is written and rerun", async (t) => {
  const page = await pg.open(t);
  const ring = 'local w = sim.world{algorithm = "election.changroberts", n = 5}\nw:run{until_time = 50}\n';
  await runScenario(page, ring);
  assert.equal(await page.locator("#topology g.node.cls-leader").count(), 0, "no election without elect");

  // at the start, process 2 is told to elect
  await page.locator("#scrubber").fill("0");
  await page.click('#topology g.node[data-id="2"]');
  const menu = page.locator(".topo-menu");
  assert.ok(await menu.isVisible(), "the menu opened");
  assert.deepEqual(await menu.locator("button:not([hidden])").allTextContents(), ["crash", "elect", "show its events"]);
  await page.locator(".topo").screenshot({ path: artifact("stage-menu.png") });
  await page.keyboard.press("Escape");
  assert.ok(!(await menu.isVisible()), "Escape closes the menu");
  await page.click('#topology g.node[data-id="2"]');
  await menu.locator("button", { hasText: "elect" }).click();
  await runState(page, "done");
  const elected = await page.evaluate(() => dsimEditor.getText());
  assert.equal(elected, 'sim.intervene{world=1, t=0, command="elect", node=2}\n' + ring);
  assert.equal(await page.locator("#topology g.node.cls-leader").getAttribute("data-id"), "5");

  // at the end, process 3 is crashed
  const t1 = Number((await page.locator("#time").textContent()).match(/^t=(\d+)/)[1]);
  await page.click('#topology g.node[data-id="3"]');
  await menu.locator("button", { hasText: "crash" }).click();
  await runState(page, "done");
  assert.equal(await page.evaluate(() => dsimEditor.getText()), `sim.intervene{world=1, t=${t1}, crash=3}\n` + elected);
  assert.match(await page.locator('#topology g.node[data-id="3"]').getAttribute("class"), /cls-crashed/);
  // a crashed process offers recovery, and no command
  await page.click('#topology g.node[data-id="3"]');
  assert.deepEqual(await menu.locator("button:not([hidden])").allTextContents(), ["recover", "show its events"]);
});

test("the open menu follows the cursor: crash before the process crashes, recover after", async (t) => {
  const page = await pg.open(t);
  const ring = 'local w = sim.world{algorithm = "election.changroberts", n = 5}\nw:run{until_time = 50}\n';
  await runScenario(page, "sim.intervene{world=1, t=10, crash=3}\n" + ring);
  const end = await page.locator("#scrubber").getAttribute("max");
  const menu = page.locator(".topo-menu");
  const items = () => menu.locator("button:not([hidden])").allTextContents();

  await page.locator("#scrubber").fill("0");
  await page.click('#topology g.node[data-id="3"]');
  assert.deepEqual(await items(), ["crash", "elect", "show its events"]);
  // the cursor moves past the crash under the open menu
  await page.locator("#scrubber").fill(end);
  await page.waitForFunction(() => /cls-crashed/.test(document.querySelector('#topology g.node[data-id="3"]').getAttribute("class")), null, { timeout: patience });
  assert.ok(await menu.isVisible(), "the menu stays open");
  assert.deepEqual(await items(), ["recover", "show its events"]);
  // and back
  await page.locator("#scrubber").fill("0");
  assert.deepEqual(await items(), ["crash", "elect", "show its events"]);

  // what the menu offers is what it does: recovery at the end of the run
  await page.locator("#scrubber").fill(end);
  const t1 = Number((await page.locator("#time").textContent()).match(/^t=(\d+)/)[1]);
  await menu.locator("button", { hasText: "recover" }).click();
  await runState(page, "done");
  assert.match(await page.evaluate(() => dsimEditor.getText()), new RegExp(`^sim\\.intervene\\{world=1, t=${t1}, recover=3\\}\n`));
});
