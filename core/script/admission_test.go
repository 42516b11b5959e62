package script

import (
	"fmt"
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/topo"
)

func mustLookup(t *testing.T, name string) *algo.Spec {
	t.Helper()
	s, err := algo.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Lamport keeps every other process's latest timestamp: 10^4 processes
// need gigabytes. The world is refused at its sim.world line, with the
// figures, before anything of it is built.
func TestAdmissionRefusesAWorldThatWouldNotFit(t *testing.T) {
	const budget = 256 << 20
	lamport := mustLookup(t, "mutex.lamport")
	res, _, err := run(t, "print('before')\nlocal w = sim.world{algorithm = \"mutex.lamport\", n = 10000}\nprint('after')", Options{Seed: 1, MaxMemory: budget})
	e := scriptError(t, err)
	if e.Line != 2 {
		t.Errorf("error at line %d, want the sim.world line 2", e.Line)
	}
	need := MemoryEstimate(lamport, 10000, true)
	largest := LargestN(lamport, budget, true)
	want := fmt.Sprintf("sim.world: mutex.lamport with n = 10000 needs about %s (about %s per process), more than the memory budget of 256 MiB; the largest n that fits is %d",
		formatBytes(need), formatBytes(need/10000), largest)
	if e.Msg != want {
		t.Errorf("error %q,\nwant %q", e.Msg, want)
	}
	if need < 2<<30 || largest < 2000 || largest > 4000 {
		t.Errorf("n = 10000 estimated at %d bytes, largest n %d: Lamport's view of every peer is n² bytes times tens", need, largest)
	}
	if len(res.Worlds) != 0 {
		t.Errorf("%d worlds built", len(res.Worlds))
	}
}

// The largest n the error names fits, and one more does not: the
// admission and LargestN weigh the same estimate.
func TestLargestNIsTheAdmissionsBoundary(t *testing.T) {
	const budget = 16 << 20
	for _, name := range []string{"mutex.lamport", "election.bully", "mutex.singhal", "mutex.maekawa", "election.changroberts"} {
		spec := mustLookup(t, name)
		for _, traced := range []bool{true, false} {
			n := LargestN(spec, budget, traced)
			if n < 1 || n >= topo.MaxN {
				t.Fatalf("%s: largest n %d under 16 MiB", name, n)
			}
			src := func(n int) string {
				return fmt.Sprintf("local ok, err = pcall(sim.world, {algorithm = %q, n = %d, trace = %v})\nprint(ok, err)", name, n, traced)
			}
			// pcall catches the refusal: a refused world is an
			// ordinary error, not the end of the run.
			_, out := mustRun(t, src(n+1), Options{Seed: 1, MaxMemory: budget})
			if !strings.HasPrefix(out, "false\tt.lua:1: sim.world: "+name+" with n = "+itoa(n+1)+" needs about ") ||
				!strings.Contains(out, fmt.Sprintf("the largest n that fits is %d", n)) {
				t.Errorf("%s traced=%v n=%d: %q, want a refusal naming %d", name, traced, n+1, out, n)
			}
			if MemoryEstimate(spec, n, traced) > budget || MemoryEstimate(spec, n+1, traced) <= budget {
				t.Errorf("%s traced=%v: largest n %d, estimates %d and %d around a budget of %d", name, traced, n,
					MemoryEstimate(spec, n, traced), MemoryEstimate(spec, n+1, traced), budget)
			}
		}
	}
	// Building the largest world itself is cheap for one algorithm.
	cr := mustLookup(t, "election.changroberts")
	n := LargestN(cr, budget, true)
	mustRun(t, fmt.Sprintf("local w = sim.world{algorithm = \"election.changroberts\", n = %d}\nw:run{until_time = 10}", n), Options{Seed: 1, MaxMemory: budget})
}

// A world that fits only without its trace says so; untraced it is built.
func TestAdmissionNamesTraceFalse(t *testing.T) {
	const budget = 16 << 20
	cr := mustLookup(t, "election.changroberts")
	traced, untraced := LargestN(cr, budget, true), LargestN(cr, budget, false)
	if untraced <= traced {
		t.Fatalf("largest n %d traced, %d untraced: the trace costs nothing?", traced, untraced)
	}
	n := (traced + untraced) / 2
	_, _, err := run(t, fmt.Sprintf("local w = sim.world{algorithm = \"election.changroberts\", n = %d}", n), Options{Seed: 1, MaxMemory: budget})
	if e := scriptError(t, err); !strings.HasSuffix(e.Msg, fmt.Sprintf("the largest n that fits is %d (with trace = false, n = %d fits)", traced, n)) {
		t.Errorf("error %q, want the hint to turn the trace off", e.Msg)
	}
	_, out := mustRun(t, fmt.Sprintf("local w = sim.world{algorithm = \"election.changroberts\", n = %d, trace = false}\nw:command(1, \"elect\")\nw:run()\nprint(w:agreed(\"leader\"))", n),
		Options{Seed: 1, MaxMemory: budget})
	if strings.TrimSpace(out) != itoa(n) {
		t.Errorf("the untraced election printed %q, want leader %d", out, n)
	}
	// Options.NoTrace weighs the world untraced too.
	mustRun(t, fmt.Sprintf("local w = sim.world{algorithm = \"election.changroberts\", n = %d}", n), Options{Seed: 1, MaxMemory: budget, NoTrace: true})
}

// The admission weighs the world asked for: its n however given, its
// topology and its tracing.
func TestAdmissionWeighsTheWorldAsked(t *testing.T) {
	cases := []struct {
		name, world string
		budget      uint64
		want        string // "" admitted
	}{
		// Every process of a random graph with p = 1 has n-1 neighbours:
		// the adjacency lists alone are n² (topo.Build would allocate
		// them before the processes).
		{"dense random graph", `algorithm = "election.changroberts", n = 8000, topology = "random", p = 1`, 64 << 20,
			"sim.world: election.changroberts with n = 8000 needs about 7"},
		{"the same processes on a ring", `algorithm = "election.changroberts", n = 8000`, 64 << 20, ""},
		{"n from ids", `algorithm = "mutex.lamport", ids = ids`, 64 << 20, "sim.world: mutex.lamport with n = 5000 needs about "},
		{"n from an edge list", `algorithm = "mutex.lamport", topology = "edges", edges = edges`, 64 << 20, "sim.world: mutex.lamport with n = 5000 needs about "},
		{"a budget too small for one process", `algorithm = "election.ring", n = 3`, 64 << 10,
			"sim.world: election.ring with n = 3 needs about 483 KiB (about 161 KiB per process), more than the memory budget of 64 KiB; not even one process fits"},
	}
	for _, c := range cases {
		src := "local ids, edges = {}, {}\nfor i = 1, 5000 do ids[i] = i; edges[i] = {i, i % 5000 + 1} end\nlocal w = sim.world{" + c.world + "}"
		_, _, err := run(t, src, Options{Seed: 1, MaxMemory: c.budget})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && err == nil:
			t.Errorf("%s: admitted", c.name)
		case c.want != "":
			if e := scriptError(t, err); e.Line != 3 || !strings.HasPrefix(e.Msg, c.want) {
				t.Errorf("%s: error %v, want line 3: %s...", c.name, err, c.want)
			}
		}
	}
}

// Worlds as large as dsim simulates: a plain election of 2×10^6 processes
// needs more than the CLI's default budget and is refused, not built.
func TestAdmissionAtMaxN(t *testing.T) {
	_, _, err := run(t, fmt.Sprintf("local w = sim.world{algorithm = \"election.changroberts\", n = %d}", topo.MaxN))
	if e := scriptError(t, err); !strings.Contains(e.Msg, fmt.Sprintf("election.changroberts with n = %d needs about ", topo.MaxN)) {
		t.Errorf("error %q", e.Msg)
	}
	for _, spec := range algo.All() {
		if need := MemoryEstimate(spec, topo.MaxN, false); need < uint64(topo.MaxN)*96 {
			t.Errorf("%s: %d processes estimated at %d bytes, less than the kernel's share", spec.Name, topo.MaxN, need)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for b, want := range map[uint64]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 160 << 10: "160 KiB",
		256 << 20: "256 MiB", 1 << 30: "1 GiB", 1717986918: "1.6 GiB", 1 << 60: "1 EiB",
	} {
		if got := formatBytes(b); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", b, got, want)
		}
	}
}
