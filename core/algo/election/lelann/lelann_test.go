package lelann

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
	"dsim/core/sim"
)

// TestRules checks rules 1-3 at process 5 of the ring 3 -> 5 -> 0 -> 6 ->
// 3, calling its handlers directly.
func TestRules(t *testing.T) {
	ctx := algotest.NewFake(5, 3, 5, 0, 6)
	p := algotest.Process(t, "election.lelann", nil, 5)
	p.Start(ctx)
	if got := ctx.Take(); len(got) != 0 {
		t.Fatalf("sent %v at boot, want nothing: nobody starts unless told", got)
	}

	// Rule 2 at a process that has not started: rule 1 first, then the
	// token passes on unchanged.
	p.Receive(ctx, 3, Token{ID: 3})
	want := []algotest.Sent{{To: 0, Msg: Token{ID: 5}}, {To: 0, Msg: Token{ID: 3}}}
	if got := ctx.Take(); !slices.Equal(got, want) {
		t.Errorf("on TOKEN(3): sent %v, want %v (rule 1, then rule 2)", got, want)
	}
	if ctx.State["role"] != "candidate" {
		t.Errorf("role %v after rule 1, want candidate", ctx.State["role"])
	}

	// Rule 2 again: a larger UID is noted and passed on.
	p.Receive(ctx, 3, Token{ID: 6})
	if got := ctx.Take(); !slices.Equal(got, []algotest.Sent{{To: 0, Msg: Token{ID: 6}}}) {
		t.Errorf("on TOKEN(6): sent %v, want it passed on", got)
	}

	// Rule 3: its own token back, it decides for the largest UID seen.
	p.Receive(ctx, 3, Token{ID: 5})
	if got := ctx.Take(); len(got) != 0 {
		t.Errorf("on its own TOKEN: sent %v, want nothing", got)
	}
	if ctx.State["leader"] != proc.NodeID(6) || ctx.State["role"] != "follower" {
		t.Errorf("leader %v, role %v after rule 3; want 6, follower", ctx.State["leader"], ctx.State["role"])
	}

	// A token naming no process is dropped; its own token again is ignored.
	p.Receive(ctx, 3, Token{ID: 99})
	p.Receive(ctx, 3, Token{ID: 5})
	if got := ctx.Take(); len(got) != 0 {
		t.Errorf("on TOKEN(99) and a second own TOKEN: sent %v, want nothing", got)
	}
}

// TestMessageCounts: every token makes n hops and every process sends
// one, whoever starts: n² TOKEN messages, with every process starting at
// once or with one, and every process follows the largest UID.
func TestMessageCounts(t *testing.T) {
	for _, n := range []int{1, 2, 5, 12} {
		for _, all := range []bool{true, false} {
			t.Run(fmt.Sprintf("n=%d/all=%v", n, all), func(t *testing.T) {
				ids := algotest.IDs(n)
				slices.Reverse(ids)
				w := algotest.New(t, algotest.Setup{Algo: "election.lelann", IDs: ids, Config: map[string]any{"all": all}})
				if !all {
					w.Command(0, ids[n/2], "elect")
				}
				if r := w.Run(0); r.Reason != sim.Quiescent {
					t.Fatalf("run ended %s, want quiescent", r)
				}
				if got := w.Count("TOKEN"); got != n*n {
					t.Errorf("%d TOKEN messages, want n² = %d", got, n*n)
				}
				w.Elected(proc.NodeID(n))
			})
		}
	}
}
