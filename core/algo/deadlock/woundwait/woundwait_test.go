package woundwait_test

import (
	"slices"
	"testing"

	_ "dsim/core/algo/all"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/deadlock/woundwait"
	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

func ts(c int, site proc.NodeID) int { return txn.Stamp{C: c, Site: site}.Int() }

// The text's rule: an older requester wounds the younger holder, a
// younger one waits.
func TestWoundWait(t *testing.T) {
	older, younger := txn.Lock{T: 1, TS: ts(1, 1)}, txn.Lock{T: 2, TS: ts(1, 2)}
	if woundwait.WoundWait(older, younger) != txn.Wound || woundwait.WoundWait(younger, older) != txn.Wait {
		t.Error("wound-wait: want the older to wound and the younger to wait")
	}
	// At the lock site of A: T2 (younger, from site 2) holds it; T1 (older,
	// from site 1) asks: T2 is wounded (its home is told to roll it back,
	// and the site shows it wounded), T1 waits for that rollback.
	n, f := algotest.Booted(t, "deadlock.woundwait", map[string]any{"items": "A@3"}, 3, 1, 2, 3)
	n.Receive(f, 2, txn.Request{T: 2, Try: 1, Item: 0, Mode: 2, TS: ts(1, 2)})
	f.Take()
	n.Receive(f, 1, txn.Request{T: 1, Try: 1, Item: 0, Mode: 2, TS: ts(1, 1)})
	if got, want := f.Take(), []algotest.Sent{{To: 2, Msg: txn.Abort{T: 2, Try: 1}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if got := f.State[deadlock.KeyWounded]; !slices.Equal(got.([]int), []int{2}) {
		t.Errorf("wounded %v, want [2]", got)
	}
	// T2's unlock comes: T1 is granted A (the access made here); T2 is
	// no longer shown wounded. Restarted (keeping its timestamp), T2 asks
	// again: younger, it waits.
	n.Receive(f, 2, txn.Unlock{T: 2, Item: 0})
	if got, want := f.Take(), []algotest.Sent{{To: 1, Msg: txn.Grant{T: 1, Try: 1, Item: 0, Done: true}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	n.Receive(f, 2, txn.Request{T: 2, Try: 2, Item: 0, Mode: 2, TS: ts(1, 2)})
	if got := f.State[txn.KeyLocks]; !slices.Equal(got.([]int), []int{0, 1, 2, 0, 2, -2}) || len(f.Take()) != 0 || len(f.State[deadlock.KeyWounded].([]int)) != 0 {
		t.Errorf("locks %v, want T1 holding A and T2 waiting, nobody wounded", got)
	}
}
