package sim

import (
	"slices"
	"testing"
)

// TestIndex: every process learns its position in ring order, not its id's
// rank, and which ids are processes.
func TestIndex(t *testing.T) {
	ids := []NodeID{7, 3, 9}
	got := make([]int, len(ids))
	var known []bool
	s, _ := world(t, ids, DefaultLink, func(id NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			got[slices.Index(ids, id)] = ctx.Index()
			if id == 3 {
				known = []bool{ctx.IsProcess(9), ctx.IsProcess(8), ctx.IsProcess(-7)}
			}
		}}
	})
	s.Run(Until{})
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("indices %v, want [0 1 2]", got)
	}
	if !slices.Equal(known, []bool{true, false, false}) {
		t.Errorf("IsProcess(9, 8, -7) = %v, want [true false false]", known)
	}
}

// TestSuccessor: the successor is the next process in ring order while
// nobody is suspected, and a Send to it arrives there; once the detector
// suspects it, the one after; a process that suspects every other one is
// its own successor.
func TestSuccessor(t *testing.T) {
	var got, reached []NodeID
	s, _ := world(t, []NodeID{7, 3, 9}, DefaultLink, func(id NodeID) Node {
		return &fnNode{
			start: func(ctx Context) {
				if id == 7 {
					next := ctx.Successor()
					got = append(got, next)
					ctx.Send(next, msg{})
					ctx.SetTimer(20, "again")
				}
			},
			receive: func(ctx Context, _ NodeID, _ Message) { reached = append(reached, ctx.Self()) },
			timer:   func(ctx Context, _ string) { got = append(got, ctx.Successor()) },
		}
	}, func(c *Config) { c.DetectDelay = 5 })
	s.At(5, func() {
		if err := s.Crash(3); err != nil {
			t.Error(err)
		}
	})
	s.At(10, func() {
		if err := s.Crash(9); err != nil {
			t.Error(err)
		}
	})
	s.Run(Until{})
	if want := []NodeID{3, 7}; !slices.Equal(got, want) {
		t.Errorf("successors %v, want %v (at boot, then with 3 and 9 suspected)", got, want)
	}
	if !slices.Equal(reached, []NodeID{3}) {
		t.Errorf("the message sent to the answer reached %v, want [3]", reached)
	}
}
