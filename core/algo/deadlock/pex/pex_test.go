package pex_test

import (
	"fmt"
	"slices"
	"testing"

	_ "dsim/core/algo/all"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/deadlock/pex"
	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
	"dsim/core/trace"
)

// seed builds the seed's example (Silberschatz et al., "Deadlock
// Handling", "Fully Distributed Approach"): sites S1 (id 1, items A and
// B) and S2 (id 2, items C and D), links of latency 1. T4 locks D, T3
// locks B and asks for D (waits for T4 at S2), T2 locks A and C and asks
// for B (waits for T3 at S1), T4 asks for C (waits for T2 at S2), T1 asks
// for A (waits for T2 at S1): S1's local graph is T1 -> T2 -> T3, S2's
// T3 -> T4 -> T2, and their last edges appear at t=3 at both sites.
func seed(t *testing.T, idrule bool) *algotest.World {
	w := algotest.New(t, algotest.Setup{Algo: "deadlock.pex", IDs: algotest.IDs(2),
		Config: map[string]any{"items": "A@1 B@1 C@2 D@2", "idrule": idrule, "latency": 1}})
	w.CommandArgs(0, 1, "begin", sim.Args{"t": 4, "ops": "w(D) w(C)"})
	w.CommandArgs(0, 1, "begin", sim.Args{"t": 3, "ops": "w(B) w(D)"})
	w.CommandArgs(1, 1, "begin", sim.Args{"t": 2, "ops": "w(A) w(C) w(B)"})
	w.CommandArgs(2, 1, "begin", sim.Args{"t": 1, "ops": "w(A)"})
	w.Run(200)
	return w
}

// declared lists the deadlock events as "site@t: cycle".
func declared(w *algotest.World) []string {
	var out []string
	for _, e := range w.Rec.Events {
		if e.Type == trace.State && e.Key == deadlock.KeyDeadlock {
			out = append(out, fmt.Sprintf("S%d@%d: %s", e.Node, e.T, deadlock.Text(e.New.([]int))))
		}
	}
	return out
}

// augmented is a site's augmented graph at time at.
func augmented(w *algotest.World, site int, at int64) []int {
	var v []int
	for _, e := range w.Rec.Events {
		if e.T <= at && e.Type == trace.State && e.Node == site && e.Key == deadlock.KeyAugmented {
			v = e.New.([]int)
		}
	}
	return v
}

func TestSeedExample(t *testing.T) {
	w := seed(t, true)
	// At t=4 both sites know the other's waits: S1's augmented graph is
	// T1 -> T2 -> T3 -> Pex -> T2, S2's T4 -> T2 -> Pex -> T3 -> T4.
	if got, want := augmented(w, 1, 4), []int{1, 2, 2, 3, 3, 0, 0, 2}; !slices.Equal(got, want) {
		t.Errorf("S1's augmented graph at t=4: %v, want %v", got, want)
	}
	if got, want := augmented(w, 2, 4), []int{4, 2, 3, 4, 2, 0, 0, 3}; !slices.Equal(got, want) {
		t.Errorf("S2's augmented graph at t=4: %v, want %v", got, want)
	}
	// S1's cycle Pex -> T2 -> T3 -> Pex sends nothing (ID(T3) > ID(T2));
	// S2's Pex -> T3 -> T4 -> T2 -> Pex sends its path to S1, where T2
	// waits (ID(T2) < ID(T3)); S1 adds it and finds T2 -> T3 -> T4 -> T2.
	detects := w.Sends("DETECT")
	if len(detects) != 1 || algotest.Pairs(detects) != "2->1" || fmt.Sprint(detects[0].Msg.(pex.Detect).Path) != "[3 4 2]" {
		t.Errorf("detection messages %v, want one from S2 to S1 with the path [3 4 2]", detects)
	}
	if got := fmt.Sprint(declared(w)); got != "[S1@5: T2 -> T3 -> T4 -> T2]" {
		t.Errorf("declared %s, want S1 at t=5 only", got)
	}
	if err := w.Judge(deadlock.Sound, deadlock.Complete, "cc.serializable"); err != nil {
		t.Error(err)
	}

	// Without the id rule S1 sends its path too: an unneeded second message.
	w = seed(t, false)
	if got := algotest.Pairs(w.Sends("DETECT")); got != "2->1 1->2" {
		t.Errorf("without the id rule, detection messages %s, want 2->1 1->2", got)
	}
	if got := fmt.Sprint(declared(w)); got != "[S1@5: T2 -> T3 -> T4 -> T2]" {
		t.Errorf("without the id rule, declared %s, want S1 at t=5 only", got)
	}
}
