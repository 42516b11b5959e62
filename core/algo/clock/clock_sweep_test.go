package clock_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/algo/clock"
	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

// The seed sweep runs every registered logical clock under its random
// workload, within its declared assumptions: links that reorder, lose and
// duplicate messages, a healed partition, crashes that stop processes for
// good. core/check judges each run, computing happened-before from the
// sends and deliveries: for Lamport's clocks a → b implies C(a) < C(b), for
// vector clocks V(a) < V(b) if and only if a → b. A failure prints the seed;
// replay it with
//
//	go test ./core/algo/clock -run 'TestSweep/clock.vector$' -sweep.seed=N -v
const sweepN = 1000

// sweepOne runs one random world and returns what went wrong ("" if
// nothing), and a description of the world.
func sweepOne(t *testing.T, spec *algo.Spec, seed uint64) (problem, world string) {
	r := sim.Stream(seed, "clock-sweep", 0)
	n := 2 + r.IntN(9)
	ids := make([]sim.NodeID, n)
	for i, k := range r.Perm(n) {
		ids[i] = sim.NodeID(k + 1)
	}
	link := sim.Link{FIFO: r.IntN(2) == 0, Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + r.IntN(12))}}
	cfg := map[string]any{"events": 1 + r.IntN(40), "rate": []float64{0.05, 0.2, 1}[r.IntN(3)], "sends": []float64{0.2, 0.5, 0.9}[r.IntN(3)]}
	if spec.Name == "clock.lamport" {
		cfg["d"], cfg["d_step"] = 1+r.IntN(10), r.IntN(3)
	}
	algotest.Assume(spec.Assumptions, seed, &link, cfg)
	w := algotest.New(t, algotest.Setup{Algo: spec.Name, IDs: ids, Link: link, Config: cfg, Seed: seed})
	split, _ := algotest.Partition(spec.Assumptions, seed, w.Sim, ids, 100)
	var crashes []string
	for range r.IntN(3) {
		id, at := ids[r.IntN(n)], sim.Time(r.IntN(150))
		crashes = append(crashes, fmt.Sprintf("%d@%d", id, at))
		w.At(at, func() {
			if w.Up(id) {
				_ = w.Sim.Crash(id)
			}
		})
	}
	world = fmt.Sprintf("ids=%v link=%s fifo=%v loss=%g dup=%g config=%v crashes=%v %s",
		ids, link.Latency, link.FIFO, link.Loss, link.Dup, cfg, crashes, strings.Join(split, ", "))
	w.Run(0)
	events := 0
	for _, e := range w.Rec.Events {
		if e.Key != "" && e.Old != nil {
			events++
		}
	}
	if events == 0 {
		return "no event was timestamped", world
	}
	if err := w.Judge(algo.PropertyNames(spec.Properties)...); err != nil {
		return err.Error(), world
	}
	return "", world
}

func logical(p algo.Property) bool { return p == clock.Lamport || p == clock.Vector }

func TestSweep(t *testing.T) {
	found := 0
	for _, spec := range algo.All() {
		if spec.Family() != "clock" || !slices.ContainsFunc(spec.Properties, logical) {
			continue // the physical clocks have their own sweep
		}
		found++
		t.Run(spec.Name, func(t *testing.T) {
			algotest.Seeds(t, "./core/algo/clock", sweepN, func(seed uint64) string {
				if msg, world := sweepOne(t, spec, seed); msg != "" {
					return world + ": " + msg
				}
				return ""
			})
		})
	}
	if found < 2 {
		t.Fatalf("%d clock.* algorithms registered, want lamport and vector (core/algo/all imports them)", found)
	}
}
