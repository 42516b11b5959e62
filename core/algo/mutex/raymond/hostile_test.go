package raymond

import (
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

// TestMessageFromItself: a process sends itself nothing, so a REQUEST or
// INITIALIZE from itself is hand-made and ignored. The REQUEST used to put
// the process in its own REQUEST_Q, and ASSIGN_PRIVILEGE then entered the
// critical section for a request it never made (a panic).
func TestMessageFromItself(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "mutex.raymond", IDs: algotest.IDs(3)})
	w.Inject(5, 2, 2, Request{})
	w.Inject(5, 3, 3, Initialize{})
	w.Run(0)
	if n := w.Count("REQUEST") + w.Count("PRIVILEGE"); n != 1 { // the hand-made REQUEST alone
		t.Errorf("%d REQUEST and PRIVILEGE sent, want only the hand-made one", n)
	}
	if w.Get(3, KeyHolder) != w.Get(2, KeyHolder) || w.Get(2, "cs") != "released" {
		t.Errorf("HOLDER at 2: %v, at 3: %v (want 1 for both), cs at 2: %v", w.Get(2, KeyHolder), w.Get(3, KeyHolder), w.Get(2, "cs"))
	}
	for _, id := range []sim.NodeID{2, 3} {
		w.CheckLogged(id, "from itself ignored")
	}
}
