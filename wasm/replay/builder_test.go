package replay

import (
	"reflect"
	"testing"

	"dsim/core/trace"
	"dsim/wasm/internal/runs"
)

// testWorlds are real traces, the shipped examples' worlds, and random
// runs with duplicates, drops and crashes.
func testWorlds(t *testing.T) []*trace.World {
	t.Helper()
	examples, err := runs.Examples()
	if err != nil {
		t.Fatal(err)
	}
	var out []*trace.World
	for i := range examples {
		out = append(out, &examples[i])
	}
	for seed := range uint64(5) {
		out = append(out, randomRun(seed, 6, 500))
	}
	return out
}

// Indexing in steps of a few events, across the passes' ends and the
// snapshots, must make exactly what indexing at once makes.
func TestBuilderInStepsMatchesNew(t *testing.T) {
	worlds := testWorlds(t)
	for _, k := range []int{1, 16, DefaultK} {
		for _, step := range []int{1, 7, 1000} {
			for wi, w := range worlds {
				want := New(w, k)
				b := NewBuilder(w, k)
				steps := 0
				for !b.Step(step) {
					if b.Replay() != nil {
						t.Fatalf("world %d: the replay is out before the builder is done", wi)
					}
					steps++
				}
				// three passes, each to the last event
				if most := 3*len(w.Events)/step + 3; steps > most {
					t.Errorf("world %d, steps of %d: %d steps, more than %d", wi, step, steps, most)
				}
				if got := b.Replay(); !reflect.DeepEqual(got, want) {
					t.Fatalf("world %d (%d events), k %d, steps of %d: the replay differs from New's", wi, len(w.Events), k, step)
				}
			}
		}
	}
}
