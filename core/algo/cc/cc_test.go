package cc_test

import (
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

func ts(c int, site proc.NodeID) int { return txn.Stamp{C: c, Site: site}.Int() }

func begin(t *testing.T, p proc.Node, f *algotest.Fake, ops string, id int) {
	t.Helper()
	if err := p.Command(f, "begin", proc.Args{"ops": ops, "t": id}); err != nil {
		t.Fatal(err)
	}
}

// sent lists the sends as (to, kind) pairs.
func sent(f *algotest.Fake) []string {
	var out []string
	for _, s := range f.Take() {
		out = append(out, s.Msg.Kind()+"->"+string(rune('0'+s.To)))
	}
	return out
}

// The single lock manager: every request goes to the first site, which
// grants it; where that site holds no copy, the home then makes the access
// at the item's site (ACCESS, DONE), or here without a message when the
// item is its own.
func TestSingle(t *testing.T) {
	p, f := algotest.Booted(t, "cc.single", nil, 2, 1, 2, 3)
	begin(t, p, f, "w(B) r(C)", 5)
	if got, want := f.Take(), []algotest.Sent{{To: 1, Msg: txn.Request{T: 5, Try: 1, Item: 1, Mode: 2, TS: ts(1, 2)}}}; !slices.Equal(got, want) {
		t.Fatalf("sent %v, want %v: B's lock asked of the first site", got, want)
	}
	p.Receive(f, 1, txn.Grant{T: 5, Try: 1, Item: 1})
	if got, want := f.State[txn.KeyOp].([]int), []int{1, 5, 1, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("op %v, want %v: B written here, its site, with no message", got, want)
	}
	if got, want := sent(f), []string{"REQUEST->1"}; !slices.Equal(got, want) {
		t.Fatalf("sent %v, want %v: C's lock", got, want)
	}
	p.Receive(f, 1, txn.Grant{T: 5, Try: 1, Item: 2})
	if got, want := f.Take(), []algotest.Sent{{To: 3, Msg: txn.Access{T: 5, Try: 1, Item: 2}}}; !slices.Equal(got, want) {
		t.Fatalf("sent %v, want %v: C read at its site", got, want)
	}
	p.Receive(f, 3, txn.Done{T: 5, Try: 1, Item: 2})
	if got, want := sent(f), []string{"UNLOCK->1", "UNLOCK->1"}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v: one unlock per lock", got, want)
	}
	if got := f.State[txn.KeyTxn].([]int); got[1] != txn.Committed {
		t.Errorf("txn %v, want committed", got)
	}
	// The manager's side: it grants with Done only for its own item.
	m, g := algotest.Booted(t, "cc.single", nil, 1, 1, 2, 3)
	m.Receive(g, 2, txn.Request{T: 5, Try: 1, Item: 1, Mode: 2, TS: ts(1, 2)})
	m.Receive(g, 2, txn.Request{T: 5, Try: 1, Item: 0, Mode: 1, TS: ts(1, 2)})
	if got, want := g.Take(), []algotest.Sent{{To: 2, Msg: txn.Grant{T: 5, Try: 1, Item: 1}}, {To: 2, Msg: txn.Grant{T: 5, Try: 1, Item: 0, Done: true}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if got, want := g.State[txn.KeyLocks].([]int), []int{0, 5, 1, 1, 5, 2}; !slices.Equal(got, want) {
		t.Errorf("locks %v, want %v: every lock in the one table", got, want)
	}
}

// The majority protocol, 4 sites and 3 copies of A (at 1, 2, 3): site 4
// asks the 2 copies nearest it (1, then 2), and goes on only when both
// granted.
func TestMajority(t *testing.T) {
	p, f := algotest.Booted(t, "cc.majority", nil, 4, 1, 2, 3, 4)
	begin(t, p, f, "w(A) r(D)", 4)
	if got, want := sent(f), []string{"REQUEST->1", "REQUEST->2"}; !slices.Equal(got, want) {
		t.Fatalf("sent %v, want %v", got, want)
	}
	p.Receive(f, 1, txn.Grant{T: 4, Try: 1, Item: 0, Done: true})
	if len(f.Sent) != 0 || f.State[txn.KeyTxn].([]int)[1] != txn.Waiting {
		t.Fatalf("went on after one grant of two: %v", f.Sent)
	}
	p.Receive(f, 2, txn.Grant{T: 4, Try: 1, Item: 0, Done: true})
	// D's copies are at 4, 1, 2: its own and the next one make a majority.
	if got, want := sent(f), []string{"REQUEST->1"}; !slices.Equal(got, want) {
		t.Fatalf("sent %v, want %v: D's lock from its own copy and 1's", got, want)
	}
	if got, want := f.State[txn.KeyLocks].([]int), []int{3, 4, 1}; !slices.Equal(got, want) {
		t.Errorf("locks %v, want %v: D's local copy locked in S", got, want)
	}
	p.Receive(f, 1, txn.Grant{T: 4, Try: 1, Item: 3, Done: true})
	if got, want := sent(f), []string{"UNLOCK->1", "UNLOCK->2", "UNLOCK->1"}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v: n/2+1 unlocks per lock (the local one free)", got, want)
	}
}

// The biased protocol: a shared lock from the nearest copy, an exclusive
// one from all of them.
func TestBiased(t *testing.T) {
	p, f := algotest.Booted(t, "cc.biased", nil, 4, 1, 2, 3, 4)
	begin(t, p, f, "r(A)", 4)
	if got, want := sent(f), []string{"REQUEST->1"}; !slices.Equal(got, want) {
		t.Errorf("read: sent %v, want %v", got, want)
	}
	begin(t, p, f, "w(B)", 8)
	if got, want := sent(f), []string{"REQUEST->2", "REQUEST->3"}; !slices.Equal(got, want) {
		t.Errorf("write: sent %v, want %v (and the lock of its own copy, with no message)", got, want)
	}
	if got, want := f.State[txn.KeyLocks].([]int), []int{1, 8, 2}; !slices.Equal(got, want) {
		t.Errorf("locks %v, want %v", got, want)
	}
}

// Primary copy: the lock of a replicated item is its primary's alone.
func TestPrimary(t *testing.T) {
	p, f := algotest.Booted(t, "cc.primary", nil, 4, 1, 2, 3, 4)
	begin(t, p, f, "w(B) r(A)", 4)
	if got, want := sent(f), []string{"REQUEST->2"}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
}

// Timestamp ordering's rules at an item's site: accepted accesses move
// R-timestamp and W-timestamp; a late read, a write after a later read,
// and an obsolete write are rejected.
func TestTimestampRules(t *testing.T) {
	p, f := algotest.Booted(t, "cc.timestamp", nil, 1, 1, 2, 3)
	req := func(tx, c int, write bool) []algotest.Sent {
		mode := 1
		if write {
			mode = 2
		}
		p.Receive(f, 2, txn.Request{T: tx, Try: 1, Item: 0, Mode: mode, TS: ts(c, 2)})
		return f.Take()
	}
	grant := func(tx int) []algotest.Sent {
		return []algotest.Sent{{To: 2, Msg: txn.Grant{T: tx, Try: 1, Item: 0, Done: true}}}
	}
	abort := func(tx, c int) []algotest.Sent {
		return []algotest.Sent{{To: 2, Msg: txn.Abort{T: tx, Try: 1, TS: ts(c, 2)}}}
	}
	for _, c := range []struct {
		name     string
		tx, c    int
		write    bool
		want     []algotest.Sent
		rts, wts int
	}{
		{"T5 reads A", 5, 5, false, grant(5), 5, 0},
		{"T3 writes A after T5 read it", 3, 3, true, abort(3, 5), 5, 0},
		{"T7 writes A", 7, 7, true, grant(7), 5, 7},
		{"T6 reads A after T7 wrote it", 6, 6, false, abort(6, 7), 5, 7},
		{"T6 writes an obsolete A", 6, 6, true, abort(6, 7), 5, 7},
		{"T9 reads A", 9, 9, false, grant(9), 9, 7},
		{"T8 reads A: R-timestamp stays T9's", 8, 8, false, grant(8), 9, 7},
	} {
		stamp := func(c int) int {
			if c == 0 {
				return 0
			}
			return ts(c, 2)
		}
		got := req(c.tx, c.c, c.write)
		if want := []int{0, stamp(c.rts), stamp(c.wts)}; !slices.Equal(got, c.want) || !slices.Equal(f.State["item_ts"].([]int), want) {
			t.Errorf("%s: sent %v, want %v; item_ts %v, want %v", c.name, got, c.want, f.State["item_ts"], want)
		}
	}
	if got, want := f.State[txn.KeyOp].([]int), []int{4, 8, 0, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("op %v, want %v: four accesses made, the rejected ones not", got, want)
	}
}

// A rolled-back transaction restarts with a new timestamp, past the one
// that rejected it; no unlock is sent (there are no locks).
func TestTimestampRestart(t *testing.T) {
	p, f := algotest.Booted(t, "cc.timestamp", map[string]any{"restart": 1}, 2, 1, 2, 3)
	begin(t, p, f, "r(A) w(B)", 2)
	f.Take()
	p.Receive(f, 1, txn.Abort{T: 2, Try: 1, TS: ts(40, 3)})
	if len(f.Take()) != 0 {
		t.Error("a rollback under timestamp ordering sent something")
	}
	p.Timer(f, "restart-2")
	if got, want := f.Take(), []algotest.Sent{{To: 1, Msg: txn.Request{T: 2, Try: 2, Item: 0, Mode: 1, TS: ts(41, 2)}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v: the new timestamp <41,2>", got, want)
	}
	tr := f.Trail[txn.KeyTxn]
	if got, want := tr[len(tr)-2].([]int), []int{2, txn.Running, ts(41, 2)}; !slices.Equal(got, want) {
		t.Errorf("txn %v, want %v", got, want)
	}
	// With config clock, a timestamp is the local clock's reading.
	q, g := algotest.Booted(t, "cc.timestamp", map[string]any{"clock": true}, 2, 1, 2, 3)
	g.Time = 30
	begin(t, q, g, "r(A)", 2)
	if got := g.State[txn.KeyTxn].([]int); got[2] != ts(30, 2) {
		t.Errorf("stamp %v, want <30,2>", txn.StampOf(got[2]))
	}
}
