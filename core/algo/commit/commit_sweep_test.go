package commit_test

import (
	"fmt"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/algo/commit"
	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

// The seed sweep runs every registered commit algorithm within its
// declared assumptions: 2 to 6 sites, links in any order with random
// latencies, a failure detector of random delay, random votes (the vote
// command at random participants, and config abort), and crashes at random
// times of the coordinator and of participants, with recoveries where the
// algorithm tolerates them (two-phase commit). core/check judges each run
// to quiescence: commit.atomic, and commit.nonblocking where promised
// (three-phase commit). The sweep also checks that a coordinator up at the
// end has decided, and so has every participant up that voted (two-phase
// commit blocks only while its coordinator is down), and that both
// outcomes occur. A failure prints the seed; replay it with
//
//	go test ./core/algo/commit -run 'TestSweep/commit.twophase$' -sweep.seed=N -v
const sweepN = 1000

// sweepOne runs one world and returns its description, what went wrong
// ("" for nothing) and the coordinator's decision (nil: none).
func sweepOne(t *testing.T, spec *algo.Spec, seed uint64) (string, string, any) {
	r := sim.Stream(seed, "commit-sweep", 0)
	n := 2 + r.IntN(5)
	ids := make([]sim.NodeID, n)
	for i, k := range r.Perm(n) {
		ids[i] = sim.NodeID(k + 1)
	}
	link := sim.Link{FIFO: r.IntN(2) == 0, Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + r.IntN(6))}}
	cfg := map[string]any{"abort": []float64{0, 0, 0, 0.1, 0.5}[r.IntN(5)]}
	algotest.Assume(spec.Assumptions, seed, &link, cfg)
	detect := sim.Duration(1 + r.IntN(20))
	w := algotest.New(t, algotest.Setup{Algo: spec.Name, IDs: ids, Link: link, Config: cfg, Seed: seed, Detect: detect})
	coord := ids[r.IntN(n)]
	start := sim.Time(r.IntN(5))
	var plan []string
	for _, id := range ids {
		if id != coord && r.IntN(6) == 0 {
			w.CommandArgs(0, id, "vote", sim.Args{"value": commit.No})
			plan = append(plan, fmt.Sprintf("%d votes no", id))
		}
	}
	w.CommandArgs(start, coord, "commit", nil)
	// Crashes: the coordinator in half the worlds, and up to two
	// participants, each at a random time around the protocol's messages.
	recovers := spec.Assumptions.Crashes == algo.CrashRecovery
	for i, id := range r.Perm(n)[:min(n, 3)] {
		site := ids[id]
		if site == coord && r.IntN(2) == 0 || site != coord && r.IntN(3) == 0 || i == 0 && r.IntN(4) == 0 {
			at := start + sim.Time(r.IntN(30))
			w.Crash(at, site)
			plan = append(plan, fmt.Sprintf("%d crashes at %d", site, at))
			if recovers && r.IntN(5) > 0 {
				back := at + 1 + sim.Time(r.IntN(80))
				w.Recover(back, site)
				plan = append(plan, fmt.Sprintf("recovers at %d", back))
			}
		}
	}
	world := fmt.Sprintf("ids=%v coordinator=%d at %d link=%s fifo=%v detect=%d config=%v %v", ids, coord, start, link.Latency, link.FIFO, detect, cfg, plan)
	w.Run(0)
	if err := w.Judge(algo.PropertyNames(spec.Properties)...); err != nil {
		return world, err.Error(), nil
	}
	if w.Up(coord) && w.Get(coord, commit.KeyDecision) == nil {
		return world, fmt.Sprintf("the coordinator %d is up and has not decided", coord), nil
	}
	// Two-phase commit blocks only while the coordinator is down: with it
	// up at the end, every participant up that voted has decided.
	if w.Up(coord) {
		for _, id := range ids {
			if w.Up(id) && w.Get(id, commit.KeyVote) != nil && w.Get(id, commit.KeyDecision) == nil {
				return world, fmt.Sprintf("participant %d voted and has not decided, with the coordinator up (phase %v)", id, w.Get(id, commit.KeyPhase)), nil
			}
		}
	}
	d := w.Get(coord, commit.KeyDecision)
	for _, id := range ids {
		if x := w.Get(id, commit.KeyDecision); d == nil && x != nil {
			d = x
		}
	}
	return world, "", d
}

func TestSweep(t *testing.T) {
	found := 0
	for _, spec := range algo.All() {
		if spec.Family() != "commit" {
			continue
		}
		found++
		t.Run(spec.Name, func(t *testing.T) {
			outcomes := map[any]int{}
			algotest.Seeds(t, "./core/algo/commit", sweepN, func(seed uint64) string {
				world, msg, d := sweepOne(t, spec, seed)
				if msg != "" {
					return world + ": " + msg
				}
				outcomes[d]++
				return ""
			})
			// The sweep puts both outcomes to the test.
			worlds := 0
			for _, k := range outcomes {
				worlds += k
			}
			if !algotest.Replaying() && (outcomes[commit.Commit] < worlds/10 || outcomes[commit.Abort] < worlds/10) {
				t.Errorf("outcomes %v: want both commit and abort in a tenth of the worlds at least", outcomes)
			}
			t.Logf("outcomes (the decision known at the end): %v", outcomes)
		})
	}
	if found < 2 {
		t.Fatalf("%d commit.* algorithms registered, want twophase and threephase (core/algo/all imports them)", found)
	}
}
