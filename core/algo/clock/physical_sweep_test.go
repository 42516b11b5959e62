package clock_test

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/clock"
	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

// The physical sweep runs every registered physical clock synchronization
// on drifting clocks within its assumptions: the first process in ring
// order (Cristian's server, NTP's reference) reads true time, every other
// clock starts up to 300 ticks off and drifts at a rate within the
// configured ρ, links take min to max ticks (jitter), with the loss,
// duplication and crashes the algorithm tolerates, and the timeout as
// tight as the links allow. core/check judges the bounds the processes
// claim against the true time and readings of every event. A failure
// prints the seed; replay it with
//
//	go test ./core/algo/clock -run 'TestPhysicalSweep/clock.ntp$' -sweep.seed=N -v

func physical(p algo.Property) bool {
	return p == clock.Skew || p == clock.Accuracy || p == clock.Monotonic
}

func physicalOne(t *testing.T, spec *algo.Spec, seed uint64) (problem, world string) {
	r := sim.Stream(seed, "physical-sweep", 0)
	n := 2 + r.IntN(7)
	ids := make([]sim.NodeID, n)
	for i, k := range r.Perm(n) {
		ids[i] = sim.NodeID(k + 1)
	}
	lo := 1 + r.IntN(3)
	link := sim.Link{FIFO: spec.Assumptions.FIFO || r.IntN(2) == 0, Latency: sim.Dist{Kind: sim.Uniform, A: float64(lo), B: float64(lo + r.IntN(8))}}
	ppm := []int{0, 1000, 10000}[r.IntN(3)]
	cfg := map[string]any{"min": lo - r.IntN(2), "drift_ppm": ppm, "period": 40 + r.IntN(200)}
	switch spec.Name {
	case "clock.cristian":
		cfg["k"], cfg["step"] = 1+r.IntN(4), r.IntN(2) == 0
	case "clock.berkeley":
		cfg["cutoff"], cfg["slew"] = r.IntN(400), 1+r.IntN(100)
	case "clock.ntp":
		cfg["step"] = r.IntN(200)
	}
	algotest.Assume(spec.Assumptions, seed, &link, cfg)
	if spec.Name == "clock.berkeley" {
		cfg["election_T"], cfg["election_probe"] = cfg["timeout"], 50+r.IntN(100)
	}
	w := algotest.New(t, algotest.Setup{Algo: spec.Name, IDs: ids, Link: link, Config: cfg, Seed: seed})
	clocks := make([]string, 0, n)
	for _, id := range ids[1:] {
		off, drift := sim.Time(r.IntN(601)-300), float64(r.IntN(2*ppm+1)-ppm)/1e6
		if err := w.SetClock(id, off, drift); err != nil {
			t.Fatal(err)
		}
		clocks = append(clocks, fmt.Sprintf("%d:%+d%+g", id, off, drift))
	}
	var crashes []string
	if spec.Assumptions.Crashes >= algo.CrashStop {
		for range r.IntN(3) {
			id, at := ids[1+r.IntN(n-1)], sim.Time(r.IntN(800))
			back := at + 1 + sim.Time(r.IntN(300))
			crashes = append(crashes, fmt.Sprintf("%d@%d-%d", id, at, back))
			w.At(at, func() {
				if w.Up(id) {
					_ = w.Sim.Crash(id)
				}
			})
			if spec.Assumptions.Crashes == algo.CrashRecovery {
				w.At(back, func() {
					if !w.Up(id) {
						_ = w.Sim.Recover(id)
					}
				})
			}
		}
	}
	world = fmt.Sprintf("ids=%v link=%s fifo=%v loss=%g dup=%g config=%v clocks=%v crashes=%v",
		ids, link.Latency, link.FIFO, link.Loss, link.Dup, cfg, clocks, crashes)
	w.Run(1500)
	claims := 0
	for _, e := range w.Rec.Events {
		if e.Key == clock.KeyBound && e.T > 0 {
			claims++
		}
	}
	if claims == 0 {
		return "no process synchronized", world
	}
	if err := w.Judge(algo.PropertyNames(spec.Properties)...); err != nil {
		return err.Error(), world
	}
	return "", world
}

func TestPhysicalSweep(t *testing.T) {
	found := 0
	for _, spec := range algo.All() {
		if spec.Family() != "clock" || !slices.ContainsFunc(spec.Properties, physical) {
			continue
		}
		found++
		t.Run(spec.Name, func(t *testing.T) {
			algotest.Seeds(t, "./core/algo/clock", sweepN, func(seed uint64) string {
				if msg, world := physicalOne(t, spec, seed); msg != "" {
					return world + ": " + msg
				}
				return ""
			})
		})
	}
	if found < 3 {
		t.Fatalf("%d physical clock algorithms registered, want cristian, berkeley and ntp (core/algo/all imports them)", found)
	}
}
