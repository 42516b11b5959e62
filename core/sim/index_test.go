package sim

import (
	"slices"
	"testing"
)

// TestIndex: every process learns its position in ring order, not its id's
// rank, and a wrapped Context answers for the one it wraps.
func TestIndex(t *testing.T) {
	ids := []NodeID{7, 3, 9}
	got := make([]int, len(ids))
	s, _ := world(t, ids, DefaultLink, func(id NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			got[slices.Index(ids, id)] = Index(wrapped{ctx})
		}}
	})
	s.Run(Until{})
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("indices %v, want [0 1 2]", got)
	}
	if Index(wrapped{}) != -1 {
		t.Error("a Context the kernel did not make has an index")
	}
}

type wrapped struct{ Context }

func (w wrapped) Unwrap() Context { return w.Context }
