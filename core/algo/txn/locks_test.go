package txn_test

import (
	"slices"
	"strings"
	"testing"

	"dsim/core/algo/txn"
)

func TestItemNames(t *testing.T) {
	for name, code := range map[string]int{"A": 0, "Q": 16, "Z": 25, "A1": 26, "B1": 27, "X3": 101} {
		got, err := txn.ParseItem(name)
		if err != nil || got != code || txn.ItemName(code) != name {
			t.Errorf("%s: code %d (%v), name of %d %q; want %d", name, got, err, code, txn.ItemName(code), code)
		}
	}
	for _, bad := range []string{"", "a", "1", "A-1", "A+1", "AB", "Ä"} {
		if _, err := txn.ParseItem(bad); err == nil {
			t.Errorf("ParseItem(%q) accepted", bad)
		}
	}
}

func TestParseOps(t *testing.T) {
	long, err := txn.ParseOps("read(A) write(B)")
	short, err2 := txn.ParseOps("r(A) w(B) abort")
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
	want := []txn.Op{{Item: 0}, {Write: true, Item: 1}}
	if !slices.Equal(long, want) || !slices.Equal(short, append(want, txn.Op{Abort: true})) {
		t.Errorf("got %v and %v, want %v (+ abort)", long, short, want)
	}
	for bad, token := range map[string]string{"read(A) x(B)": `"x(B)"`, "r(A": `"r(A"`, "w(a)": `"w(a)"`, "  ": `no operations`} {
		if _, err := txn.ParseOps(bad); err == nil || !strings.Contains(err.Error(), token) {
			t.Errorf("ParseOps(%q): %v, want an error naming %s", bad, err, token)
		}
	}
}

func TestStamps(t *testing.T) {
	a, b, c := txn.Stamp{C: 1, Site: 7}, txn.Stamp{C: 2, Site: 1}, txn.Stamp{C: 2, Site: 3}
	if !a.Less(b) || !b.Less(c) || c.Less(b) || !(a.Int() < b.Int() && b.Int() < c.Int()) {
		t.Errorf("the order of %v < %v < %v is not lexicographic: %d %d %d", a, b, c, a.Int(), b.Int(), c.Int())
	}
	if b.Int() != 2*(1<<31)+1 || txn.StampOf(c.Int()) != c {
		t.Errorf("<2,1> is %d, want 2^32+1; <2,3> decodes as %v", b.Int(), txn.StampOf(c.Int()))
	}
}

func lock(t, mode int) txn.Lock { return txn.Lock{T: t, TS: t, Mode: txn.Mode(mode)} }

// The compatibility matrix and the FIFO queue: S with S, X alone, and a
// shared request behind a waiting exclusive one waits (no writer starves).
func TestLockQueue(t *testing.T) {
	var lt txn.LockTable
	const A, B = 0, 1
	if !lt.Request(A, lock(1, 1)).Granted || !lt.Request(A, lock(4, 1)).Granted {
		t.Fatal("two shared locks are compatible")
	}
	if lt.Request(A, lock(2, 2)).Granted || lt.Request(A, lock(3, 1)).Granted {
		t.Fatal("X waits for the S holders, and S for the X waiting ahead")
	}
	if !lt.Request(B, lock(3, 2)).Granted {
		t.Fatal("a free item is granted")
	}
	if got, want := lt.State(), []int{A, 1, 1, A, 4, 1, A, 2, -2, A, 3, -1, B, 3, 2}; !slices.Equal(got, want) {
		t.Errorf("locks %v, want %v", got, want)
	}
	if got, want := lt.WaitsFor(), []txn.Edge{{2, 1}, {2, 4}, {3, 2}}; !slices.Equal(got, want) {
		t.Errorf("wait-for edges %v, want %v", got, want)
	}
	if g := lt.Release(1); len(g) != 0 {
		t.Errorf("T4 still holds S: granted %v", g)
	}
	if g := lt.Release(4); !slices.Equal(g, []txn.Granted{{A, lock(2, 2)}}) {
		t.Errorf("releasing the last S grants %v, want T2's X only", g)
	}
	if g := lt.Release(2); !slices.Equal(g, []txn.Granted{{A, lock(3, 1)}}) {
		t.Errorf("releasing the X grants %v, want T3's S", g)
	}
	if got, want := lt.State(), []int{A, 3, 1, B, 3, 2}; !slices.Equal(got, want) {
		t.Errorf("locks %v, want %v", got, want)
	}
	lt.Release(3)
	if got := lt.State(); len(got) != 0 {
		t.Errorf("every lock released, the table shows %v", got)
	}
}

// Releasing grants every compatible waiter at the head of the queue at
// once, and stops at the first that conflicts.
func TestReleaseGrantsInOrder(t *testing.T) {
	var lt txn.LockTable
	lt.Request(0, lock(1, 2))
	for _, l := range []txn.Lock{lock(2, 1), lock(3, 1), lock(4, 2), lock(5, 1)} {
		lt.Request(0, l)
	}
	if g := lt.Unlock(1, 0); !slices.Equal(g, []txn.Granted{{0, lock(2, 1)}, {0, lock(3, 1)}}) {
		t.Errorf("granted %v, want T2 and T3 (S), not T4 (X) nor T5 behind it", g)
	}
	if got, want := lt.Waiters(0), []txn.Lock{lock(4, 2), lock(5, 1)}; !slices.Equal(got, want) {
		t.Errorf("waiters %v, want %v", got, want)
	}
	if g := lt.Cancel(4); !slices.Equal(g, []txn.Granted{{0, lock(5, 1)}}) {
		t.Errorf("cancelling T4's wait grants %v, want T5's S", g)
	}
	if got := lt.Holders(0); len(got) != 3 {
		t.Errorf("holders %v, want T2, T3, T5", got)
	}
}

// A transaction holding S asks for X: granted when it is the only holder,
// else it waits for the others (and an upgrade does not wait for itself).
func TestUpgrade(t *testing.T) {
	var lt txn.LockTable
	lt.Request(0, lock(1, 1))
	if !lt.Request(0, lock(1, 1)).Granted || !lt.Request(0, lock(1, 2)).Granted {
		t.Fatal("a lone holder is granted its S again and the upgrade to X")
	}
	lt.Request(1, lock(1, 1))
	lt.Request(1, lock(2, 1))
	if lt.Request(1, lock(1, 2)).Granted {
		t.Fatal("the upgrade waits for the other S holder")
	}
	if got, want := lt.WaitsFor(), []txn.Edge{{1, 2}}; !slices.Equal(got, want) {
		t.Errorf("wait-for %v, want %v", got, want)
	}
	if g := lt.Unlock(2, 1); !slices.Equal(g, []txn.Granted{{1, lock(1, 2)}}) {
		t.Errorf("granted %v, want T1's upgrade", g)
	}
	if got, want := lt.State(), []int{0, 1, 2, 1, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("locks %v, want %v", got, want)
	}
}

// The conflict policy sees every transaction the request would wait for:
// wait-die's older-waits rule and wound-wait's wound, as the deadlock
// family will write them.
func TestPolicy(t *testing.T) {
	waitDie := func(req, other txn.Lock) txn.Decision {
		if req.TS < other.TS {
			return txn.Wait
		}
		return txn.Die
	}
	lt := txn.LockTable{Policy: waitDie}
	lt.Request(0, lock(5, 2))
	if out := lt.Request(0, lock(7, 1)); !out.Die || out.Granted {
		t.Errorf("the younger T7 asking for T5's item: %+v, want to die", out)
	}
	if out := lt.Request(0, lock(3, 1)); out.Die || out.Granted {
		t.Errorf("the older T3: %+v, want to wait", out)
	}
	if got, want := lt.State(), []int{0, 5, 2, 0, 3, -1}; !slices.Equal(got, want) {
		t.Errorf("locks %v, want %v (the dead request not queued)", got, want)
	}
	woundWait := func(req, other txn.Lock) txn.Decision {
		if req.TS < other.TS {
			return txn.Wound
		}
		return txn.Wait
	}
	lt.Policy = woundWait
	if out := lt.Request(0, lock(1, 2)); !slices.Equal(out.Wound, []int{5, 3}) {
		t.Errorf("T1 wounds %v, want the holder T5 and the waiter T3 ahead of it", out.Wound)
	}
}
