package suzukikasami

import (
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

// Messages the rules do not expect: a second token, a token without LN or
// with strangers in Q, a REQUEST naming nobody. Each is handled as the
// Description says; none may panic or lose the token.

// TestSecondTokenDropped: a copy of the TOKEN reaching the holder during its
// critical section is dropped. Taken, it was passed on from inside the
// critical section, so two processes were in it and the release found no
// token (a nil pointer).
func TestSecondTokenDropped(t *testing.T) {
	algotest.CheckSecondTokenDropped(t, "mutex.suzukikasami", Token{LN: map[sim.NodeID]int{1: 0, 2: 0, 3: 0}})
}

// TestTokenWithoutLN: a token without LN (a Go zero value) counts every
// LN[j] as 0, and its holder can release it.
func TestTokenWithoutLN(t *testing.T) {
	algotest.CheckZeroToken(t, "mutex.suzukikasami", Token{})
}

// TestStrangersInQ: entries of Q that are no other process, or repeat one,
// are dropped when the token arrives; the token goes to the first real one.
func TestStrangersInQ(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Crash(0, 1)
	w.Inject(1, 1, 2, Token{LN: map[sim.NodeID]int{}, Q: []sim.NodeID{99, 2, -1, 3, 3}})
	w.Run(0)
	tok := w.SentBy("TOKEN", 2)
	if got := algotest.Pairs(w.Sends("TOKEN")[1:]); got != "2->3" || len(tok[0].(Token).Q) != 0 {
		t.Fatalf("TOKEN %v, want the hand-made one to 2, then 2->3 with Q empty", w.Sends("TOKEN"))
	}
}

// TestRequestNamingNobody: the idle holder keeps the token for a REQUEST
// naming no process, and ignores one naming itself, which would otherwise
// raise its own RN[i].
func TestRequestNamingNobody(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Inject(1, 2, 1, Request{ID: 99, SN: 1})
	w.Inject(1, 2, 1, Request{ID: 1, SN: 7})
	w.Request(5, 1, 1)
	w.Run(0)
	if n := w.Count("TOKEN"); n != 0 || w.Get(1, "has_token") != true {
		t.Errorf("%d TOKEN sent, has_token at 1: %v; want the token kept at 1", n, w.Get(1, "has_token"))
	}
	if !w.Logged(1, "REQUEST(99, 1) names no process") || !w.Logged(1, "REQUEST(1, 7) ignored") {
		t.Errorf("1 logged %q", w.Logs(1))
	}
	w.CheckEntries(1)
	w.Request(w.Now()+1, 2, 1) // RN[1] is untouched: 1's release sets LN[1] = 0
	w.Run(0)
	if m := w.Sends("TOKEN")[0].Msg.(Token); m.LN[1] != 0 {
		t.Errorf("LN[1] = %d, want 0: the hand-made REQUEST(1, 7) changed RN[1]", m.LN[1])
	}
}
