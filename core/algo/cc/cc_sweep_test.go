package cc_test

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/algo/cc"
	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/txn"
	"dsim/core/proc"
	"dsim/core/sim"
	"dsim/core/trace"
)

// The seed sweep runs every registered concurrency-control scheme on a
// random workload with contention (2 to 5 sites, 1 to 3 copies of each
// item, a few transactions per site of 1 to 4 operations), on FIFO links
// of random latency and no crash, as the schemes assume. core/check judges
// cc.serializable, and the sweep searches the full conflict graph for a
// cycle by brute force too; independently, it checks that the run ended
// with every transaction committed, or, for the locking schemes, which do
// not handle deadlocks, that the transactions left are deadlocked: a cycle
// in the global wait-for graph of the sites' final lock tables. Replay a
// failing seed with
//
//	go test ./core/algo/cc -run 'TestSweep/cc.majority$' -sweep.seed=N -v
const sweepN = 1000

// tally counts, over a sweep, the runs left deadlocked and the rollbacks.
type tally struct{ deadlocked, aborts, commits int }

func sweepOne(t *testing.T, spec *algo.Spec, seed uint64, n *tally) (string, string) {
	r := sim.Stream(seed, "cc-sweep", 0)
	sites := 2 + r.IntN(4)
	ids := make([]sim.NodeID, sites)
	for i, k := range r.Perm(sites) {
		ids[i] = sim.NodeID(k + 1)
	}
	link := sim.Link{FIFO: true, Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + r.IntN(8))}}
	cfg := map[string]any{"replicas": 1 + r.IntN(3), "txns": 1 + r.IntN(4), "ops": 1 + r.IntN(4),
		"writes": []float64{0.2, 0.5, 1}[r.IntN(3)], "rate": []float64{0.05, 0.2, 1}[r.IntN(3)]}
	algotest.Assume(spec.Assumptions, seed, &link, cfg)
	w := algotest.New(t, algotest.Setup{Algo: spec.Name, IDs: ids, Link: link, Config: cfg, Seed: seed})
	w.Run(0)
	world := fmt.Sprintf("ids=%v link=%s config=%v", ids, link.Latency, cfg)
	if err := w.Judge(cc.Serializable); err != nil {
		return world, err.Error()
	}
	if fullGraphCyclic(w.Rec.Events) {
		return world, "the full conflict graph has a cycle the checker missed"
	}
	return world, stuck(w.Rec.Events, n)
}

// stuck says what is wrong with the end of a run: a transaction not
// finished outside a deadlock.
func stuck(evs []trace.Event, n *tally) string {
	final, locks := map[int]int{}, map[int][]int{}
	var order []int
	for _, e := range evs {
		v, ok := e.New.([]int)
		if e.Type != trace.State || !ok {
			continue
		}
		switch e.Key {
		case txn.KeyTxn:
			if _, seen := final[v[0]]; !seen {
				order = append(order, v[0])
			}
			final[v[0]] = v[1]
			switch v[1] {
			case txn.Aborted:
				n.aborts++
			case txn.Committed:
				n.commits++
			}
		case txn.KeyLocks:
			locks[e.Node] = v
		}
	}
	var edges []txn.Edge
	for _, l := range locks {
		edges = append(edges, txn.WaitsFor(l)...)
	}
	left := false
	for _, t := range order {
		if st := final[t]; st != txn.Committed {
			if !deadlocked(t, edges) {
				return fmt.Sprintf("T%d ended with status %d, and is not deadlocked (wait-for %v)", t, st, edges)
			}
			left = true
		}
	}
	if left {
		n.deadlocked++
	}
	return ""
}

// deadlocked reports whether t waits, directly or not, for a transaction
// on a cycle of the wait-for graph.
func deadlocked(t int, edges []txn.Edge) bool {
	reach := func(from int) []int {
		seen := []int{from}
		for i := 0; i < len(seen); i++ {
			for _, e := range edges {
				if e.From == seen[i] && !slices.Contains(seen, e.To) {
					seen = append(seen, e.To)
				}
			}
		}
		return seen
	}
	for _, u := range reach(t) {
		for _, e := range edges {
			if e.From == u && slices.Contains(reach(e.To), u) {
				return true
			}
		}
	}
	return false
}

func TestSweep(t *testing.T) {
	found := 0
	for _, spec := range algo.All() {
		if spec.Family() != "cc" {
			continue
		}
		found++
		t.Run(spec.Name, func(t *testing.T) {
			var n tally
			algotest.Seeds(t, "./core/algo/cc", sweepN, func(seed uint64) string {
				if world, msg := sweepOne(t, spec, seed, &n); msg != "" {
					return world + ": " + msg
				}
				return ""
			})
			t.Logf("%d commits, %d rollbacks, %d runs left deadlocked", n.commits, n.aborts, n.deadlocked)
			// The workloads have contention: the locking schemes, which do
			// not handle deadlock, are left deadlocked in some runs;
			// timestamp ordering never waits, but rolls back.
			if !algotest.Replaying() && (spec.Name == "cc.timestamp") != (n.deadlocked == 0) {
				t.Errorf("%d runs left deadlocked", n.deadlocked)
			}
			if !algotest.Replaying() && (spec.Name == "cc.timestamp") != (n.aborts > 0) {
				t.Errorf("%d rollbacks", n.aborts)
			}
		})
	}
	if found < 6 {
		t.Fatalf("%d cc.* algorithms registered, want 6 (core/algo/all imports them)", found)
	}
}

// nolocks is the model's sites with no concurrency control at all: every
// access is made at once. Outside the family (its name is not cc.*), for
// TestSweepWithoutLocks only.
func init() {
	algo.Register(algo.Spec{
		Name: "cctest.nolocks", Summary: "no concurrency control", Description: "every access made at once",
		Config: cc.Params(1), Commands: txn.Commands, State: txn.State, Messages: txn.Messages,
		New: func(v algo.Values) (proc.Factory, error) {
			cfg, err := txn.NewConfig(v)
			return func(proc.NodeID) proc.Node {
				s := &txn.Site{Config: cfg, Scheme: cc.ReadOneWriteAll}
				s.Serve = func(ctx proc.Context, from proc.NodeID, r txn.Request) {
					s.Access(ctx, r.T, r.Try, r.Item, r.Mode == int(txn.X))
					s.Send(ctx, from, txn.Grant{T: r.T, Try: r.Try, Item: r.Item, Done: true})
				}
				return s
			}, err
		},
		Memory: cc.Memory,
	})
}

// TestSweepWithoutLocks runs the sweep's worlds with no concurrency
// control: some runs are not serializable, and on every run the checker's
// verdict is that of the full conflict graph (an edge for every pair of
// conflicting accesses of committed runs, not only the checker's reduced
// set), searched here for a cycle by brute force.
func TestSweepWithoutLocks(t *testing.T) {
	spec, err := algo.Lookup("cctest.nolocks")
	if err != nil {
		t.Fatal(err)
	}
	broken := 0
	for seed := uint64(1); seed <= 300; seed++ {
		r := sim.Stream(seed, "cc-sweep-nolocks", 0)
		ids := algotest.IDs(2 + r.IntN(4))
		cfg := map[string]any{"replicas": 1 + r.IntN(2), "txns": 1 + r.IntN(4), "ops": 1 + r.IntN(4), "writes": 0.5, "rate": 0.2}
		w := algotest.New(t, algotest.Setup{Algo: spec.Name, IDs: ids, Config: cfg, Seed: seed,
			Link: sim.Link{FIFO: true, Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: 6}}})
		w.Run(0)
		verdict := w.Judge(cc.Serializable)
		if cyclic := fullGraphCyclic(w.Rec.Events); cyclic != (verdict != nil) {
			t.Errorf("seed %d: the full conflict graph is cyclic: %v; the checker says %v", seed, cyclic, verdict)
		}
		if verdict != nil {
			broken++
		}
	}
	if broken == 0 {
		t.Error("no run of 300 without concurrency control broke serializability")
	}
	t.Logf("%d of 300 runs without concurrency control not serializable", broken)
}

// fullGraphCyclic builds the committed transactions' conflict graph with
// an edge for every conflicting pair of accesses and looks for a cycle.
func fullGraphCyclic(evs []trace.Event) bool {
	type access struct{ site, t, item, w, run int }
	var acc []access
	runs, committed, aborted := map[int]int{}, map[int]int{}, map[int]bool{}
	for _, e := range evs {
		v, ok := e.New.([]int)
		if e.Type != trace.State || !ok {
			continue
		}
		switch {
		case e.Key == txn.KeyOp:
			acc = append(acc, access{e.Node, v[1], v[2], v[3], v[4]})
		case e.Key == txn.KeyTxn && v[1] == txn.Aborted:
			aborted[v[0]] = true
		case e.Key == txn.KeyTxn && v[1] == txn.Running && (runs[v[0]] == 0 || aborted[v[0]]):
			runs[v[0]]++
			aborted[v[0]] = false
		case e.Key == txn.KeyTxn && v[1] == txn.Committed:
			committed[v[0]] = runs[v[0]]
		}
	}
	edge := map[[2]int]bool{}
	for i, a := range acc {
		for _, b := range acc[i+1:] {
			if a.site == b.site && a.item == b.item && a.t != b.t && a.w+b.w > 0 &&
				committed[a.t] == a.run && committed[b.t] == b.run {
				edge[[2]int{a.t, b.t}] = true
			}
		}
	}
	// A cycle exists iff some transaction reaches itself.
	for start := range committed {
		seen, todo := map[int]bool{}, []int{start}
		for len(todo) > 0 {
			u := todo[0]
			todo = todo[1:]
			for to := range committed {
				if edge[[2]int{u, to}] {
					if to == start {
						return true
					}
					if !seen[to] {
						seen[to] = true
						todo = append(todo, to)
					}
				}
			}
		}
	}
	return false
}
