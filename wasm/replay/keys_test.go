package replay

import (
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/algo/election"
)

// TestReadsDeclaredKeys holds the playground to the state keys algorithms
// declare: a key it colours or summarizes by that no algorithm sets would
// never show.
func TestReadsDeclaredKeys(t *testing.T) {
	declared := map[string]bool{}
	for _, s := range algo.All() {
		for _, k := range s.State {
			declared[k.Key] = true
		}
	}
	reads := []string{election.KeyLeader} // View.Leader
	for _, c := range classes {
		reads = append(reads, c.key)
	}
	for _, k := range reads {
		if !declared[k] {
			t.Errorf("the playground reads the state key %q, which no registered algorithm declares", k)
		}
	}
}
