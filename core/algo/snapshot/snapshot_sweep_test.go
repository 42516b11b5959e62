package snapshot_test

import (
	"fmt"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/snapshot"
	"dsim/core/sim"
	"dsim/core/trace"
)

// The seed sweep runs every registered snapshot algorithm on a bank moving
// money at random, within its declared assumptions (Chandy-Lamport on FIFO
// links, Lai-Yang on links in any order), with one to three initiators at
// random times, some at once: Chandy-Lamport's each start a snapshot of
// their own or, sometimes, the same one; Lai-Yang's all start its one
// snapshot. core/check judges each run (snapshot.consistent,
// snapshot.conserved), and the sweep checks every snapshot completes and,
// independently of the checkers, that trace.JudgeCut finds no transfer
// crossing each recorded cut backwards and as many in flight across it as
// its channel states hold. A failure prints the seed; replay it with
//
//	go test ./core/algo/snapshot -run 'TestSweep/snapshot.laiyang$' -sweep.seed=N -v
const sweepN = 1000

// sweepOne runs one random world and returns what the checkers and the
// cuts found wrong ("" if nothing), and a description of the world. With
// reorder, its links reorder messages whatever the algorithm assumes.
func sweepOne(t *testing.T, spec *algo.Spec, seed uint64, reorder bool) (checkers, cuts, world string) {
	r := sim.Stream(seed, "snapshot-sweep", 0)
	n := 2 + r.IntN(7)
	ids := make([]sim.NodeID, n)
	for i, k := range r.Perm(n) {
		ids[i] = sim.NodeID(k + 1)
	}
	link := sim.Link{FIFO: !reorder && (spec.Assumptions.FIFO || r.IntN(2) == 0), Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + r.IntN(12))}}
	cfg := map[string]any{"balance": r.IntN(200), "events": 1 + r.IntN(20), "rate": []float64{0.05, 0.2, 1}[r.IntN(3)]}
	algotest.Assume(spec.Assumptions, seed, &link, cfg)
	w := algotest.New(t, algotest.Setup{Algo: spec.Name, IDs: ids, Link: link, Config: cfg, Seed: seed})
	var starts []string
	at := sim.Time(r.IntN(60))
	for k := range 1 + r.IntN(3) {
		id, args := ids[r.IntN(n)], sim.Args{}
		if !spec.Assumptions.FIFO {
			args = nil // Lai-Yang: one snapshot
		} else if r.IntN(4) > 0 {
			args["id"] = k + 1
		} else {
			args["id"] = 1 // the same snapshot, another initiator
		}
		starts = append(starts, fmt.Sprintf("%d@%d%v", id, at, args))
		w.CommandArgs(at, id, "snapshot", args)
		if r.IntN(2) == 0 {
			at += sim.Time(r.IntN(30))
		}
	}
	world = fmt.Sprintf("ids=%v link=%s fifo=%v config=%v snapshots=%v", ids, link.Latency, link.FIFO, cfg, starts)
	w.Run(0)
	if err := w.Judge(algo.PropertyNames(spec.Properties)...); err != nil {
		checkers = err.Error()
	}
	return checkers, judgeCuts(w.Rec.Events, n), world
}

// judgeCuts finds each snapshot's recorded cut and channel states in the
// trace, and checks them with trace.JudgeCut.
func judgeCuts(evs []trace.Event, n int) string {
	type snap struct {
		cut             trace.Cut
		chans, recorded int // channel states, and transfers in them
	}
	snaps := map[int]*snap{}
	var order []int
	last := map[int]*trace.Event{}
	for i := range evs {
		e := &evs[i]
		if v, ok := e.New.([]int); ok && e.Type == trace.State && (e.Key == snapshot.KeyRecorded || e.Key == snapshot.KeyChannel) {
			s := snaps[v[0]]
			if s == nil {
				s = &snap{cut: trace.Cut{}}
				snaps[v[0]] = s
				order = append(order, v[0])
			}
			if e.Key == snapshot.KeyRecorded {
				// Before the delivery that made the process record, if any.
				s.cut[e.Node] = int64(e.Seq) - 1
				if p := last[e.Node]; p != nil && p.Type == trace.Deliver {
					s.cut[e.Node] = int64(p.Seq) - 1
				}
			} else {
				s.chans++
				s.recorded += (len(v) - 2) / 2
			}
		}
		if e.Node != trace.NoNode {
			last[e.Node] = e
		}
	}
	if len(order) == 0 {
		return "no snapshot was recorded"
	}
	for _, id := range order {
		s := snaps[id]
		if len(s.cut) != n || s.chans != n*(n-1) {
			return fmt.Sprintf("snapshot %d is incomplete: %d process states, %d channel states", id, len(s.cut), s.chans)
		}
		v := trace.JudgeCut(func(f func(*trace.Event)) {
			for i := range evs {
				f(&evs[i])
			}
		}, s.cut)
		// The bank's state is made of transfers: the markers of other
		// snapshots may cross a cut backwards on links that reorder.
		backward, flying := transfers(v.Backward), transfers(v.InFlight)
		if backward > 0 || flying != s.recorded {
			return fmt.Sprintf("snapshot %d: trace.JudgeCut finds %d transfers crossing the cut backwards and %d in flight; the channels recorded %d", id, backward, flying, s.recorded)
		}
	}
	return ""
}

func transfers(xs []trace.Crossing) int {
	n := 0
	for _, x := range xs {
		if x.Kind == "TRANSFER" {
			n++
		}
	}
	return n
}

func TestSweep(t *testing.T) {
	found := 0
	for _, spec := range algo.All() {
		if spec.Family() != "snapshot" {
			continue
		}
		found++
		t.Run(spec.Name, func(t *testing.T) {
			algotest.Seeds(t, "./core/algo/snapshot", sweepN, func(seed uint64) string {
				checkers, cuts, world := sweepOne(t, spec, seed, false)
				if msg := checkers + cuts; msg != "" {
					return world + ": " + msg
				}
				return ""
			})
		})
	}
	if found < 2 {
		t.Fatalf("%d snapshot.* algorithms registered, want chandylamport and laiyang (core/algo/all imports them)", found)
	}
}

// TestSweepWithoutFIFO runs Chandy-Lamport's sweep worlds on links that
// reorder, outside its assumptions: some of its snapshots break, and
// every cut trace.JudgeCut finds a transfer crossing backwards, or another
// number of transfers in flight than its channels recorded, the checkers
// catch too.
func TestSweepWithoutFIFO(t *testing.T) {
	spec, err := algo.Lookup("snapshot.chandylamport")
	if err != nil {
		t.Fatal(err)
	}
	broken := 0
	for seed := uint64(1); seed <= 200; seed++ {
		checkers, cuts, world := sweepOne(t, spec, seed, true)
		if cuts != "" && checkers == "" {
			t.Errorf("seed %d: %s: %s, and the checkers found nothing", seed, world, cuts)
		}
		if checkers != "" {
			broken++
		}
	}
	if broken == 0 {
		t.Error("no snapshot of 200 worlds without FIFO broke")
	}
	t.Logf("%d of 200 worlds without FIFO recorded a broken snapshot", broken)
}
