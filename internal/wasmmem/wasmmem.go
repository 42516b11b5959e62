// Package wasmmem grows a js/wasm program's memory ahead of need, and lets
// the heap fill it before the first collection.
//
// Go grows the WebAssembly memory as its heap grows, a few megabytes at a
// time, and V8 answers each growth with a full collection of the
// JavaScript heap: the grown memory comes back as a new ArrayBuffer, which
// V8 counts as external memory at its whole size. A run of a million
// processes grows the memory about a hundred times and sat through over
// 150 such collections, a fifth of its time under Node. Growing the memory
// once, at start-up, spares them. The pages are handed back to Go's heap
// at once, and a page nothing writes to costs no RAM.
//
// Collecting before the heap has used those pages would not give memory
// back to anyone, and under js/wasm the collector shares the program's
// one thread: while a run builds a million processes, whose state stays
// live, the usual pacing marked over 100 MB of it, 0.3 to 0.9 s of a
// 1.2 to 2.2 s boot under Node. So the first collection waits until the
// heap has filled the reservation; after it the pacing is what it was.
package wasmmem

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// ballast holds the reservation until it is dropped: being a package
// variable, it is allocated on the heap, from new memory.
var ballast []byte

// Reserve grows the memory by n bytes and gives them to Go's heap as free
// pages, so that the heap can grow by that much before the memory has to,
// and before the collector runs again. It collects garbage once, so it
// belongs at start-up, while the heap is small. It does nothing elsewhere
// than under js/wasm.
func Reserve(n int) {
	if !enabled || n <= 0 {
		return
	}
	ballast = make([]byte, n)
	ballast = nil
	runtime.GC()
	holdCollection(mapped())
}

// hold is the pacing and memory limit a hold replaced, to be put back; gen
// tells a cleanup from an earlier Reserve, whose hold is over, from the
// current one. The cleanups run on a goroutine of their own.
var hold struct {
	sync.Mutex
	on    bool
	gen   uint64
	pct   int
	limit int64
	held  int64 // the limit the hold set
}

// holdCollection keeps the collector off until the heap nears the memory
// already mapped, then puts back the pacing and memory limit in force
// before. A memory limit with the pacing off is the runtime's way to say
// "collect only when the heap reaches this"; the room left above mapped
// keeps its scavenger from returning free pages meanwhile (it aims at 95%
// of the limit). The first collection also collects the token, whose
// cleanup then runs at the next point where the program yields: a run
// yields every few thousand events.
//
// A user who set GOGC or GOMEMLIMIT chose the pacing: there is no hold then.
func holdCollection(mapped uint64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	hold.Lock()
	defer hold.Unlock()
	if !hold.on {
		hold.on = true
		hold.pct = debug.SetGCPercent(-1)
		hold.limit = debug.SetMemoryLimit(-1)
	}
	hold.held = min(int64(min(mapped+mapped/8, math.MaxInt64)), hold.limit)
	debug.SetMemoryLimit(hold.held)
	hold.gen++
	runtime.AddCleanup(new(holdToken), release, hold.gen)
}

// release ends hold number gen, unless a later one replaced it. Settings
// changed during the hold are someone else's choice and stay.
func release(gen uint64) {
	hold.Lock()
	defer hold.Unlock()
	if !hold.on || gen != hold.gen {
		return
	}
	hold.on = false
	if pct := debug.SetGCPercent(hold.pct); pct != -1 {
		debug.SetGCPercent(pct)
	}
	if debug.SetMemoryLimit(-1) == hold.held {
		debug.SetMemoryLimit(hold.limit)
	}
}

// holdToken is big enough to be an allocation of its own: a cleanup on an
// object that shares a tiny block runs only once its neighbours are dead.
type holdToken struct{ _ [32]byte }

// mapped is the memory Go has taken from the WebAssembly memory so far.
func mapped() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
