package waitdie_test

import (
	"slices"
	"testing"

	_ "dsim/core/algo/all"
	"dsim/core/algo/deadlock/waitdie"
	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

func ts(c int, site proc.NodeID) int { return txn.Stamp{C: c, Site: site}.Int() }

// The text's rule: an older requester waits, a younger one dies.
func TestWaitDie(t *testing.T) {
	older, younger := txn.Lock{T: 1, TS: ts(1, 1)}, txn.Lock{T: 2, TS: ts(1, 2)}
	if waitdie.WaitDie(older, younger) != txn.Wait || waitdie.WaitDie(younger, older) != txn.Die {
		t.Error("wait-die: want the older to wait and the younger to die")
	}
	// At the lock site of A: T1 (older, from site 1) holds it; T2 (from
	// site 2) asks and dies: its home is told, nothing is queued. T0,
	// older still, waits.
	n, f := algotest.Booted(t, "deadlock.waitdie", map[string]any{"items": "A@3"}, 3, 1, 2, 3)
	n.Receive(f, 1, txn.Request{T: 1, Try: 1, Item: 0, Mode: 2, TS: ts(1, 1)})
	f.Take()
	n.Receive(f, 2, txn.Request{T: 2, Try: 1, Item: 0, Mode: 2, TS: ts(1, 2)})
	if got, want := f.Take(), []algotest.Sent{{To: 2, Msg: txn.Abort{T: 2, Try: 1}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v: T2 dies", got, want)
	}
	n.Receive(f, 2, txn.Request{T: 5, Try: 1, Item: 0, Mode: 2, TS: ts(0, 2)})
	if got := f.State[txn.KeyLocks]; !slices.Equal(got.([]int), []int{0, 1, 2, 0, 5, -2}) || len(f.Take()) != 0 {
		t.Errorf("locks %v, want T1 holding A and T5 (older) waiting", got)
	}
}
