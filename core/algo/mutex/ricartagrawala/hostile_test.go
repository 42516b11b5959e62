package ricartagrawala

import (
	"testing"

	"dsim/core/algo/internal/algotest"
)

// TestDuplicateReplyCountsOnce: a REPLY is one process's permission,
// however many copies arrive. Counted twice, 3's duplicated REPLY let 2
// enter with 1 still in the critical section.
func TestDuplicateReplyCountsOnce(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "mutex.ricartagrawala", IDs: algotest.IDs(3)})
	w.Duplicating(3, 2)
	w.Request(0, 1, 10)
	w.Request(3, 2, 1)
	w.Run(0)
	w.CheckEntries(1, 2)
	w.CheckLogged(2, "it has replied already")
}

// TestReplyFromItself: a process asks only the others, so a REPLY from
// itself (hand-made) is no permission.
func TestReplyFromItself(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "mutex.ricartagrawala", IDs: algotest.IDs(3)})
	w.Request(0, 1, 10)
	w.Request(3, 2, 1)
	w.Inject(5, 2, 2, Reply{TS: 3}) // 2's request: its clock saw 1's REQUEST(1), then ticked
	w.Run(0)
	w.CheckEntries(1, 2)
	if w.Get(2, "req_ts") != 3 || !w.Logged(2, "REPLY from itself ignored") {
		t.Errorf("req_ts at 2: %v (want 3), logged %q", w.Get(2, "req_ts"), w.Logs(2))
	}
}
