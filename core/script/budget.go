package script

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"
)

// DefaultBudget is the instruction budget of a run when Options.Budget is 0.
const DefaultBudget = 200_000_000

// DefaultMaxMemory is the heap growth a run may cause when
// Options.MaxMemory is 0.
const DefaultMaxMemory = 1 << 30

// The memory guard looks at the heap every memoryEvery Lua instructions and
// every eventsPerMemoryCheck recorded trace events (Go code adds those
// without running Lua). A look costs about a microsecond, negligible at
// these intervals, and a table-growing loop or a runaway trace is caught
// within a few tens of megabytes.
const (
	memoryEvery          = 1 << 20
	eventsPerMemoryCheck = 1 << 16
)

// budget is the context.Context gopher-lua consults before every VM
// instruction (mainLoopWithContext selects on Done() once per instruction).
// Counting those calls gives an instruction budget that is the same natively
// and in WebAssembly, where deadlines do not fire while Go code runs. The
// same count paces the memory guard.
type budget struct {
	limit   int64
	left    int64
	memTick int64
	mem     memoryGuard
	err     error
	done    chan struct{}
	// onExhaust hears of the first exhaustion while the instruction that
	// found it is still the current one, so its line can be taken.
	onExhaust func(error)
}

func newBudget(limit int64, maxMemory uint64) *budget {
	if limit <= 0 {
		limit = DefaultBudget
	}
	return &budget{limit: limit, left: limit, memTick: memoryEvery, mem: newMemoryGuard(maxMemory)}
}

// exhaust makes every later Done report err. The VM raises Err() at the
// instruction that found the budget spent, so the error names that line, and
// it keeps raising it at every instruction, so pcall cannot swallow it.
func (b *budget) exhaust(err error) {
	if b.err != nil {
		return
	}
	b.err = err
	b.done = make(chan struct{})
	close(b.done)
	if b.onExhaust != nil {
		b.onExhaust(err)
	}
}

func (b *budget) Done() <-chan struct{} {
	if b.err != nil {
		return b.done
	}
	b.left--
	if b.left < 0 {
		b.exhaust(fmt.Errorf("instruction budget of %d exhausted (endless loop?)", b.limit))
		return b.done
	}
	b.memTick--
	if b.memTick <= 0 {
		b.memTick = memoryEvery
		if err := b.mem.check(); err != nil {
			b.exhaust(err)
			return b.done
		}
	}
	return nil
}

func (b *budget) Err() error { return b.err }

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Value(any) any               { return nil }

// memoryGuard stops a script whose heap grows past a limit. It measures the
// heap's object bytes, which include garbage not yet collected; only when
// that looks too large does it force a collection and measure again, so
// short-lived garbage never trips it.
type memoryGuard struct {
	max     uint64
	base    uint64
	samples []metrics.Sample
}

func newMemoryGuard(max uint64) memoryGuard {
	if max == 0 {
		max = DefaultMaxMemory
	}
	g := memoryGuard{max: max, samples: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
	g.base = g.heap()
	return g
}

func (g *memoryGuard) heap() uint64 {
	metrics.Read(g.samples)
	if g.samples[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return g.samples[0].Value.Uint64()
}

func (g *memoryGuard) grown() uint64 {
	h := g.heap()
	if h < g.base {
		return 0
	}
	return h - g.base
}

func (g *memoryGuard) check() error {
	if g.grown() <= g.max {
		return nil
	}
	runtime.GC()
	if grown := g.grown(); grown > g.max {
		return fmt.Errorf("memory limit of %d MiB exceeded (the script holds %d MiB more than at its start)", g.max>>20, grown>>20)
	}
	return nil
}

// memoryBudget is the run's memory budget in bytes: what a world may be
// estimated to need before it is built, and what the guard lets the heap
// grow by.
func (r *runner) memoryBudget() uint64 { return r.budget.mem.max }
