package spacetime

import (
	"reflect"
	"testing"

	"dsim/core/trace"
	"dsim/wasm/internal/runs"
	"dsim/wasm/replay"
)

// Indexing in steps of a few events, across the passes' ends, must make
// exactly what indexing at once makes, on real traces (the shipped
// examples' worlds: partitions, crashes, critical sections, elections)
// and a long random one.
func TestBuilderInStepsMatchesNew(t *testing.T) {
	worlds, err := runs.Examples()
	if err != nil {
		t.Fatal(err)
	}
	worlds = append(worlds, *messages(6, 2000, 40, 3), trace.World{})
	for wi := range worlds {
		r := replay.New(&worlds[wi], 0)
		want := New(r)
		for _, step := range []int{1, 7, 1000} {
			b := NewBuilder(r)
			for !b.Step(step) {
				if b.Diagram() != nil {
					t.Fatalf("world %d: the diagram is out before the builder is done", wi)
				}
			}
			if got := b.Diagram(); !reflect.DeepEqual(got, want) {
				t.Fatalf("world %d (%d events), steps of %d: the diagram differs from New's", wi, len(r.Events), step)
			}
		}
	}
}
