// The engine of the built playground (build/site/dsim.wasm, engine mode,
// under Node) against the native CLI: every shipped scenario must give the
// same JSONL trace, byte for byte. This is the determinism the share links,
// replay and "fork from here" stand on.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { root, site, cli } from "./harness.mjs";

let engine;

// run runs a scenario in the engine, then asks it for the whole trace,
// which comes back as a string.
function run(req, progress) {
  const r = engine.run(req, progress);
  assert.equal(r.jsonl, undefined, "the result carries no trace: the engine keeps it");
  const t = engine.trace({ id: req.id, world: -1, format: "jsonl" });
  assert.ok(t.data instanceof Uint8Array, `the trace is sent as bytes (${t.error})`);
  return { ...r, jsonl: new TextDecoder("utf-8", { fatal: true }).decode(t.data) };
}

before(async () => {
  await import(join(site, "wasm_exec.js"));
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(readFileSync(join(site, "dsim.wasm")), go.importObject);
  go.run(instance); // no document here: the binary takes the engine role
  engine = globalThis.dsimEngine;
  assert.ok(engine, "dsim.wasm did not install globalThis.dsimEngine");
});

function scenarios(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith(".lua"))
    .map((d) => relative(root, join(d.parentPath ?? d.path, d.name)))
    .sort();
}

// native runs the CLI; a failing expectation or a script error still
// prints the trace, which is what is compared.
function native(file) {
  try {
    return execFileSync(cli, ["run", "--format", "jsonl", file], { cwd: root, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] }).toString();
  } catch (err) {
    if (err.stdout) return err.stdout.toString();
    throw err;
  }
}

for (const file of scenarios(join(root, "scripts/examples"))) {
  test(`same JSONL natively and in wasm: ${file}`, () => {
    const src = readFileSync(join(root, file), "utf8");
    const r = run({ op: "run", id: 7, name: file, src, seed: 1, seedSet: false });
    assert.equal(r.op, "result");
    assert.equal(r.id, 7);
    const want = native(file);
    assert.ok(want.length > 0, "the CLI printed no trace");
    // Not assert.equal on megabytes: say where they part.
    if (r.jsonl !== want) {
      const a = r.jsonl.split("\n");
      const b = want.split("\n");
      const i = a.findIndex((line, k) => line !== b[k]);
      assert.fail(`traces differ at line ${i + 1}:\n  wasm:   ${a[i]}\n  native: ${b[i]}`);
    }
  });
}

test("the engine answers trace requests about its last run only", () => {
  const src = 'for i = 1, 2 do local w = sim.world{algorithm = "election.bully", n = 3}; w:run() end\n';
  const r = run({ op: "run", id: 3, name: "two.lua", src, seed: 1, seedSet: false });
  assert.deepEqual(r.worlds.map((w) => [w.world, w.algorithm, w.processes]), [[1, "election.bully", 3], [2, "election.bully", 3]]);
  const ask = (id, world, format, more) => engine.trace({ id, world, format, ...more });
  const second = new TextDecoder().decode(ask(3, 1, "jsonl").data);
  assert.ok(second.startsWith('{"type":"world","schema":') && second.includes('"world":2'), "world 2 alone");
  assert.equal(second.split("\n").length - 2, r.worlds[1].events, "the summary counts the world's events");
  assert.match(ask(2, 0, "jsonl").error, /no longer holds/);
  assert.match(ask(3, 5, "jsonl").error, /no world 6/);
  assert.match(ask(3, 0, "xml").error, /unknown trace format/);
  assert.match(engine.trace().error, /wants a request/);
  assert.match(ask(3, "1", "jsonl").error, /wants a world index/);
  // a window of world 2: its bounds, its start time, its events
  const win = ask(3, 1, undefined, { window: true, at: 1, count: 3, procs: 10, how: "after" });
  assert.deepEqual([win.from, win.to], [1, 4]);
  const lines = new TextDecoder().decode(win.data).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.slice(-3).map((e) => e.seq), [1, 2, 3]);
  assert.equal(lines[0].type, "world");
  assert.match(ask(3, 1, undefined, { window: true, at: 1, count: 3, how: "after" }).error, /a window wants numbers/);
  // the whole world's overview grid
  const g = ask(3, 1, undefined, { overview: true, bands: 2, cols: 5 });
  assert.deepEqual([g.rows, g.bands, g.cols, g.counts.length], [3, 2, 5, 10]);
  assert.ok(g.counts.reduce((a, b) => a + b, 0) > 0);
  assert.match(ask(3, 1, undefined, { overview: true }).error, /an overview wants numbers bands and cols/);
});

test("a script error comes back with its line, the partial trace and the output", () => {
  const src = 'print("before")\nlocal w = sim.world{algorithm = "no.such"}\n';
  const r = run({ op: "run", id: 1, name: "bad.lua", src, seed: 1, seedSet: false });
  assert.deepEqual(r.error, { file: "bad.lua", line: 2, msg: r.error.msg });
  assert.match(r.error.msg, /no\.such/);
  assert.equal(r.output, "before\n");
  assert.equal(r.jsonl, "");
});

test("progress is reported during a long run", () => {
  const src = `
local w = sim.world{algorithm = "election.bully", n = 8, topology = "complete", config = {probe = 1}, max_events = 100000}
w:run{until_time = 1000000}
`;
  const calls = [];
  const r = run({ op: "run", id: 2, name: "long.lua", src, seed: 1, seedSet: false }, (events, time) => calls.push([events, time]));
  assert.equal(r.error, null);
  assert.equal(r.notes.length, 1, "the event limit is reported as a note");
  const lines = r.jsonl.split("\n").length - 2; // header and the final newline
  assert.equal(calls.length, Math.floor(lines / 20000));
  calls.forEach(([events], i) => assert.equal(events, (i + 1) * 20000));
  assert.ok(calls.every(([, t], i) => i === 0 || t >= calls[i - 1][1]), "time never goes back");
});

// The corpus of hostile scripts (core/script/testdata/hostile; see
// scripttest.LoadHostile for the headers) in the playground's engine, with
// the page's limits: each ends as its header says, with its one error at its
// file and line, within seconds.
const hostileDir = join(root, "core/script/testdata/hostile");
for (const name of readdirSync(hostileDir).filter((f) => f.endsWith(".lua")).sort()) {
  test(`hostile script in the engine: ${name}`, (t) => {
    const src = readFileSync(join(hostileDir, name), "utf8");
    const header = (key) => src.split("\n").filter((l) => l.startsWith(`-- ${key}: `)).map((l) => l.slice(key.length + 5));
    const [want] = header("error");
    const start = performance.now();
    const r = run({ op: "run", id: 3, name, src, seed: 1, seedSet: false });
    const took = performance.now() - start;
    t.diagnostic(`${name}: ${Math.round(took)} ms${r.error ? `, ${r.error.file}:${r.error.line}: ${r.error.msg.slice(0, 100)}` : ""}`);
    // A guard against a hang, not a measure of speed: the times are
    // printed above (a dozen seconds at most on a quiet machine), and
    // node --test runs the test files side by side on few cores.
    assert.ok(took < 60_000, `took ${Math.round(took)} ms`);
    assert.equal(r.output.replace(/\n… \(output truncated\)\n$/, ""), header("output").map((l) => l + "\n").join(""));
    if (!want) {
      assert.equal(r.error, null);
      return;
    }
    assert.ok(r.error, `no error, want one matching ${want}`);
    assert.equal(r.error.file, name);
    assert.ok(r.error.line >= 1);
    assert.match(`${r.error.file}:${r.error.line}: ${r.error.msg}`, new RegExp(want));
  });
}
