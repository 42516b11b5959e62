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

// TestQuickSuccessor: the kernel's Context answers with the successor while
// nobody is suspected, and a Send to it arrives there; once a process is
// suspected, or for a Context the kernel did not make, the caller is sent
// to ask the Context.
func TestQuickSuccessor(t *testing.T) {
	type answer struct {
		id NodeID
		ok bool
	}
	var got []answer
	var reached []NodeID
	ask := func(ctx Context) NodeID {
		id, ok := QuickSuccessor(ctx)
		got = append(got, answer{id, ok})
		return id
	}
	s, _ := world(t, []NodeID{7, 3, 9}, DefaultLink, func(id NodeID) Node {
		return &fnNode{
			start: func(ctx Context) {
				if id == 7 {
					ctx.Send(ask(ctx), msg{})
					ask(wrapped{ctx})
					ctx.SetTimer(20, "again")
				}
			},
			receive: func(ctx Context, _ NodeID, _ Message) { reached = append(reached, ctx.Self()) },
			timer:   func(ctx Context, _ string) { ask(ctx) },
		}
	}, func(c *Config) { c.DetectDelay = 5 })
	s.At(10, func() {
		if err := s.Crash(9); err != nil {
			t.Error(err)
		}
	})
	s.Run(Until{})
	want := []answer{{3, true}, {0, false}, {0, false}}
	if !slices.Equal(got, want) {
		t.Errorf("answers %v, want %v (successor at boot, wrapped, with 9 suspected)", got, want)
	}
	if !slices.Equal(reached, []NodeID{3}) {
		t.Errorf("the message sent to the answer reached %v, want [3]", reached)
	}
}
