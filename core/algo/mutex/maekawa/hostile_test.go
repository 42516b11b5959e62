package maekawa

import (
	"testing"

	"dsim/core/algo/internal/algotest"
)

// TestDuplicateRequestIgnored: an arbiter holding a REQUEST, as its vote or
// queued, ignores a copy of it. Queued, the copy took the vote again after
// the release, for a request nobody waited for, and every quorum through
// that arbiter waited for ever.
func TestDuplicateRequestIgnored(t *testing.T) {
	for _, variant := range []string{Basic, Inquiry} {
		// Four processes in a 2x2 grid: 1's quorum is 1, 2, 3 and 4's is
		// 2, 3, 4; 2 votes in both.
		w := algotest.New(t, algotest.Setup{Algo: "mutex.maekawa", IDs: algotest.IDs(4), Config: map[string]any{"variant": variant}})
		w.Duplicating(1, 2)
		w.Request(0, 1, 2)
		w.Request(20, 4, 2)
		w.Run(0)
		w.CheckEntries(1, 4)
		w.CheckLogged(2, "the copy is ignored")
	}
}

// TestMessageFromItself: a process's messages to itself are local, so a
// REQUEST from itself through the network is hand-made and ignored. Queued
// at the arbiter, it took the vote once 2 released it, for a request 1
// never made, and 2, whose quorum is 1, 2 and 4, waited for ever.
func TestMessageFromItself(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "mutex.maekawa", IDs: algotest.IDs(4)})
	w.Request(0, 2, 5)
	w.Inject(2, 1, 1, Request{TS: 1})
	w.Request(20, 2, 1)
	w.Run(0)
	w.CheckEntries(2, 2)
	w.CheckLogged(1, "REQUEST from itself ignored")
}
