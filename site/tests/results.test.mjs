// Results first (issue 14): the trace stays in the engine's worker, the page
// shows checks, statistics and output the moment the engine ends, asks for
// the one world it shows, and a world too large to draw gets its summary
// and a clear message naming the limit rather than a page that reads for
// minutes. The world menu lists only worlds with something to show.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { playground, runState, artifact, cli } from "./harness.mjs";

const pg = playground();
before(() => pg.start());
after(() => pg.stop());

// longTasks counts the page's main-thread tasks over 50 ms from now on
// (the browser reports no shorter ones), for the figures in the log.
async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.dsimLongTasks = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.dsimLongTasks.push(e.duration)))
      .observe({ type: "longtask" });
  });
}

async function runText(page, src) {
  await page.evaluate((s) => dsimEditor.setText(s), src);
  const start = Date.now();
  await page.click("#run");
  return start;
}

const big = (n) => `local w = sim.world{algorithm = "election.changroberts", n = ${n}}
w:command(1, "elect")
w:run()
expect(w:agreed("leader") == ${n}, "every process follows ${n}")
`;

test("a world too large to draw shows its checks, statistics and a message naming the limit", async (t) => {
  const page = await pg.open(t);
  await watchLongTasks(page);
  const file = artifact("cr-1e5.lua");
  writeFileSync(file, big(100000));
  let cliMs = Date.now();
  execFileSync(cli, ["run", file], { stdio: "ignore" });
  cliMs = Date.now() - cliMs;

  const start = await runText(page, big(100000));
  await page.waitForSelector("#checks .verdict", { timeout: 120_000 });
  const checksMs = Date.now() - start;
  await runState(page, "done");
  const longest = await page.evaluate(() => Math.max(0, ...window.dsimLongTasks));
  t.diagnostic(`Chang-Roberts n=10^5: checks after ${checksMs} ms in the page, ${cliMs} ms for the CLI (${(checksMs / cliMs).toFixed(1)}x); longest main-thread task ${Math.round(longest)} ms`);

  assert.equal(await page.locator("#checks .verdict").textContent(), "4 passed, 0 failed");
  // fmtInt groups digits with a thin space
  const digits = (s) => s.replace(/(\d)\D(?=\d{3}\b)/g, "$1");
  assert.match(digits(await page.locator("#status").textContent()), /World 1 has \d+ events, more than the 200000 this page draws/);
  // The statistics come from the engine's summary: 3n-1 messages (n-1
  // ELECTION hops from process 1 to n, n round the ring back to n, and n
  // ELECTED), all delivered.
  const cells = (await page.locator("#stats tbody tr td").allTextContents()).map(digits);
  assert.deepEqual(cells, ["all", "299999", "299999", "0"]);
  // Nothing of the trace was copied to the page, and the downloads still
  // work: the engine writes them.
  assert.ok(!(await page.isDisabled("#download-jsonl")));
  await page.screenshot({ path: artifact("cr-1e5-1440.png") });
});

test("the world menu lists only worlds with a trace; the first of them opens", async (t) => {
  const page = await pg.open(t);
  const src = `for i = 1, 3 do
  local w = sim.world{algorithm = "election.bully", n = 3, trace = (i == 2)}
  w:run()
end
print("three worlds")
`;
  await runText(page, src);
  await runState(page, "done");
  const options = await page.locator("#world option").allTextContents();
  assert.equal(options.length, 1, `menu: ${options.join(" | ")}`);
  assert.match(options[0], /^world 2: election\.bully/);
  assert.ok(await page.locator("#world").isHidden(), "one world to show needs no menu");
  assert.ok(await page.locator("#log tbody tr").count() > 0, "world 2's events are in the log");
  assert.equal(await page.locator("#output").textContent(), "three worlds\n");
});

test("a run whose worlds are all untraced shows its output and says why there is no diagram", async (t) => {
  const page = await pg.open(t);
  await runText(page, `local w = sim.world{algorithm = "election.bully", n = 3, trace = false}
w:run()
print("ran to t=" .. w:now())
`);
  await runState(page, "done");
  assert.match(await page.locator("#output").textContent(), /^ran to t=\d+\n$/);
  assert.match(await page.locator("#status").textContent(), /No world of this run records a trace/);
});
