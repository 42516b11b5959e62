package txn_test

import (
	"slices"
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

// site is process self of three (ids 1, 2, 3: items A, B, C) running the
// nonreplicated scheme, started on a Fake.
func site(t *testing.T, self proc.NodeID, config map[string]any) (*txn.Site, *algotest.Fake) {
	t.Helper()
	spec := algo.Spec{Name: "test.txn", Config: txn.Params()}
	v, err := spec.Resolve(config)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := txn.NewConfig(v)
	if err != nil {
		t.Fatal(err)
	}
	s := &txn.Site{Config: cfg, Scheme: txn.Nonreplicated}
	f := algotest.NewFake(self, 1, 2, 3)
	s.Start(f)
	return s, f
}

func ts(c int, site proc.NodeID) int { return txn.Stamp{C: c, Site: site}.Int() }

func trail(f *algotest.Fake, key string) [][]int {
	var out [][]int
	for _, v := range f.Trail[key] {
		out = append(out, v.([]int))
	}
	return out
}

func equal(a, b [][]int) bool { return slices.EqualFunc(a, b, slices.Equal) }

// The home site drives T1 = read(A) write(B) one operation at a time: A
// is its own item (its lock manager grants it with no message, and the
// access happens here), B is site 2's (REQUEST there, the grant back, and
// the access made there); at commit its locks are released, one UNLOCK
// per remote lock.
func TestHomeSite(t *testing.T) {
	s, f := site(t, 1, nil)
	if err := s.Command(f, "begin", proc.Args{"ops": "read(A) write(B)"}); err != nil {
		t.Fatal(err)
	}
	T1 := ts(1, 1)
	if got, want := trail(f, txn.KeyOp), [][]int{{1, 1, 0, 0, 1}}; !equal(got, want) {
		t.Errorf("op %v, want %v: the read of A here", got, want)
	}
	if got, want := f.Take(), []algotest.Sent{{To: 2, Msg: txn.Request{T: 1, Try: 1, Item: 1, Mode: 2, TS: T1}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if got, want := f.State[txn.KeyLocks], []int{0, 1, 1}; !slices.Equal(got.([]int), want) {
		t.Errorf("locks %v, want %v: T1 holds A in S", got, want)
	}
	s.Receive(f, 2, txn.Grant{T: 1, Try: 1, Item: 1, Done: true})
	if got, want := trail(f, txn.KeyTxn), [][]int{{1, 0, T1}, {1, 3, T1}, {1, 0, T1}, {1, 1, T1}}; !equal(got, want) {
		t.Errorf("txn %v, want %v: begun, waiting for B's grant, running, committed", got, want)
	}
	if got, want := f.Take(), []algotest.Sent{{To: 2, Msg: txn.Unlock{T: 1, Item: 1}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if got := f.State[txn.KeyLocks].([]int); len(got) != 0 {
		t.Errorf("after the commit the local table shows %v", got)
	}
	// A late or repeated grant is ignored.
	s.Receive(f, 2, txn.Grant{T: 1, Try: 1, Item: 1, Done: true})
	if len(f.Take()) != 0 || len(f.Trail[txn.KeyTxn]) != 4 {
		t.Error("a grant to a committed transaction changed something")
	}
	// Default ids: this site's second transaction is T4 (k*n + index + 1).
	s.Command(f, "begin", proc.Args{"ops": "w(C)"})
	if got := f.State[txn.KeyTxn].([]int); got[0] != 4 || got[2] != ts(2, 1) {
		t.Errorf("the second transaction is %v, want T4 with stamp <2,1>", got)
	}
}

// The lock manager at site 2 grants B to T1 and performs its write, queues
// T3's read behind it, tells the observer, and grants it at T1's unlock.
func TestLockSite(t *testing.T) {
	s, f := site(t, 2, nil)
	var waits []txn.Lock
	s.OnWait = func(_ proc.Context, item int, l txn.Lock) { waits = append(waits, l) }
	s.Receive(f, 1, txn.Request{T: 1, Try: 1, Item: 1, Mode: 2, TS: ts(1, 1)})
	s.Receive(f, 3, txn.Request{T: 3, Try: 1, Item: 1, Mode: 1, TS: ts(1, 3)})
	if got, want := f.Take(), []algotest.Sent{{To: 1, Msg: txn.Grant{T: 1, Try: 1, Item: 1, Done: true}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if got, want := trail(f, txn.KeyLocks), [][]int{{1, 1, 2}, {1, 1, 2, 1, 3, -1}}; !equal(got, want) {
		t.Errorf("locks %v, want %v", got, want)
	}
	if !slices.Equal(waits, []txn.Lock{{T: 3, TS: ts(1, 3), Mode: txn.S}}) {
		t.Errorf("OnWait saw %v, want T3's S", waits)
	}
	s.Receive(f, 1, txn.Unlock{T: 1, Item: 1})
	if got, want := f.Take(), []algotest.Sent{{To: 3, Msg: txn.Grant{T: 3, Try: 1, Item: 1, Done: true}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if got, want := trail(f, txn.KeyOp), [][]int{{1, 1, 1, 1, 1}, {2, 3, 1, 0, 1}}; !equal(got, want) {
		t.Errorf("op %v, want %v: T1's write of B, then T3's read", got, want)
	}
	if got, want := f.State[txn.KeyLocks].([]int), []int{1, 3, 1}; !slices.Equal(got, want) {
		t.Errorf("locks %v, want %v", got, want)
	}
	// Aborting T3 here tells its home site, naming its run.
	s.Abort(f, 3)
	if got, want := f.Take(), []algotest.Sent{{To: 3, Msg: txn.Abort{T: 3, Try: 1}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	// The chapter's logical clock: a request with a later stamp advances
	// the counter, so this site's next stamp is past it.
	s.Receive(f, 3, txn.Request{T: 6, Try: 1, Item: 1, Mode: 1, TS: ts(9, 3)})
	s.Command(f, "begin", proc.Args{"ops": "r(B)", "t": 50})
	if got := f.State[txn.KeyTxn].([]int); got[2] != ts(10, 2) {
		t.Errorf("T50's stamp %v, want <10,2>", txn.StampOf(got[2]))
	}
}

// An abort at the home site releases the transaction's locks and
// withdraws its requests everywhere, marks it aborted and restarts it
// after a delay with the same timestamp; answers to the aborted run are
// ignored.
func TestAbortRestarts(t *testing.T) {
	s, f := site(t, 1, map[string]any{"restart": 1})
	s.Command(f, "begin", proc.Args{"ops": "w(A) r(B) w(C)", "t": 7})
	f.Take()
	s.Receive(f, 2, txn.Abort{T: 7, Try: 1})
	T7 := ts(1, 1)
	if got, want := f.Take(), []algotest.Sent{{To: 2, Msg: txn.Unlock{T: 7, Item: 1}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v: B's request withdrawn", got, want)
	}
	if got := f.State[txn.KeyLocks].([]int); len(got) != 0 {
		t.Errorf("A still locked: %v", got)
	}
	if got, want := f.State[txn.KeyTxn].([]int), []int{7, 2, T7}; !slices.Equal(got, want) {
		t.Errorf("txn %v, want %v", got, want)
	}
	if f.Timers["restart-7"] != 1 {
		t.Errorf("timers %v, want restart-7 in 1 tick", f.Timers)
	}
	s.Receive(f, 2, txn.Grant{T: 7, Try: 1, Item: 1, Done: true})
	if len(f.Take()) != 0 {
		t.Error("a grant to the aborted run was acted on")
	}
	s.Timer(f, "restart-7")
	if got, want := f.Take(), []algotest.Sent{{To: 2, Msg: txn.Request{T: 7, Try: 2, Item: 1, Mode: 1, TS: T7}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v: the restart keeps the stamp", got, want)
	}
	if got, want := trail(f, txn.KeyTxn)[3], []int{7, 0, T7}; !slices.Equal(got, want) {
		t.Errorf("txn after the restart %v, want %v", got, want)
	}
	// An abort operation aborts for good: no restart.
	s.Command(f, "begin", proc.Args{"ops": "r(B) abort", "t": 8})
	f.Take()
	s.Receive(f, 2, txn.Grant{T: 8, Try: 1, Item: 1, Done: true})
	if got := f.State[txn.KeyTxn].([]int); got[0] != 8 || got[1] != txn.Aborted {
		t.Errorf("txn %v, want T8 aborted", got)
	}
	if got, want := f.Take(), []algotest.Sent{{To: 2, Msg: txn.Unlock{T: 8, Item: 1}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if _, ok := f.Timers["restart-8"]; ok {
		t.Error("a self-aborted transaction restarts")
	}
}

func TestBadInput(t *testing.T) {
	s, f := site(t, 1, map[string]any{"items": "A@1 B@9"})
	if err := s.Command(f, "begin", proc.Args{"ops": "r(A)"}); err == nil || !strings.Contains(err.Error(), `"items"`) {
		t.Errorf("a placement on a non-process: %v, want an error naming items", err)
	}
	s, f = site(t, 1, map[string]any{"items": "A@1 B@2"})
	for _, c := range []struct {
		name string
		args proc.Args
		want string
	}{
		{"begin", proc.Args{}, "ops="},
		{"begin", proc.Args{"ops": "r(C)"}, "item C is at no site"},
		{"begin", proc.Args{"ops": "r(A)", "x": 1}, "only ops= and t="},
		{"begin", proc.Args{"ops": "r(A)", "t": 0}, "t=0"},
		{"abort", proc.Args{"t": 5}, "T5"},
		{"commit", nil, "unknown command"},
	} {
		if err := s.Command(f, c.name, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want an error with %q", c.name, c.args, err, c.want)
		}
	}
	for _, bad := range []string{"A@x", "A", "a@1", "A@1 A@2"} {
		if _, err := txn.ParseSpots(bad); err == nil || !strings.Contains(err.Error(), `"items"`) {
			t.Errorf("items %q: %v", bad, err)
		}
	}
}

// Replicas: copies at the item's site and the next ones in ring order.
func TestPlacement(t *testing.T) {
	p, err := txn.NewPlacement([]proc.NodeID{4, 5, 6, 7}, []txn.Spot{{Item: 16, Site: 6}, {Item: 0, Site: 4}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Sites(16); !slices.Equal(got, []proc.NodeID{6, 7, 4}) || p.Primary(16) != 6 {
		t.Errorf("Q's copies %v", got)
	}
	if got := p.Items(7); !slices.Equal(got, []int{16}) {
		t.Errorf("site 7 holds %v, want Q", got)
	}
	if got := p.From(5, 0); !slices.Equal(got, []proc.NodeID{5, 6, 4}) {
		t.Errorf("A's copies seen from 5: %v, want its own, then 6, then 4", got)
	}
}

// The sites of one world share its placement; a site that sees another
// ring (another world) makes its own.
func TestSharedPlacement(t *testing.T) {
	spec := algo.Spec{Name: "test.txn", Config: txn.Params()}
	v, _ := spec.Resolve(nil)
	cfg, _ := txn.NewConfig(v)
	a, b, c := &txn.Site{Config: cfg}, &txn.Site{Config: cfg}, &txn.Site{Config: cfg}
	a.Start(algotest.NewFake(1, 1, 2, 3))
	b.Start(algotest.NewFake(3, 1, 2, 3))
	c.Start(algotest.NewFake(2, 2, 1, 3))
	if a.Place != b.Place || a.Place == c.Place {
		t.Errorf("placements %p %p %p: want the first two shared, the third (another ring) its own", a.Place, b.Place, c.Place)
	}
	if got := c.Place.Sites(0); !slices.Equal(got, []proc.NodeID{2}) {
		t.Errorf("A at %v, want the site of ring index 0 in its own world, 2", got)
	}
}

// The conflict-policy hook at a lock site, as wait-die and wound-wait will
// use it: a dying requester's home is told (ABORT), nothing queued; a
// wounded holder's home is told, and the requester waits for its lock.
func TestConflictHook(t *testing.T) {
	s, f := site(t, 2, nil)
	older := func(a, b txn.Lock) bool { return txn.StampOf(a.TS).Less(txn.StampOf(b.TS)) }
	s.OnConflict = func(req, other txn.Lock) txn.Decision { // wait-die
		if older(req, other) {
			return txn.Wait
		}
		return txn.Die
	}
	s.Receive(f, 1, txn.Request{T: 1, Try: 1, Item: 1, Mode: 2, TS: ts(1, 1)})
	s.Receive(f, 3, txn.Request{T: 3, Try: 2, Item: 1, Mode: 1, TS: ts(2, 3)})
	if got, want := f.Take()[1:], []algotest.Sent{{To: 3, Msg: txn.Abort{T: 3, Try: 2}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v: the younger T3 dies", got, want)
	}
	if got, want := f.State[txn.KeyLocks].([]int), []int{1, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("locks %v, want %v", got, want)
	}
	s.OnConflict = func(req, other txn.Lock) txn.Decision { // wound-wait
		if older(req, other) {
			return txn.Wound
		}
		return txn.Wait
	}
	s.Receive(f, 3, txn.Request{T: 6, Try: 1, Item: 1, Mode: 1, TS: ts(0, 3)})
	if got, want := f.Take(), []algotest.Sent{{To: 1, Msg: txn.Abort{T: 1, Try: 1}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v: the older T6 wounds T1", got, want)
	}
	s.Receive(f, 1, txn.Unlock{T: 1, Item: 1})
	if got, want := f.Take(), []algotest.Sent{{To: 3, Msg: txn.Grant{T: 6, Try: 1, Item: 1, Done: true}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v: T1's rollback lets T6 in", got, want)
	}
}
