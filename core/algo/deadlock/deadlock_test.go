package deadlock

import (
	"fmt"
	"slices"
	"testing"
)

// The seed's example (Silberschatz et al., "Deadlock Handling", fully
// distributed approach), as lock tables: S1 holds A and B, S2 holds C and
// D; T2 holds A and C, T3 holds B, T4 holds D; T1 waits for A, T2 for B,
// T3 for D, T4 for C (all exclusive).
var (
	s1 = []int{0, 2, 2, 0, 1, -2, 1, 3, 2, 1, 2, -2}
	s2 = []int{2, 2, 2, 2, 4, -2, 3, 4, 2, 3, 3, -2}
)

// waiters lists the transactions waiting at a site.
func waiters(locks []int) []int {
	var out []int
	for _, e := range Edges(locks) {
		out = append(out, e.From)
	}
	return out
}

func waitedFor(locks []int) []int {
	var out []int
	for _, e := range Edges(locks) {
		out = append(out, e.To)
	}
	return out
}

func augment(here, there []int) []Edge {
	return Augmented(Edges(here),
		func(t int) bool { return slices.Contains(waiters(there), t) },
		func(t int) bool { return slices.Contains(waitedFor(there), t) })
}

func TestSeedExample(t *testing.T) {
	for _, tc := range []struct {
		name        string
		here, there []int
		local, aug  string
		cycles      string
		sends       []bool // with the id rule, without
	}{
		{"S1", s1, s2, "[{1 2} {2 3}]", "[{1 2} {2 3} {3 0} {0 2}]", "[[0 2 3]]", []bool{false, true}},
		{"S2", s2, s1, "[{4 2} {3 4}]", "[{4 2} {3 4} {2 0} {0 3}]", "[[0 3 4 2]]", []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(Edges(tc.here)); got != tc.local {
				t.Errorf("local graph %s, want %s", got, tc.local)
			}
			aug := augment(tc.here, tc.there)
			if got := fmt.Sprint(aug); got != tc.aug {
				t.Errorf("augmented graph %s, want %s", got, tc.aug)
			}
			if c := Cycle(aug, func(v int) bool { return v == Ex }); c != nil {
				t.Errorf("a local cycle without Pex %v, want none", c)
			}
			cs := ExCycles(aug, []int{Ex})
			if got := fmt.Sprint(cs); got != tc.cycles {
				t.Fatalf("cycles through Pex %s, want %s", got, tc.cycles)
			}
			if Sends(cs[0], true) != tc.sends[0] || Sends(cs[0], false) != tc.sends[1] {
				t.Errorf("sends with the id rule %v, without %v; want %v", Sends(cs[0], true), Sends(cs[0], false), tc.sends)
			}
		})
	}
	// S2's message carries its path T3 -> T4 -> T2; S1 adds the edges and
	// finds the cycle without Pex: the deadlock.
	aug := append(augment(s1, s2), Edge{From: 3, To: 4}, Edge{From: 4, To: 2})
	if c := Cycle(aug, func(v int) bool { return v == Ex }); fmt.Sprint(c) != "[2 3 4]" || Text(c) != "T2 -> T3 -> T4 -> T2" {
		t.Errorf("S1 finds %v, want [2 3 4]", c)
	}
	if !IsCycle(Edges(append(slices.Clone(s1), s2...)), []int{3, 4, 2}) {
		t.Error("T3 -> T4 -> T2 is not a cycle of the union of the local graphs")
	}
}

func TestEdges(t *testing.T) {
	for _, tc := range []struct {
		locks []int
		want  string
	}{
		{[]int{0, 1, 1, 0, 2, 1, 0, 3, -1}, "[]"},                            // S with S holders: granted, would not wait
		{[]int{0, 1, 1, 0, 2, 1, 0, 3, -2, 0, 4, -1}, "[{3 1} {3 2} {4 3}]"}, // X waits for both; S waits behind the X
		{[]int{0, 1, 1, 0, 1, -2}, "[]"},                                     // an upgrade waits for nobody else
		{[]int{0, 1, 2, 1, 2, 2, 1, 1, -2, 0, 2, -1}, "[{1 2} {2 1}]"},
	} {
		if got := fmt.Sprint(Edges(tc.locks)); got != tc.want {
			t.Errorf("Edges(%v) = %s, want %s", tc.locks, got, tc.want)
		}
	}
	if c := Cycle(Edges([]int{0, 1, 2, 1, 2, 2, 1, 1, -2, 0, 2, -1}), nil); fmt.Sprint(c) != "[1 2]" {
		t.Errorf("cycle %v, want [1 2]", c)
	}
	if c := Cycle([]Edge{{From: 1, To: 2}, {From: 2, To: 3}}, nil); c != nil {
		t.Errorf("cycle %v in a chain", c)
	}
}
