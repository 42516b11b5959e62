package lamport

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/mutex"
	"dsim/core/sim"
)

func world(t *testing.T, n int) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "mutex.lamport", IDs: algotest.IDs(n)})
}

func slow(t *testing.T, w *algotest.World, from, to sim.NodeID, latency float64) {
	t.Helper()
	if err := w.SetLink(from, to, sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: latency}, FIFO: true}); err != nil {
		t.Fatal(err)
	}
}

func checkQueue(t *testing.T, w *algotest.World, id sim.NodeID, want ...sim.NodeID) {
	t.Helper()
	got, _ := w.Get(id, keyQueue).([]sim.NodeID)
	if !slices.Equal(got, want) {
		t.Errorf("t=%d: queue at %d is %v, want %v", w.Now(), id, got, want)
	}
}

// TestUncontendedMessages: one request with nobody competing costs n-1
// REQUESTs, n-1 REPLYs and n-1 RELEASEs, 3(n-1) in all.
func TestUncontendedMessages(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8, 13} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w := world(t, n)
			w.CommandArgs(0, 1, "request", sim.Args{"duration": 3})
			w.Run(0)
			for _, kind := range []string{"REQUEST", "REPLY", "RELEASE"} {
				if got := w.Count(kind); got != n-1 {
					t.Errorf("%d %s, want n-1 = %d", got, kind, n-1)
				}
			}
			if got := w.Count(""); got != 3*(n-1) {
				t.Errorf("%d messages, want 3(n-1) = %d", got, 3*(n-1))
			}
			// One tick for the REQUEST to go, one for the REPLYs to return.
			want := "t=2 1(ts=1)"
			if n == 1 {
				want = "t=0 1(ts=1)"
			}
			w.CheckStampedEntries(want)
		})
	}
}

// TestQueueOrderedByStamp: the queue is sorted by (timestamp, id), not by
// arrival. Process 3 hears 2's request (1,2) before 1's (1,1) and still
// queues 1 first.
func TestQueueOrderedByStamp(t *testing.T) {
	w := world(t, 3)
	slow(t, w, 1, 3, 5)
	w.Command(0, 2, "request")
	w.Command(0, 1, "request")
	w.Run(2)
	checkQueue(t, w, 3, 2)
	w.Run(6)
	checkQueue(t, w, 3, 1, 2)
	checkQueue(t, w, 2, 1, 2)
	checkQueue(t, w, 1, 1, 2)
}

// TestEnterNeedsLaterMessageFromAll: at the head of its own queue, 1 still
// waits until every other process has sent it something stamped later than
// its request; 3's REPLY is slow, so 1 enters only when it arrives.
func TestEnterNeedsLaterMessageFromAll(t *testing.T) {
	w := world(t, 3)
	slow(t, w, 3, 1, 10)
	w.Command(0, 1, "request")
	w.Run(5)
	checkQueue(t, w, 1, 1)
	if got := w.Get(1, "cs"); got != "wanted" {
		t.Fatalf("t=5: cs=%v with 3's REPLY still in flight, want wanted", got)
	}
	w.Run(0)
	w.CheckStampedEntries("t=11 1(ts=1)")
}

// TestAnyLaterMessageCounts: the message need not be a REPLY. Both request
// at once with timestamp 1; 1 enters on 2's REQUEST (1,2), which is later
// than its own (1,1), before 2's REPLY arrives. 2 receives 1's REPLY too,
// but 1's request heads its queue, so 2 waits for the RELEASE.
func TestAnyLaterMessageCounts(t *testing.T) {
	w := world(t, 2)
	w.Command(0, 1, "request")
	w.Command(0, 2, "request")
	w.Run(3)
	w.CheckStampedEntries("t=1 1(ts=1)")
	checkQueue(t, w, 2, 1, 2)
	w.Command(3, 1, "release")
	w.Run(0)
	w.CheckStampedEntries("t=1 1(ts=1)", "t=4 2(ts=1)")
	checkQueue(t, w, 1, 2)
	checkQueue(t, w, 2, 2)
}

// TestEarlierStampIsNotLater: a message stamped (1,1) is not later than
// the request (1,2), so it does not let 2 in; the real REPLY does.
func TestEarlierStampIsNotLater(t *testing.T) {
	w := world(t, 2)
	slow(t, w, 1, 2, 10)
	w.Command(0, 2, "request")
	w.Inject(0, 1, 2, Reply{TS: 1})
	w.Run(5)
	if got := w.Get(2, "cs"); got != "wanted" {
		t.Fatalf("t=5: cs=%v after a REPLY stamped (1,1), want wanted", got)
	}
	w.Run(0)
	w.CheckStampedEntries("t=11 2(ts=1)")
}

// TestReleaseRemovesRequest: a RELEASE takes the sender's request out of
// every queue, and the next one in (timestamp, id) order enters.
func TestReleaseRemovesRequest(t *testing.T) {
	w := world(t, 3)
	for _, id := range []sim.NodeID{3, 2, 1} {
		w.Command(0, id, "request")
	}
	w.Run(3)
	for _, id := range w.IDs() {
		checkQueue(t, w, id, 1, 2, 3)
	}
	w.Command(3, 1, "release")
	w.Run(5)
	for _, id := range w.IDs() {
		checkQueue(t, w, id, 2, 3)
	}
	w.CheckStampedEntries("t=1 1(ts=1)", "t=4 2(ts=1)")
	// 1's clock: its REQUEST 1, then witness and REPLY for each of the two
	// REQUESTs (2, 3 and 4, 5), witness of the two REPLYs (6, 7), RELEASE 8.
	if got := w.SentBy("RELEASE", 1); !slices.Equal(got, []any{Release{TS: 8}, Release{TS: 8}}) {
		t.Errorf("1's RELEASEs %v, want two stamped 8", got)
	}
}

// TestConcurrentEntriesInStampOrder: requests made at different clocks are
// served by timestamp, ties by id. Process 4 requests alone first; its
// RELEASE (7) puts the others' clocks at 8, so when all request together
// 4's request is stamped 8 and the others' 9.
func TestConcurrentEntriesInStampOrder(t *testing.T) {
	w := world(t, 4)
	w.CommandArgs(0, 4, "request", sim.Args{"duration": 1})
	for _, id := range []sim.NodeID{4, 3, 2, 1} {
		w.CommandArgs(10, id, "request", sim.Args{"duration": 2})
	}
	w.Run(0)
	w.CheckStampedEntries("t=2 4(ts=1)", "t=11 4(ts=8)", "t=14 1(ts=9)", "t=17 2(ts=9)", "t=20 3(ts=9)")
	if err := w.Judge(mutex.Ordering); err != nil {
		t.Error(err)
	}
}

// TestSeedSweepFIFO: random requests and latencies on FIFO links. At most
// one process is in its critical section at every event, every request is
// served, and entries follow (timestamp, id) order.
func TestSeedSweepFIFO(t *testing.T) {
	for seed := range uint64(60) {
		w := algotest.New(t, algotest.Setup{Algo: "mutex.lamport", IDs: algotest.IDs(2 + int(seed%5)), Seed: seed,
			Link: sim.Link{Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: 20}, FIFO: true}})
		made := w.RandomRequests(seed, 3, 200, 10)
		w.Run(0)
		if err := w.Judge(mutex.Safety, mutex.Liveness, mutex.Ordering); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
		if got := len(w.StampedEntries()); got != made {
			t.Errorf("seed %d: %d entries for %d requests", seed, got, made)
		}
	}
}

// TestNoFIFOViolatesSafety is the notes' "Requires FIFO channels": the same
// random schedules on links that reorder let two processes in at once. The
// first seed found is the one scenario mutex/lamport-no-fifo.lua replays.
func TestNoFIFOViolatesSafety(t *testing.T) {
	first := -1
	for seed := range 40 {
		w := algotest.New(t, algotest.Setup{Algo: "mutex.lamport", IDs: algotest.IDs(3), Seed: uint64(seed),
			Link: sim.Link{Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: 20}}})
		w.RandomRequests(uint64(seed), 3, 200, 10)
		w.Run(0)
		if err := w.Judge(mutex.Safety); err != nil {
			first = seed
			t.Logf("seed %d: %v", seed, err)
			break
		}
	}
	if first < 0 {
		t.Fatal("no seed in 0..39 broke safety on links without FIFO")
	}
}

// TestReplyOvertakesRequest is the schedule of scenario
// mutex/lamport-no-fifo.lua: 1 requests (1,1), but its REQUEST to 2 is
// slow; 2 requests (1,2) and 1 replies on a link that lets the REPLY
// overtake the REQUEST. 2 sees a later message from 1 and only its own
// request in its queue; 1 sees 2's later REQUEST with its own request at
// the head. Both enter.
func TestReplyOvertakesRequest(t *testing.T) {
	w := world(t, 2)
	reorder := func(latency float64) func() {
		return func() {
			if err := w.SetLink(1, 2, sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: latency}}); err != nil {
				t.Error(err)
			}
		}
	}
	w.At(0, reorder(10))
	w.Command(0, 1, "request")
	w.At(0, reorder(1))
	w.Command(0, 2, "request")
	w.Run(0)
	w.CheckStampedEntries("t=1 1(ts=1)", "t=2 2(ts=1)")
	if w.Judge(mutex.Safety) == nil {
		t.Error("the safety checker saw no overlap")
	}
}
