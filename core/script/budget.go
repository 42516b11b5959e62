package script

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// Limits are what a host lets one run use: the defaults a run gets and the
// ceilings that no option or world key lifts. A script runs on hosts that
// did not write it (a grader, a stranger's share link, a Worker with 128 MB
// of memory), so every budget has a ceiling.
type Limits struct {
	// Instructions is the default instruction budget. Lua instructions
	// count one each; work done in Go on the script's behalf (callbacks,
	// hooks, predicates, scans of the trace, pattern matching) counts too.
	Instructions int64
	// Memory is the default memory budget in bytes, MaxMemory the most a
	// run may ask for (Options.MaxMemory or the world key memory).
	Memory, MaxMemory uint64
	// MaxEvents is the most events a world may run; max_events = 0 means
	// this.
	MaxEvents uint64
}

// The hosts' limits. The page's instruction budget stops a runaway loop
// within seconds under WebAssembly, which runs Lua several times slower than
// native code; the Worker's memory leaves room for the runtime in its 128 MB.
var (
	CLI    = Limits{Instructions: 200_000_000, Memory: 384 << 20, MaxMemory: 16 << 30, MaxEvents: 20_000_000}
	Page   = Limits{Instructions: 50_000_000, Memory: 256 << 20, MaxMemory: 1 << 30, MaxEvents: 5_000_000}
	Worker = Limits{Instructions: 20_000_000, Memory: 48 << 20, MaxMemory: 64 << 20, MaxEvents: 2_000_000}
)

// Unlimited are limits for scripts the program itself wrote, such as its
// benchmarks: nothing a machine would reach.
var Unlimited = Limits{Instructions: 1 << 62, Memory: 1 << 40, MaxMemory: 1 << 40, MaxEvents: 1 << 62}

// MaxString is the longest string a script can build, in bytes: by
// concatenation, string.rep, gsub, format, table.concat or anything else.
// It bounds what one instruction allocates, so the memory guard, which
// looks now and then, is never outrun.
const MaxString = 16 << 20

// The guard measures the heap every memoryEvery Lua instructions, every
// allocEvery bytes of strings built, and every eventsPerMemoryCheck events a
// world runs or records (Go code adds those without running Lua). A look
// costs about a microsecond, negligible at these intervals; between two
// looks a script can add a few MiB at most.
const (
	memoryEvery          = 1 << 16
	allocEvery           = 4 << 20
	eventsPerMemoryCheck = 1 << 16
)

// What Go work costs in instructions, measured against the time one Lua
// instruction takes (about 9 ns natively, 55 under Node): a call of a Go
// function from Lua (type, s:upper(), pcall) takes about as long as 20
// instructions, a callback from Go (a hook, a scheduled function, a when
// predicate, with the event it is given) as 100, a recorded event scanned
// by w:count or w:events as 2, a pattern-matching step as one (half of one
// natively, one under Node), and bytesPerCost bytes compared, copied or
// scanned by a library call or an instruction on long strings and big
// tables (`s < t`, `..`, rep, find, table.insert at the front) as one
// (catching an error counts as 6400 bytes, see lua.Limits.Work).
const (
	goCallCost   = 20
	callbackCost = 100
	scanCost     = 2
	stepsPerCost = 1
	bytesPerCost = 64
)

// budget is the context.Context gopher-lua consults before every VM
// instruction (mainLoopWithContext selects on Done() once per instruction),
// and the lua.Limits it consults before building a string or matching a
// pattern. Counting instructions gives a budget that is the same natively
// and in WebAssembly, where deadlines do not fire while Go code runs. The
// same counts pace the memory guard.
type budget struct {
	limit   int64
	left    int64
	memTick int64
	alloc   int
	mem     memoryGuard
	err     error
	done    chan struct{}
	// onExhaust hears of the first exhaustion while the instruction that
	// found it is still the current one, so its line can be taken.
	onExhaust func(error)
}

func newBudget(limit int64, mem memoryGuard) *budget {
	return &budget{limit: limit, left: limit, memTick: memoryEvery, mem: mem}
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

func (b *budget) spentErr(what string) error {
	return fmt.Errorf("instruction budget of %d exhausted (%s)", b.limit, what)
}

func (b *budget) Done() <-chan struct{} {
	if b.err != nil {
		return b.done
	}
	b.left--
	if b.left < 0 {
		b.exhaust(b.spentErr("endless loop?"))
		return b.done
	}
	b.memTick--
	if b.memTick <= 0 {
		b.memTick = memoryEvery
		b.checkMemory()
	}
	return b.done // nil while nothing is wrong
}

// charge counts Go work done for the script, in instructions; what names
// it in the error when the budget runs out there.
func (b *budget) charge(cost int64, what string) {
	if b.err != nil {
		return
	}
	if b.left -= cost; b.left < 0 {
		b.exhaust(b.spentErr(what))
	}
}

// checkMemory measures the heap and stops the run when it is over budget.
func (b *budget) checkMemory() {
	if b.err == nil {
		if err := b.mem.check(); err != nil {
			b.exhaust(err)
		}
	}
}

func (b *budget) Err() error { return b.err }

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Value(any) any               { return nil }

// MaxString, Alloc, MatchSteps, Spent, GoCall and Work are lua.Limits.

func (b *budget) MaxString() int { return MaxString }

func (b *budget) Alloc(L *lua.LState, size int) {
	if b.alloc += size; b.alloc >= allocEvery {
		b.alloc = 0
		b.checkMemory()
	}
	if b.err != nil {
		L.RaiseError("%s", b.err.Error())
	}
}

func (b *budget) MatchSteps(*lua.LState) int {
	if b.left <= 0 {
		return 0
	}
	return int(min(b.left, 1<<40) * stepsPerCost)
}

func (b *budget) GoCall(L *lua.LState) {
	if b.charge(goCallCost, "endless loop?"); b.err != nil {
		L.RaiseError("%s", b.err.Error())
	}
}

func (b *budget) Work(L *lua.LState, bytes int) {
	if b.charge(int64(bytes/bytesPerCost), "on long strings, big tables or caught errors"); b.err != nil {
		L.RaiseError("%s", b.err.Error())
	}
}

func (b *budget) Spent(L *lua.LState, steps int) {
	// Rounded up: a match that ran out of steps used more than it had.
	b.charge(int64((steps+stepsPerCost-1)/stepsPerCost), "in a pattern match")
	if b.err != nil {
		L.RaiseError("%s", b.err.Error())
	}
}

// memoryGuard stops a run whose heap grows past its budget. It measures the
// heap's object bytes, which include garbage not yet collected; only when
// that is over the budget by more than an eighth does it force a collection
// and measure again, so short-lived garbage never trips it and a run that
// lives near its budget is not collected at every look. The run holds at
// most the budget, and the heap stays within the budget and an eighth, plus
// what one string or a few MiB of tables can add between two looks.
type memoryGuard struct {
	max     uint64
	base    uint64
	samples []metrics.Sample
	// what describes what holds the memory, for the error.
	what func() string
}

func newMemoryGuard(max uint64, what func() string) memoryGuard {
	g := memoryGuard{max: max, what: what, samples: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
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
	if g.grown() <= g.max+g.max/8 {
		return nil
	}
	runtime.GC()
	grown := g.grown()
	if grown <= g.max {
		return nil
	}
	return fmt.Errorf("memory budget of %d MiB exceeded: the run holds %d MiB (%s)", g.max>>20, grown>>20, g.what())
}

// memoryBudget is the run's memory budget in bytes: what a world may be
// estimated to need before it is built, and what the guard lets the heap
// grow by.
func (r *runner) memoryBudget() uint64 { return r.budget.mem.max }

// setMemoryBudget sets the run's memory budget (the world key memory),
// within the host's ceiling.
func (r *runner) setMemoryBudget(bytes uint64) error {
	if ceiling := r.limits.MaxMemory; bytes > ceiling {
		return fmt.Errorf("%d MiB is more than this host allows (%d MiB)", bytes>>20, ceiling>>20)
	}
	r.budget.mem.max = bytes
	return nil
}

// holding says what holds the run's memory besides Lua values: the worlds'
// traces and pending events.
func (r *runner) holding() string {
	var events, pending int
	for _, w := range r.worlds {
		if w.rec != nil {
			events += w.rec.Len()
		}
		pending += w.s.Pending()
	}
	return fmt.Sprintf("traces: %d events; pending events: %d; the rest is the processes' state and Lua values", events, pending)
}
