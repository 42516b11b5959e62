package script

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/algo"
	_ "dsim/core/algo/all" // every algorithm: the estimates of each are checked
)

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// measured is what one measured world cost.
type measured struct {
	grown  int64 // heap growth from before sim.world to after the run
	events int   // trace events recorded
}

// measureWorld runs src, which builds one world, between two looks at the
// heap; the world is still alive at the second.
func measureWorld(t *testing.T, src string) measured {
	t.Helper()
	r := newRunner("m.lua", Options{Seed: 1, MaxMemory: 4 << 30})
	defer r.L.Close()
	var marks []uint64
	r.env.RawSetString("heap", r.L.NewFunction(func(*lua.LState) int {
		marks = append(marks, heapInUse())
		return 0
	}))
	if err := r.exec([]byte("heap()\n" + src + "\nheap()\n")); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	m := measured{grown: int64(marks[1]) - int64(marks[0])}
	if rec := r.worlds[0].rec; rec != nil {
		m.events = rec.Len()
	}
	return m
}

// lightLoad is algo.Memory.Load's light load in Lua for a world of n
// processes with ids 1..n: one election at the first process, five
// processes requesting the critical section; what the algorithm's commands
// allow of it.
func lightLoad(spec *algo.Spec, n int) string {
	var b strings.Builder
	has := func(name string) bool {
		return slices.ContainsFunc(spec.Commands, func(c algo.CommandSpec) bool { return c.Name == name })
	}
	if has("request") {
		for k := range min(5, n) {
			fmt.Fprintf(&b, "w:command(%d, \"request\", {duration = 3})\n", 1+k*n/min(5, n))
		}
	}
	if has("elect") {
		b.WriteString("w:command(1, \"elect\")\n")
	}
	return b.String()
}

// The estimates are upper bounds of the measured heap growth, and not
// loose ones: measured <= estimate <= 3 x measured + slack. Each algorithm
// is measured at two sizes, booted (untraced and traced) and through its
// light load (untraced), the way algo.Memory defines its figures.
func TestMemoryEstimates(t *testing.T) {
	const slack = 64 << 10
	for _, spec := range algo.All() {
		t.Run(spec.Name, func(t *testing.T) {
			n2 := memoryTestSize(spec)
			for _, n := range []int{max(n2/5, 10), n2} {
				// Boot: the first ticks, without commands (a token ring
				// never goes quiet).
				boot := fmt.Sprintf("local w = sim.world{algorithm = %q, n = %d, trace = %%v}\nw:run{until_time = 40}", spec.Name, n)
				load := fmt.Sprintf("local w = sim.world{algorithm = %q, n = %d, trace = false}\n%sw:run{until_time = %d}", spec.Name, n, lightLoad(spec, n), 20*n+2000)
				cases := []struct {
					what     string
					src      string
					estimate uint64
				}{
					{"booted", fmt.Sprintf(boot, false), bootEstimate(spec, n, false)},
					{"booted and traced", fmt.Sprintf(boot, true), bootEstimate(spec, n, true)},
					{"through the light load", load, MemoryEstimate(spec, n, false)},
				}
				for _, c := range cases {
					m := measureWorld(t, c.src)
					est := int64(c.estimate)
					t.Logf("n=%d %s: measured %d bytes (%.0f per process), estimate %d (%.0f per process), %.2fx; %d events",
						n, c.what, m.grown, float64(m.grown)/float64(n), est, float64(est)/float64(n), float64(est)/float64(max(m.grown, 1)), m.events)
					if m.grown > est {
						t.Errorf("n=%d %s: measured %d bytes, more than the estimate %d", n, c.what, m.grown, est)
					}
					if est > 3*m.grown+slack {
						t.Errorf("n=%d %s: estimate %d bytes, more than three times the %d measured", n, c.what, est, m.grown)
					}
					if c.what == "booted and traced" {
						if got, want := m.events, spec.Memory.BootEvents*n; got > want || want > 2*got+n {
							t.Errorf("n=%d: the boot recorded %d events, %.1f per process; BootEvents is %d", n, got, float64(got)/float64(n), spec.Memory.BootEvents)
						}
					}
				}
			}
		})
	}
}

// memoryTestSize is the larger size an algorithm's estimates are checked at:
// 2000 processes, fewer where a world of them would take more than 16 MiB
// (the test stays quick natively and under js/wasm).
func memoryTestSize(spec *algo.Spec) int {
	n := 2000
	for n > 50 && MemoryEstimate(spec, n, false) > 16<<20 {
		n = n * 4 / 5
	}
	return n
}

// bootEstimate is the estimate of a booted world, before any load.
func bootEstimate(spec *algo.Spec, n int, traced bool) uint64 {
	s := *spec
	s.Memory.Load = nil
	return MemoryEstimate(&s, n, traced)
}
