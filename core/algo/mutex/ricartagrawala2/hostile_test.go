package ricartagrawala2

import (
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

// TestSecondTokenDropped: a copy of the TOKEN reaching a process that holds
// the token, here in its critical section, is dropped. Taken, it was passed
// on from inside the critical section, two processes were in it, and the
// release wrote into a token it no longer had (a nil map).
func TestSecondTokenDropped(t *testing.T) {
	algotest.CheckSecondTokenDropped(t, "mutex.ricartagrawala2", Token{Token: map[sim.NodeID]int{1: 0, 2: 0, 3: 0}})
}

// TestTokenWithoutMap: a TOKEN without its map (a Go zero value) counts
// every token[k] as 0, and its holder can pass it on.
func TestTokenWithoutMap(t *testing.T) {
	algotest.CheckZeroToken(t, "mutex.ricartagrawala2", Token{})
}
