package order_test

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/order"
	"dsim/core/sim"
	"dsim/core/trace"
)

// The seed sweep runs every registered ordered multicast under its random
// workload, within its declared assumptions (reliable links, FIFO where it
// needs them and in any order where it does not, no crash): core/check
// judges each run against the properties it promises, computing
// happened-before from the multicasts and deliveries, and every process
// must have delivered every message by the end, its hold-back queue empty.
// A failure prints the seed; replay it with
//
//	go test ./core/algo/order -run 'TestSweep/order.total/sequencer$' -sweep.seed=N -v
const sweepN = 500

// sweepWorld runs one random world of the algorithm with config (the
// variant, if any) and returns it and a description.
func sweepWorld(t *testing.T, spec *algo.Spec, config map[string]any, seed uint64) (*algotest.World, string) {
	r := sim.Stream(seed, "order-sweep", 0)
	n := 2 + r.IntN(5)
	ids := make([]sim.NodeID, n)
	for i, k := range r.Perm(n) {
		ids[i] = sim.NodeID(k + 1)
	}
	link := sim.Link{FIFO: spec.Assumptions.FIFO || r.IntN(2) == 0, Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + r.IntN(12))}}
	cfg := map[string]any{"events": 1 + r.IntN(12), "rate": []float64{0.05, 0.2, 1}[r.IntN(3)], "app": []string{"board", "bank"}[r.IntN(2)]}
	for k, v := range config {
		cfg[k] = v
	}
	w := algotest.New(t, algotest.Setup{Algo: spec.Name, IDs: ids, Link: link, Config: cfg, Seed: seed})
	w.Run(0)
	return w, fmt.Sprintf("ids=%v link=%s fifo=%v config=%v", ids, link.Latency, link.FIFO, cfg)
}

// allDelivered reports a process that has not delivered every multicast by
// the end of the run, or still holds messages back; under total order, the
// bank's replicas must agree on the balance.
func allDelivered(w *algotest.World, total bool) error {
	multicasts, delivered := 0, map[int]int{}
	for _, e := range w.Rec.Events {
		switch {
		case e.Type != trace.State:
		case e.Key == order.KeyMulticasts && e.New != 0:
			multicasts++
		case e.Key == order.KeyDelivered:
			delivered[e.Node]++
		}
	}
	for _, id := range w.IDs() {
		if got, held := delivered[int(id)], w.Get(id, order.KeyHeld); got != multicasts || held != 0 {
			return fmt.Errorf("process %d delivered %d of %d multicasts and holds %v back", id, got, multicasts, held)
		}
		if b, first := w.Get(id, order.KeyBalance), w.Get(w.IDs()[0], order.KeyBalance); total && b != first {
			return fmt.Errorf("process %d's balance is %v, process %d's %v", id, b, w.IDs()[0], first)
		}
	}
	return nil
}

// variants are the configurations swept apart: order.total's two variants.
var variants = map[string][]map[string]any{"order.total": {{"variant": "lamport"}, {"variant": "sequencer"}}}

func TestSweep(t *testing.T) {
	found := 0
	for _, spec := range algo.All() {
		if spec.Family() != "order" {
			continue
		}
		found++
		configs := variants[spec.Name]
		if configs == nil {
			configs = []map[string]any{nil}
		}
		for _, config := range configs {
			name := spec.Name
			if config != nil {
				name += "/" + fmt.Sprint(config["variant"])
			}
			t.Run(name, func(t *testing.T) {
				algotest.Seeds(t, "./core/algo/order", sweepN, func(seed uint64) string {
					w, world := sweepWorld(t, spec, config, seed)
					err := w.Judge(algo.PropertyNames(spec.Properties)...)
					if err == nil {
						err = allDelivered(w, slices.Contains(spec.Properties, order.Total))
					}
					if err != nil {
						return fmt.Sprintf("%s: %v", world, err)
					}
					return ""
				})
			})
		}
	}
	if found < 3 {
		t.Fatalf("%d order.* algorithms registered, want fifo, causal and total (core/algo/all imports them)", found)
	}
}

// TestSweepWeaker: the weaker orderings do not promise the stronger ones,
// and the checkers say so: over the sweep's worlds order.fifo breaks causal
// and total order, and order.causal total order, in some of them.
func TestSweepWeaker(t *testing.T) {
	for _, c := range []struct{ algo, property string }{
		{"order.fifo", order.Causal}, {"order.fifo", order.Total}, {"order.causal", order.Total},
	} {
		spec, err := algo.Lookup(c.algo)
		if err != nil {
			t.Fatal(err)
		}
		broken := 0
		for seed := uint64(1); seed <= 100; seed++ {
			w, _ := sweepWorld(t, spec, nil, seed)
			if w.Judge(c.property) != nil {
				broken++
			}
		}
		t.Logf("%s breaks %s in %d of 100 worlds", c.algo, c.property, broken)
		if broken == 0 {
			t.Errorf("%s kept %s in all 100 worlds: the checker never failed", c.algo, c.property)
		}
	}
}

// TestWorkload: events=5 makes each process multicast five times by itself,
// the bank's being deposits or interest that every replica applies; with
// none, only the commands multicast.
func TestWorkload(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "order.total", IDs: algotest.IDs(3), Config: map[string]any{"events": 5, "rate": 0.5, "app": "bank"}})
	w.Run(0)
	for _, id := range w.IDs() {
		if got := w.Get(id, order.KeyMulticasts); got != 5 {
			t.Errorf("process %d multicast %v times, want 5", id, got)
		}
		if b := w.Get(id, order.KeyBalance); b == 1000 || b != w.Get(1, order.KeyBalance) {
			t.Errorf("process %d's balance is %v, process 1's %v", id, b, w.Get(1, order.KeyBalance))
		}
	}
	if err := allDelivered(w, true); err != nil {
		t.Error(err)
	}
	w = algotest.New(t, algotest.Setup{Algo: "order.fifo", IDs: algotest.IDs(3)})
	w.CommandArgs(0, 2, "multicast", map[string]any{"payload": "hello"})
	w.Run(0)
	if got := w.Count("MSG"); got != 2 || w.Get(1, order.KeyPost) != "hello" || w.Get(3, order.KeyMulticasts) != 0 {
		t.Errorf("one multicast: %d messages, 1's post %v, 3's multicasts %v", got, w.Get(1, order.KeyPost), w.Get(3, order.KeyMulticasts))
	}
}
