package central

import (
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

// TestMessageFromItself: the coordinator's own requests cost no message, so
// a REQUEST, HELD or RELEASE from itself is hand-made and ignored. The
// REQUEST used to be granted, entering a process that did not want the
// critical section (a panic).
func TestMessageFromItself(t *testing.T) {
	w := world(t, 3, nil, 5)
	w.Inject(1, 3, 3, Request{Seq: 1})
	w.Inject(2, 3, 3, Held{Seq: 1, Grant: 1})
	w.Request(5, 1, 2)
	w.Run(0)
	w.CheckEntries(1)
	if !w.Logged(3, "REQUEST from itself ignored") || !w.Logged(3, "HELD from itself ignored") {
		t.Errorf("3 logged %q", w.Logs(3))
	}
}

// TestNegativeIDs: the election layer cannot be told a negative coordinator
// (its leader key takes -1 for none), so with every id negative the
// processes elect the highest at boot, and requests wait for it.
func TestNegativeIDs(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "mutex.central", IDs: []sim.NodeID{-5, -3, -9}, Detect: 3})
	w.Request(1, -5, 2)
	w.Request(1, -9, 2)
	w.Run(0)
	if err := algotest.Agreed(w.Sim, -3); err != nil {
		t.Error(err)
	}
	if got := w.Entries(); len(got) != 2 || len(w.Pending()) > 0 {
		t.Errorf("entries %v, still waiting %v; want both requests served", got, w.Pending())
	}
	if err := w.Exclusive(); err != nil {
		t.Error(err)
	}
}
