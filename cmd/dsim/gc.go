package main

import (
	"os"
	"runtime/debug"

	"dsim/internal/wasmmem"
)

// tuneGC makes the collector run less often unless GOGC says otherwise. A
// run builds a model and a trace that stay live to its end, so the default
// pacing (a collection each time the heap doubles) mostly rescans live
// data. Measured with `dsim bench`: the Lua hook workload takes a third
// less time; under Node, where the collector shares the one thread, the
// million-process Chang-Roberts run about 15% less. Natively that run is
// bound by memory latency and does not change.
//
// Built for js/wasm, the commands that run scenarios also grow the memory
// once by the room a million-process run takes, instead of letting V8
// collect its own heap at each of the hundred growths such a run would make,
// and hold the collector off until the heap has filled that room (see
// wasmmem): a million-process run then never collects. It takes about
// 0.2 s under Node, which help and list need not pay.
func tuneGC(cmd string) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	switch cmd {
	case "run", "check", "bench":
		wasmmem.Reserve(512 << 20)
	}
}
