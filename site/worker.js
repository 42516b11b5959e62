// The engine worker: dsim.wasm in engine mode (no document), so that a long
// run never blocks the page. The page stops a run by terminating this worker
// and starting another; nothing here needs to cooperate.
//
// Protocol (page -> worker):
//   {op:"init", module}   module: the WebAssembly.Module the page compiled
//                         (undefined: fetch dsim.wasm here)
//   {op:"run", id, name, src, seed, seedSet}
//   {op:"trace", ask, id, world, format}   world: an index, -1 for all;
//                                          format: "jsonl" or "shiviz"
//   {op:"trace", ask, id, world, window:true, at, count, procs, how}
//                         a window of one world, in JSONL: at most count
//                         events naming at most procs processes, starting
//                         at position at (how "after"), ending before it
//                         ("before") or holding it ("around")
// (worker -> page):
//   {op:"ready"}
//   {op:"progress", id, events, time}   every script.ProgressEvery events
//   {op:"result", id, worlds:[{world,algorithm,seed,processes,events,end,
//    sent,delivered,dropped}], checks:[{world,seq,line,text,pass,property,at}],
//    notes, warnings:[{world,seq,line,text}], output,
//    reports:[{at,len,cells,numeric}]   the tables report printed, in output
//    error:{file,line,msg}|null}
//   {op:"trace", ask, id, world, overview:true, bands, cols}
//                         the whole world's overview grid (see
//                         wasm/overview): events per band of processes
//                         and column of time
//   {op:"trace", ask, id, world, chart:true, key, cols}
//                         the whole world's chart over time of state key
//                         key, or of clock error for key "" (see wasm/series)
//   {op:"trace", ask, id, world, find:true, from, forward, node, type, kind, text}
//                         the position of the next event from position from
//                         on (forward) or the last before it that the log's
//                         filter selects (node: -2^31 for any; type, kind,
//                         text: "" for any)
//   {op:"trace", ask, at}   a search's answer, -1 for none
//   {op:"trace", ask, counts, rows, bands, cols, max, end, fails}
//                         an overview: counts an Int32Array by band*cols+col
//   {op:"trace", ask, empty:true} or {op:"trace", ask, end, cols, steps,
//    procs, lines, lo, hi, has, marks}   a chart: lines one Float64Array of
//                         (column, value) pairs per process
//   {op:"trace", ask, data|error[, from, to, start]}   data: UTF-8 bytes
//                         (a Uint8Array, transferred, not copied); a
//                         window's bounds, positions in the world, and the
//                         time of the run where it starts
//   {op:"fatal", id, msg}   the engine could not start or died; this worker is done
// The trace stays here: the page asks for the world it shows, or for a
// window of it when it is long, and for the whole run only to download it.
"use strict";
importScripts("wasm_exec.js");

let engine = null;
let failure = null; // why the engine is unusable, once it is
const queue = []; // runs posted before the engine was up

self.onmessage = (ev) => {
  const m = ev.data;
  if (m.op === "init") start(m.module);
  else if (m.op === "run" || m.op === "trace") {
    if (engine || failure) handle(m);
    else queue.push(m);
  }
};

async function start(module) {
  try {
    const go = new Go();
    const instance = module instanceof WebAssembly.Module
      ? await WebAssembly.instantiate(module, go.importObject)
      : (await WebAssembly.instantiateStreaming(fetch("dsim.wasm"), go.importObject)).instance;
    go.run(instance); // returns once main has installed the engine and blocks
    if (!self.dsimEngine) throw new Error("dsim.wasm did not install its engine");
    engine = self.dsimEngine;
    self.postMessage({ op: "ready" });
  } catch (err) {
    failure = String(err && err.message || err);
  }
  for (const m of queue.splice(0)) handle(m);
}

function handle(m) {
  if (m.op === "run") run(m);
  else traceOf(m);
}

function traceOf(m) {
  let a;
  try {
    a = failure ? { error: failure } : engine.trace(m);
  } catch (err) {
    a = { error: String(err && err.message || err) };
  }
  a = a || { error: "the engine stopped" }; // a Go runtime that exited answers nothing
  if (a.error !== undefined) self.postMessage({ op: "trace", ask: m.ask, error: String(a.error) });
  else self.postMessage({ ...a, op: "trace", ask: m.ask }, a.data || a.counts ? [(a.data || a.counts).buffer] : []);
}

function run(m) {
  if (failure) {
    self.postMessage({ op: "fatal", id: m.id, msg: failure });
    return;
  }
  let result;
  try {
    result = engine.run(m, (events, time) => self.postMessage({ op: "progress", id: m.id, events, time }));
  } catch (err) {
    failure = String(err && err.message || err);
  }
  // A Go runtime that exited during the run returns nothing.
  if (!result) {
    failure = failure || "the engine stopped";
    self.postMessage({ op: "fatal", id: m.id, msg: failure });
    return;
  }
  self.postMessage(result);
}
