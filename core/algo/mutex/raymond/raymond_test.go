package raymond

import (
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

func world(t *testing.T, n int, kind string) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "mutex.raymond", IDs: algotest.IDs(n), Kind: kind})
}

func messages(w *algotest.World) int { return w.Count("REQUEST") + w.Count("PRIVILEGE") }

// TestInitialize: INITIALIZE from the root of a binary tree of 7 points
// every HOLDER at the parent, in n-1 messages.
func TestInitialize(t *testing.T) {
	w := world(t, 7, "")
	w.Run(0)
	want := map[sim.NodeID]sim.NodeID{1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3}
	for id := sim.NodeID(1); id <= 7; id++ {
		if got := w.Get(id, KeyHolder); got != want[id] || w.Get(id, "has_token") != (id == 1) {
			t.Errorf("%d: HOLDER %v has_token %v, want %d", id, got, w.Get(id, "has_token"), want[id])
		}
	}
	if got := w.Count("INITIALIZE"); got != 6 {
		t.Errorf("%d INITIALIZE, want n-1 = 6", got)
	}
}

// TestUncontended: a request d edges from the idle privilege costs d
// REQUEST and d PRIVILEGE; the holder's own request costs nothing.
func TestUncontended(t *testing.T) {
	for _, c := range []struct {
		n    int
		kind string
		who  sim.NodeID
		d    int
	}{
		{2, "line", 2, 1}, {4, "line", 4, 3}, {9, "line", 9, 8}, {9, "line", 5, 4},
		{15, "tree", 8, 3}, {15, "tree", 3, 1}, {31, "tree", 31, 4}, {8, "star", 8, 1},
		{5, "line", 1, 0},
	} {
		w := world(t, c.n, c.kind)
		w.Run(0)
		w.Request(w.Now()+1, c.who, 1)
		w.Run(0)
		w.CheckEntries(c.who)
		if got := messages(w); got != 2*c.d || w.Count("REQUEST") != c.d {
			t.Errorf("%s n=%d, request at %d: %d REQUEST %d PRIVILEGE, want %d each", c.kind, c.n, c.who, w.Count("REQUEST"), w.Count("PRIVILEGE"), c.d)
		}
		if w.Get(c.who, "has_token") != true {
			t.Errorf("%s n=%d: %d does not hold the privilege after its entry", c.kind, c.n, c.who)
		}
	}
}

// TestWorked: 1 (the root of a binary tree of 7) is in its critical
// section while 4 and 6 ask at t=1 and 5 at t=2. 2 forwards 4's REQUEST
// and, ASKED, not 5's, which reaches it just after; the root queues 2 then 3. At the release the
// privilege goes down to 2, which serves its queue in order: 4, then 5,
// then back up to 1 (which asked 2 for it on behalf of 3), and down to 6.
// 6 asked before 5 but waits behind 2's subtree in the root's queue.
func TestWorked(t *testing.T) {
	w := world(t, 7, "")
	w.Request(0, 1, 10)
	w.Request(1, 4, 2)
	w.Request(1, 6, 2)
	w.Request(2, 5, 2)
	w.Run(0)
	w.CheckEntries(1, 4, 5, 6)
	if got := algotest.Pairs(w.Sends("REQUEST")); got != "4->2 5->2 6->3 2->1 3->1 1->2 2->4 2->5" {
		t.Errorf("REQUEST %s", got)
	}
	if got := algotest.Pairs(w.Sends("PRIVILEGE")); got != "1->2 2->4 4->2 2->5 5->2 2->1 1->3 3->6" {
		t.Errorf("PRIVILEGE %s", got)
	}
	for id := sim.NodeID(1); id <= 7; id++ {
		if q := w.Get(id, KeyQueue); q != nil && len(q.([]sim.NodeID)) > 0 || w.Get(id, KeyAsked) == true {
			t.Errorf("%d ends with queue %v asked %v", id, q, w.Get(id, KeyAsked))
		}
	}
}

// TestBeforeInitialize: a request made before INITIALIZE reaches the
// process waits in its queue and goes out when HOLDER is known.
func TestBeforeInitialize(t *testing.T) {
	w := world(t, 7, "")
	w.Request(0, 7, 1)
	w.Run(0)
	w.CheckEntries(7)
	if got := algotest.Pairs(w.Sends("REQUEST")); got != "7->3 3->1" {
		t.Errorf("REQUEST %s, want 7->3 3->1", got)
	}
}

// TestAverage measures the messages per entry for a balanced binary tree:
// every process asks once, in a random order, each after the previous one
// is served, so the privilege walks from one requester to the next. No
// entry can cost more than twice the diameter; the average is logged as
// the measured curve (O(log n)).
func TestAverage(t *testing.T) {
	for h := 2; h <= 7; h++ {
		n := 1<<h - 1
		w := world(t, n, "tree")
		w.Run(0)
		before := 0
		r := sim.Stream(uint64(h), "order", 0)
		for _, k := range r.Perm(n) {
			w.Request(w.Now()+1, sim.NodeID(k+1), 1)
			w.Run(0)
			cost := messages(w) - before
			if diameter := 2 * (h - 1); cost > 2*diameter {
				t.Errorf("n=%d: entry of %d cost %d messages, more than 2 x diameter %d", n, k+1, cost, diameter)
			}
			before += cost
		}
		if got := len(w.Entries()); got != n {
			t.Errorf("n=%d: %d entries", n, got)
		}
		t.Logf("n=%3d (height %d): %.2f messages per entry", n, h-1, float64(before)/float64(n))
	}
}

// TestCrash: a crashed process off the path between requesters and the
// holder stops nobody; a crash on the path blocks the requests behind it.
func TestCrash(t *testing.T) {
	w := world(t, 7, "")
	w.Crash(5, 7)
	w.Request(10, 4, 1)
	w.Request(20, 6, 1)
	w.Run(0)
	w.CheckEntries(4, 6)

	w = world(t, 7, "")
	w.Crash(5, 2)
	w.Request(10, 4, 1)
	w.Request(10, 6, 1)
	w.Run(0)
	w.CheckEntries(6)
	if p := w.Pending(); !slices.Equal(p, []sim.NodeID{4}) {
		t.Errorf("waiting %v, want [4] (cut off by 2)", p)
	}
}

// TestSoak: random workloads on reordering links, over the default tree.
func TestSoak(t *testing.T) { algotest.Soak(t, "mutex.raymond", 300) }
