package cmh_test

import (
	"fmt"
	"slices"
	"testing"

	_ "dsim/core/algo/all"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/deadlock/cmh"
	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

func ts(c int, site proc.NodeID) int { return txn.Stamp{C: c, Site: site}.Int() }

// A lock site sends the probe of a blocked transaction to the home of
// each transaction it waits for.
func TestInitiate(t *testing.T) {
	n, f := algotest.Booted(t, "deadlock.cmh", nil, 2, 1, 2, 3) // site 2 holds B
	n.Receive(f, 1, txn.Request{T: 1, Try: 1, Item: 1, Mode: 2, TS: ts(1, 1)})
	f.Take()
	n.Receive(f, 3, txn.Request{T: 3, Try: 2, Item: 1, Mode: 2, TS: ts(1, 3)})
	want := []algotest.Sent{{To: 1, Msg: cmh.Probe{Init: 3, Try: 2, Item: 1, Path: []int{3}, To: 1, Run: 1}}}
	if got := f.Take(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("sent %v, want %v", got, want)
	}
}

// At the initiator's home, a probe back while the initiator is still
// blocked the same way declares the deadlock and rolls it back; one from
// an earlier blocking is dropped.
func TestBack(t *testing.T) {
	n, f := algotest.Booted(t, "deadlock.cmh", nil, 3, 1, 2, 3) // site 3 holds C
	if err := n.Command(f, "begin", proc.Args{"t": 3, "ops": "w(B)"}); err != nil {
		t.Fatal(err)
	}
	f.Take() // the REQUEST for B to site 2: T3 waits
	n.Receive(f, 1, cmh.Probe{Init: 3, Try: 2, Item: 1, Path: []int{3, 1}, To: 3, Run: 1})
	if f.State[deadlock.KeyDeadlock] != nil || len(f.Take()) != 0 {
		t.Error("a probe of another run of T3 declared")
	}
	n.Receive(f, 1, cmh.Probe{Init: 3, Try: 1, Item: 1, Path: []int{3, 1}, To: 3, Run: 1})
	if got := f.State[deadlock.KeyDeadlock]; got == nil || !slices.Equal(got.([]int), []int{1, 3}) {
		t.Errorf("deadlock %v, want [1 3]", got)
	}
	if got, want := f.Take(), []algotest.Sent{{To: 2, Msg: txn.Unlock{T: 3, Item: 1}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v: T3 rolled back", got, want)
	}
}
