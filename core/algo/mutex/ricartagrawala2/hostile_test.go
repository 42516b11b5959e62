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
	w := algotest.New(t, algotest.Setup{Algo: "mutex.ricartagrawala2", IDs: algotest.IDs(3)})
	w.Request(0, 1, 6)
	w.Request(1, 2, 1)
	w.Inject(3, 3, 1, Token{Token: map[sim.NodeID]int{1: 0, 2: 0, 3: 0}})
	w.Run(0)
	w.CheckEntries(1, 2)
	if !w.Logged(1, "a second token, dropped") {
		t.Errorf("1 logged %q, want the second token dropped", w.Logs(1))
	}
}

// TestTokenWithoutMap: a TOKEN without its map (a Go zero value) counts
// every token[k] as 0, and its holder can pass it on.
func TestTokenWithoutMap(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "mutex.ricartagrawala2", IDs: algotest.IDs(3)})
	w.Crash(0, 1) // the first holder, and its token, are gone
	w.Inject(1, 1, 2, Token{})
	w.Request(3, 2, 2)
	w.Request(10, 3, 2)
	w.Run(0)
	w.CheckEntries(2, 3)
}
