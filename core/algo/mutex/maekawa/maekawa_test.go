package maekawa

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/mutex"
	"dsim/core/sim"
)

func world(t *testing.T, n int, variant string) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "mutex.maekawa", IDs: algotest.IDs(n), Config: map[string]any{"variant": variant}})
}

// sends renders every send as "t KIND from->to".
func sends(w *algotest.World) []string {
	var out []string
	for _, m := range w.Sends("") {
		out = append(out, fmt.Sprintf("%d %s %d->%d", m.T, m.Msg.(sim.Message).Kind(), m.From, m.To))
	}
	return out
}

func checkSends(t *testing.T, w *algotest.World, want ...string) {
	t.Helper()
	if got := sends(w); !slices.Equal(got, want) {
		t.Errorf("sends:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// TestQuorumsIntersect checks the grid construction for every n up to 64:
// each process is in its own quorum, any two quorums share a process, and
// no quorum is larger than a full row plus a full column.
func TestQuorumsIntersect(t *testing.T) {
	for n := 1; n <= 64; n++ {
		c := Columns(n)
		if (c-1)*(c-1) >= n || c*c < n {
			t.Fatalf("n=%d: %d columns is not ceil(sqrt(n))", n, c)
		}
		qs := make([][]int, n)
		for i := range n {
			qs[i] = Quorum(n, i)
			if !slices.Contains(qs[i], i) || len(qs[i]) > 2*c-1 || !slices.IsSorted(qs[i]) || len(slices.Compact(slices.Clone(qs[i]))) != len(qs[i]) {
				t.Fatalf("n=%d: quorum of %d is %v", n, i, qs[i])
			}
		}
		for i := range n {
			for j := range i {
				if !slices.ContainsFunc(qs[i], func(k int) bool { return slices.Contains(qs[j], k) }) {
					t.Fatalf("n=%d: quorums of %d %v and %d %v are disjoint", n, i, qs[i], j, qs[j])
				}
			}
		}
	}
}

// TestQuorumShapes pins the grid on a square and a non-square n.
func TestQuorumShapes(t *testing.T) {
	for _, c := range []struct {
		n, i int
		want []int
	}{
		{9, 4, []int{1, 3, 4, 5, 7}}, // middle of a 3x3 grid: K = 2*3-1
		{9, 0, []int{0, 1, 2, 3, 6}},
		{7, 6, []int{0, 3, 6}},     // alone on the short last row: row {6}, column {0,3,6}
		{7, 2, []int{0, 1, 2, 5}},  // column 2 stops at row 1
		{2, 1, []int{0, 1}},        // 2x1 grid, one short row
		{1, 0, []int{0}},           // alone: enters without messages
		{5, 4, []int{1, 3, 4}},     // 3 columns: rows {0,1,2}, {3,4}
		{10, 9, []int{1, 5, 8, 9}}, // 4 columns: last row {8,9}
		{16, 5, []int{1, 4, 5, 6, 7, 9, 13}},
	} {
		if got := Quorum(c.n, c.i); !slices.Equal(got, c.want) {
			t.Errorf("Quorum(%d, %d) = %v, want %v", c.n, c.i, got, c.want)
		}
	}
}

// TestUncontendedCost is the exact cost of one request alone: K-1 REQUEST,
// K-1 LOCKED and K-1 RELEASE, K the size of the requester's quorum, and
// nothing else, in both variants.
func TestUncontendedCost(t *testing.T) {
	for _, variant := range []string{Inquiry, Basic} {
		for _, n := range []int{1, 2, 3, 4, 5, 7, 9, 10, 16, 17, 25, 30, 64} {
			for _, i := range []int{0, n / 2, n - 1} {
				w := world(t, n, variant)
				id := sim.NodeID(i + 1)
				w.CommandArgs(0, id, "request", sim.Args{"duration": 3})
				w.Run(0)
				k := len(Quorum(n, i)) - 1
				got := map[string]int{}
				for _, m := range w.Sends("") {
					got[m.Msg.(sim.Message).Kind()]++
				}
				want := map[string]int{}
				if k > 0 {
					want = map[string]int{"REQUEST": k, "LOCKED": k, "RELEASE": k}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) || !slices.Equal(w.Entries(), []sim.NodeID{id}) {
					t.Errorf("%s n=%d process %d: sent %v, entries %v; want %v (3(K-1) = %d), one entry", variant, n, id, got, w.Entries(), want, 3*k)
				}
			}
		}
	}
}

// TestRequestAndRelease: the quorum of 5 in a 3x3 grid is {2,4,5,6,8};
// each member votes LOCKED, 5 enters with all four and RELEASEs them.
func TestRequestAndRelease(t *testing.T) {
	w := world(t, 9, Inquiry)
	w.CommandArgs(0, 5, "request", sim.Args{"duration": 2})
	w.Run(0)
	checkSends(t, w,
		"0 REQUEST 5->2", "0 REQUEST 5->4", "0 REQUEST 5->6", "0 REQUEST 5->8",
		"1 LOCKED 2->5", "1 LOCKED 4->5", "1 LOCKED 6->5", "1 LOCKED 8->5",
		"4 RELEASE 5->2", "4 RELEASE 5->4", "4 RELEASE 5->6", "4 RELEASE 5->8")
	if got := w.Get(5, keyQuorum); !slices.Equal(got.([]sim.NodeID), []sim.NodeID{2, 4, 5, 6, 8}) {
		t.Errorf("quorum of 5 = %v", got)
	}
	for _, id := range []sim.NodeID{2, 4, 5, 6, 8} {
		if got := w.Get(id, keyVote).([]sim.NodeID); len(got) != 0 {
			t.Errorf("after the release, %d still votes for %v", id, got)
		}
	}
}

// TestArbiterQueue: an arbiter votes for one request at a time and, on
// RELEASE, for the earliest (ts, id) in its queue, whatever the arrival
// order. With n=3 the quorums are 1 {1,2,3}, 2 {1,2}, 3 {1,3}: 2 and 3
// compete only for 1's vote.
func TestArbiterQueue(t *testing.T) {
	w := world(t, 3, Basic)
	w.CommandArgs(0, 1, "request", sim.Args{"duration": 10})
	w.CommandArgs(2, 3, "request", sim.Args{"duration": 1}) // ts 3: 3 saw 1's ts 1
	w.CommandArgs(3, 2, "request", sim.Args{"duration": 1}) // ts 3 as well, and 2 < 3
	w.Run(0)
	if got := w.Entries(); !slices.Equal(got, []sim.NodeID{1, 2, 3}) {
		t.Errorf("entries %v, want 1, then 2 ((3,2) < (3,3)) although 3 asked first, then 3", got)
	}
	if err := w.Exclusive(); err != nil {
		t.Error(err)
	}
}

// TestInquireIgnoredInCS: in the inquire variant, a REQUEST earlier in
// (ts, id) order than the vote's holder makes the arbiter INQUIRE; a holder
// already in the critical section ignores it and RELEASEs as usual. Quorums
// for n=4: 1 {1,2,3}, 2 {1,2,4}, 3 {1,3,4}, 4 {2,3,4}.
func TestInquireIgnoredInCS(t *testing.T) {
	w := world(t, 4, Inquiry)
	w.CommandArgs(0, 4, "request", sim.Args{"duration": 5}) // (1,4)
	w.CommandArgs(1, 1, "request", sim.Args{"duration": 1}) // (1,1): earlier than (1,4)
	w.Run(0)
	checkSends(t, w,
		"0 REQUEST 4->2", "0 REQUEST 4->3",
		"1 REQUEST 1->2", "1 REQUEST 1->3",
		"1 LOCKED 2->4", "1 LOCKED 3->4",
		"2 INQUIRE 2->4", "2 INQUIRE 3->4",
		"7 RELEASE 4->2", "7 RELEASE 4->3",
		"8 LOCKED 2->1", "8 LOCKED 3->1",
		"10 RELEASE 1->2", "10 RELEASE 1->3")
	if got := w.Entries(); !slices.Equal(got, []sim.NodeID{4, 1}) {
		t.Errorf("entries %v", got)
	}
}

// TestFailedThenRelinquish: 2 (1,2) and 3 (1,3) compete for arbiters 1 and
// 4. Slow links make 3 reach 1 first and 2 reach 4 first. Arbiter 1 then
// INQUIREs 3 for 2's earlier request; arbiter 4 answers 3 FAILED; knowing
// it cannot enter, 3 RELINQUISHes 1's vote, which goes to 2. After 2's
// release 1 and 4 vote for 3.
func TestFailedThenRelinquish(t *testing.T) {
	w := world(t, 4, Inquiry)
	slow := sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: 4}, FIFO: true}
	for _, l := range [][2]sim.NodeID{{2, 1}, {3, 4}} {
		if err := w.SetLink(l[0], l[1], slow); err != nil {
			t.Fatal(err)
		}
	}
	w.CommandArgs(0, 2, "request", sim.Args{"duration": 2})
	w.CommandArgs(0, 3, "request", sim.Args{"duration": 2})
	w.Run(0)
	checkSends(t, w,
		"0 REQUEST 2->1", "0 REQUEST 2->4", "0 REQUEST 3->1", "0 REQUEST 3->4",
		"1 LOCKED 4->2", "1 LOCKED 1->3",
		"4 INQUIRE 1->3", "4 FAILED 4->3",
		"5 RELINQUISH 3->1",
		"6 LOCKED 1->2",
		"9 RELEASE 2->1", "9 RELEASE 2->4",
		"10 LOCKED 4->3", // 2's RELEASE is slow to reach 1
		"13 LOCKED 1->3",
		"16 RELEASE 3->1", "16 RELEASE 3->4")
	if got := w.Entries(); !slices.Equal(got, []sim.NodeID{2, 3}) {
		t.Errorf("entries %v", got)
	}
}

// TestDeferredInquire: a holder with no FAILED yet keeps an INQUIRE and
// answers it when a FAILED comes. As in TestFailedThenRelinquish, 3 holds
// 1's vote and 2 holds 4's, but 3's REQUEST to 4 is slower still: 1's
// INQUIRE reaches 3 at t=5, 4's FAILED only at t=9.
func TestDeferredInquire(t *testing.T) {
	w := world(t, 4, Inquiry)
	for _, l := range []struct {
		from, to sim.NodeID
		lat      float64
	}{{2, 1, 4}, {3, 4, 8}} {
		if err := w.SetLink(l.from, l.to, sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: l.lat}, FIFO: true}); err != nil {
			t.Fatal(err)
		}
	}
	w.CommandArgs(0, 2, "request", sim.Args{"duration": 2})
	w.CommandArgs(0, 3, "request", sim.Args{"duration": 2})
	w.Run(0)
	var by3 []string
	for _, s := range sends(w) {
		if strings.Contains(s, " 3->") || strings.Contains(s, "->3") {
			by3 = append(by3, s)
		}
	}
	want := []string{"0 REQUEST 3->1", "0 REQUEST 3->4", "1 LOCKED 1->3", "4 INQUIRE 1->3", "8 FAILED 4->3", "9 RELINQUISH 3->1"}
	if len(by3) < len(want) || !slices.Equal(by3[:len(want)], want) {
		t.Errorf("messages to and from 3:\n got %s\nwant %s first", strings.Join(by3, "\n     "), strings.Join(want, "\n     "))
	}
	if got := w.Entries(); !slices.Equal(got, []sim.NodeID{2, 3}) {
		t.Errorf("entries %v", got)
	}
}

// TestOvertakenGetsFailed: a request first in line at an arbiter, and so
// not told FAILED, is told when a request of higher priority overtakes it.
// In the 3x3 grid, 9 enters with the votes of {3,6,7,8,9} and stays; 2 and
// 1 never heard of 9's request, so theirs are stamped (1,2) and (1,1), both
// earlier than (1,9). At arbiter 3, 2's request comes first (INQUIRE to 9,
// which is in the critical section); 1's, on a slow link, overtakes it
// there: FAILED to 2.
func TestOvertakenGetsFailed(t *testing.T) {
	w := world(t, 9, Inquiry)
	if err := w.SetLink(1, 3, sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: 3}, FIFO: true}); err != nil {
		t.Fatal(err)
	}
	w.CommandArgs(0, 9, "request", sim.Args{"duration": 20})
	w.CommandArgs(5, 2, "request", sim.Args{"duration": 1})
	w.CommandArgs(5, 1, "request", sim.Args{"duration": 1})
	w.Run(0)
	got := sends(w)
	for _, want := range []string{"6 INQUIRE 3->9", "8 FAILED 3->2"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	if n := strings.Count(strings.Join(got, "\n"), "INQUIRE 3->9"); n != 1 {
		t.Errorf("arbiter 3 sent %d INQUIREs for one vote, want 1", n)
	}
	if got := w.Entries(); !slices.Equal(got, []sim.NodeID{9, 1, 2}) {
		t.Errorf("entries %v", got)
	}
	if got := w.Get(2, mutex.KeyStamp); got != 1 {
		t.Errorf("2's request stamped %v, want 1", got)
	}
}

// TestBasicDeadlock is the schedule of scripts/examples/mutex/maekawa-deadlock.lua:
// with n=4 (quorums 1 {1,2,3}, 2 {1,2,4}, 3 {1,3,4}, 4 {2,3,4}), 2, 3 and 4
// ask at once. Each votes for itself at once; 1 votes for 2. Then 2 waits
// for 4's vote, 4 for 2's and 3's, 3 for 1's and 4's: in the basic variant
// the run goes quiet with all three waiting. The inquire variant serves
// them, in (ts, id) order.
func TestBasicDeadlock(t *testing.T) {
	for _, c := range []struct {
		variant string
		entries []sim.NodeID
		pending []sim.NodeID
	}{
		{Basic, nil, []sim.NodeID{2, 3, 4}},
		{Inquiry, []sim.NodeID{2, 3, 4}, nil},
	} {
		w := world(t, 4, c.variant)
		for _, id := range []sim.NodeID{2, 3, 4} {
			w.CommandArgs(0, id, "request", sim.Args{"duration": 3})
		}
		r := w.Run(0)
		if r.Reason != sim.Quiescent || !slices.Equal(w.Entries(), c.entries) || !slices.Equal(w.Pending(), c.pending) {
			t.Errorf("%s: run %s, entries %v, waiting %v; want entries %v, waiting %v", c.variant, r, w.Entries(), w.Pending(), c.entries, c.pending)
		}
		if c.variant == Basic {
			for id, want := range map[sim.NodeID]sim.NodeID{1: 2, 2: 2, 3: 3, 4: 4} {
				if got := w.Get(id, keyVote).([]sim.NodeID); !slices.Equal(got, []sim.NodeID{want}) {
					t.Errorf("basic: %d votes for %v, want %d", id, got, want)
				}
			}
		}
	}
}

// TestSoak: random workloads on reordering links, n from 2 to 12 (square
// and non-square grids): at most one process in the critical section at
// every event, and every request served (the default, deadlock-free
// variant).
func TestSoak(t *testing.T) { algotest.Soak(t, "mutex.maekawa", 300) }

// TestBasicSafe: the basic variant may deadlock but never lets two
// processes in at once.
func TestBasicSafe(t *testing.T) {
	deadlocked := 0
	for seed := uint64(1); seed <= 100; seed++ {
		n := 2 + int(seed%15)
		link := sim.Link{Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: 6}}
		w := algotest.New(t, algotest.Setup{Algo: "mutex.maekawa", IDs: algotest.IDs(n), Link: link, Seed: seed, Config: map[string]any{"variant": Basic}})
		w.RandomRequests(seed, 3, 60, 5)
		w.Run(0)
		if err := w.Exclusive(); err != nil {
			t.Fatalf("seed %d n=%d: %v", seed, n, err)
		}
		if len(w.Pending()) > 0 {
			deadlocked++
		}
	}
	if deadlocked == 0 {
		t.Error("the basic variant never deadlocked in 100 contended runs")
	}
}

func TestVariantConfig(t *testing.T) {
	spec, err := algo.Lookup("mutex.maekawa")
	if err != nil {
		t.Fatal(err)
	}
	vals, err := spec.Resolve(map[string]any{"variant": "fancy"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spec.New(vals); err == nil || !strings.Contains(err.Error(), `"variant"`) {
		t.Errorf("variant=fancy: error %v, want one naming the key", err)
	}
}
