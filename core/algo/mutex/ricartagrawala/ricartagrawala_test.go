package ricartagrawala

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/mutex"
	"dsim/core/sim"
)

func world(t *testing.T, n int) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "mutex.ricartagrawala", IDs: algotest.IDs(n)})
}

func checkDeferred(t *testing.T, w *algotest.World, id sim.NodeID, want ...sim.NodeID) {
	t.Helper()
	got, _ := w.Get(id, keyDeferred).([]sim.NodeID)
	if !slices.Equal(got, want) {
		t.Errorf("t=%d: %d deferred %v, want %v", w.Now(), id, got, want)
	}
}

func checkCS(t *testing.T, w *algotest.World, id sim.NodeID, want string) {
	t.Helper()
	if got := w.Get(id, "cs"); got != want {
		t.Errorf("t=%d: cs at %d is %v, want %s", w.Now(), id, got, want)
	}
}

// TestUncontendedMessages: one request with nobody competing costs n-1
// REQUESTs and n-1 REPLYs, 2(n-1) in all, and nothing on release.
func TestUncontendedMessages(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8, 13} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w := world(t, n)
			w.CommandArgs(0, 1, "request", sim.Args{"duration": 3})
			w.Run(0)
			for _, kind := range []string{"REQUEST", "REPLY"} {
				if got := w.Count(kind); got != n-1 {
					t.Errorf("%d %s, want n-1 = %d", got, kind, n-1)
				}
			}
			if got := w.Count(""); got != 2*(n-1) {
				t.Errorf("%d messages, want 2(n-1) = %d", got, 2*(n-1))
			}
			want := "t=2 1(ts=1)"
			if n == 1 {
				want = "t=0 1(ts=1)"
			}
			w.CheckStampedEntries(want)
		})
	}
}

// TestHeldDefers: a process in its critical section defers every REQUEST;
// a released one replies at once. 2 waits for 1 alone.
func TestHeldDefers(t *testing.T) {
	w := world(t, 3)
	w.Command(0, 1, "request")
	w.Command(5, 2, "request")
	w.Run(10)
	checkCS(t, w, 1, "held")
	checkCS(t, w, 2, "wanted")
	checkDeferred(t, w, 1, 2)
	if got := algotest.Pairs(w.Sends("REPLY")); got != "2->1 3->1 3->2" {
		t.Errorf("REPLYs %s, want 3 to answer 2 at once and 1 not", got)
	}
}

// TestReleaseRepliesToDeferred: on release the holder replies to every
// deferred request, in arrival order, and the smallest stamp enters next.
func TestReleaseRepliesToDeferred(t *testing.T) {
	w := world(t, 4)
	w.Command(0, 1, "request")
	for _, id := range []sim.NodeID{4, 2, 3} {
		w.CommandArgs(5, id, "request", sim.Args{"duration": 2})
	}
	w.Run(10)
	checkDeferred(t, w, 1, 4, 2, 3)
	w.Command(10, 1, "release")
	w.Run(0)
	checkDeferred(t, w, 1)
	var onRelease []string
	for _, m := range w.Sends("REPLY") {
		if m.T == 10 {
			onRelease = append(onRelease, fmt.Sprintf("%d->%d %v", m.From, m.To, m.Msg))
		}
	}
	if want := []string{"1->4 {3}", "1->2 {3}", "1->3 {3}"}; !slices.Equal(onRelease, want) {
		t.Errorf("REPLYs on release %v, want %v (each naming the request's timestamp)", onRelease, want)
	}
	// The three requests are stamped 3 (each process had seen 1's REQUEST
	// stamped 1), so ids decide: 2 enters on 1's REPLY, 3 and 4 on the
	// REPLYs 2 deferred, then 4 on 3's.
	w.CheckStampedEntries("t=2 1(ts=1)", "t=11 2(ts=3)", "t=14 3(ts=3)", "t=17 4(ts=3)")
}

// TestWantedRepliesToSmallerStamp is the notes' situation of two processes
// requesting at the same moment: the smaller timestamp wins, whatever the
// ids; equal timestamps go to the smaller id.
func TestWantedRepliesToSmallerStamp(t *testing.T) {
	t.Run("tie", func(t *testing.T) {
		w := world(t, 2)
		w.Command(0, 2, "request")
		w.Command(0, 1, "request")
		w.Run(1)
		checkDeferred(t, w, 1, 2)
		checkDeferred(t, w, 2)
		w.Command(5, 1, "release")
		w.Run(0)
		w.CheckStampedEntries("t=2 1(ts=1)", "t=6 2(ts=1)")
	})
	t.Run("timestamp", func(t *testing.T) {
		// 2 requests alone first, so 1's clock passes 2's: when both
		// request again, 2's request (2) is older than 1's (3).
		w := world(t, 2)
		w.CommandArgs(0, 2, "request", sim.Args{"duration": 1})
		w.Command(10, 1, "request")
		w.Command(10, 2, "request")
		w.Run(11)
		checkDeferred(t, w, 2, 1)
		checkDeferred(t, w, 1)
		w.Command(15, 2, "release")
		w.Run(0)
		w.CheckStampedEntries("t=2 2(ts=1)", "t=12 2(ts=2)", "t=16 1(ts=3)")
	})
}

// TestStaleReplyIgnored: a REPLY naming another request's timestamp does
// not count as permission.
func TestStaleReplyIgnored(t *testing.T) {
	w := world(t, 2)
	if err := w.SetLink(2, 1, sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: 10}, FIFO: true}); err != nil {
		t.Fatal(err)
	}
	w.Command(0, 1, "request")
	w.Inject(1, 2, 1, Reply{TS: 7})
	w.Run(5)
	checkCS(t, w, 1, "wanted")
	w.Run(0)
	w.CheckStampedEntries("t=11 1(ts=1)")
}

// TestSeedSweep: random requests and random latencies on links that
// reorder. At most one process is in its critical section at every event,
// every request is served, and entries follow (timestamp, id) order.
func TestSeedSweep(t *testing.T) {
	for seed := range uint64(60) {
		w := algotest.New(t, algotest.Setup{Algo: "mutex.ricartagrawala", IDs: algotest.IDs(2 + int(seed%5)), Seed: seed,
			Link: sim.Link{Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: 20}}})
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

// TestSoak is the shared soak of the mutual exclusion algorithms: shuffled
// ids, up to 12 processes, reordering links.
func TestSoak(t *testing.T) { algotest.Soak(t, "mutex.ricartagrawala", 100) }
