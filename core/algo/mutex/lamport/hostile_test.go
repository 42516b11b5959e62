package lamport

import (
	"testing"

	"dsim/core/algo/internal/algotest"
)

// TestDuplicateRequestQueuedOnce: a REQUEST delivered twice is queued once.
// Queued twice, one copy outlived the RELEASE at the head of 1's queue and
// 1 waited for ever.
func TestDuplicateRequestQueuedOnce(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "mutex.lamport", IDs: algotest.IDs(3)})
	w.Duplicating(2, 1)
	w.Request(0, 2, 1)
	w.Request(10, 1, 1)
	w.Run(0)
	w.CheckEntries(2, 1)
	w.CheckLogged(1, "is in the queue already")
}

// TestRequestFromItself: a process queues its own request itself; a
// REQUEST from itself (hand-made) is ignored rather than queued ahead of
// its real one.
func TestRequestFromItself(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "mutex.lamport", IDs: algotest.IDs(3)})
	w.Inject(0, 1, 1, Request{TS: 0})
	w.Request(5, 1, 1)
	w.Request(10, 2, 1)
	w.Run(0)
	w.CheckEntries(1, 2)
}
