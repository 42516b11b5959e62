// The engine worker: dsim.wasm in engine mode (no document), so that a long
// run never blocks the page. The page stops a run by terminating this worker
// and starting another; nothing here needs to cooperate.
//
// Protocol (page -> worker):
//   {op:"init", module}   module: the WebAssembly.Module the page compiled
//                         (undefined: fetch dsim.wasm here)
//   {op:"run", id, name, src, seed, seedSet}
// (worker -> page):
//   {op:"ready"}
//   {op:"progress", id, events, time}   every script.ProgressEvery events
//   {op:"result", id, jsonl, checks:[{world,seq,line,text,pass}], notes,
//    warnings:[{world,seq,line,text}], output,
//    error:{file,line,msg}|null}   jsonl: the trace as UTF-8 bytes (a Uint8Array,
//                                  transferred, not copied)
//   {op:"fatal", id, msg}   the engine could not start or died; this worker is done
"use strict";
importScripts("wasm_exec.js");

let engine = null;
let failure = null; // why the engine is unusable, once it is
const queue = []; // runs posted before the engine was up

self.onmessage = (ev) => {
  const m = ev.data;
  if (m.op === "init") start(m.module);
  else if (m.op === "run") {
    if (engine || failure) run(m);
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
  for (const m of queue.splice(0)) run(m);
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
  self.postMessage(result, [result.jsonl.buffer]);
}
