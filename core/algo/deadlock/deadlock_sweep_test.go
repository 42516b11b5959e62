package deadlock_test

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
	"dsim/core/trace"
)

// The seed sweep runs every registered deadlock algorithm on random
// workloads with contention (few items, many writes, transactions begun
// close together), within its declared assumptions (reliable FIFO links,
// no crash; a detector's latency bound), and judges every property it
// promises: deadlock.free for the prevention schemes, deadlock.sound and
// deadlock.complete for the detectors, cc.serializable for all. It also
// checks that every transaction commits in the end under the prevention
// schemes. A failure prints the
// seed; replay it with
//
//	go test ./core/algo/deadlock -run 'TestSweep/deadlock.pex$' -sweep.seed=N -v
const sweepN = 1000

// horizon is when the sweep stops a run: its workload ends long before.
const horizon = 3000

func sweepOne(t *testing.T, spec *algo.Spec, seed uint64) string {
	r := sim.Stream(seed, "deadlock-sweep", 0)
	n := 2 + r.IntN(3)
	link := sim.Link{FIFO: true, Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + r.IntN(6))}}
	cfg := map[string]any{"txns": 1 + r.IntN(4), "ops": 2 + r.IntN(2), "writes": []float64{0.5, 0.8, 1}[r.IntN(3)],
		"rate": []float64{0.05, 0.1, 0.2}[r.IntN(3)]}
	algotest.Assume(spec.Assumptions, seed, &link, cfg)
	w := algotest.New(t, algotest.Setup{Algo: spec.Name, IDs: algotest.IDs(n), Link: link, Config: cfg, Seed: seed})
	world := fmt.Sprintf("n=%d link=%s config=%v", n, link.Latency, cfg)
	w.Run(horizon)
	if err := w.Judge(algo.PropertyNames(spec.Properties)...); err != nil {
		return world + ": " + err.Error()
	}
	// The prevention schemes keep timestamps across restarts so that
	// nobody starves: every transaction commits. A detector's victim may
	// deadlock again after its restart, and again.
	if open := unfinished(w.Rec.Events); open != "" && slices.Contains(spec.Properties, deadlock.Free) {
		return world + ": " + open
	}
	return ""
}

// unfinished names a transaction that has not committed by the end.
func unfinished(evs []trace.Event) string {
	status := map[int]int{}
	var order []int
	for i := range evs {
		if v, ok := evs[i].New.([]int); ok && evs[i].Type == trace.State && evs[i].Key == "txn" {
			if _, seen := status[v[0]]; !seen {
				order = append(order, v[0])
			}
			status[v[0]] = v[1]
		}
	}
	for _, t := range order {
		if status[t] != 1 {
			return fmt.Sprintf("T%d ends with status %d, not committed", t, status[t])
		}
	}
	return ""
}

func TestSweep(t *testing.T) {
	found := 0
	for _, spec := range algo.All() {
		if spec.Family() != "deadlock" {
			continue
		}
		found++
		t.Run(spec.Name, func(t *testing.T) {
			algotest.Seeds(t, "./core/algo/deadlock", sweepN, func(seed uint64) string {
				return sweepOne(t, spec, seed)
			})
		})
	}
	if found < 2 {
		t.Fatalf("%d deadlock.* algorithms registered", found)
	}
}
