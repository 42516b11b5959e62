package central

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
	"dsim/core/trace"
)

func world(t *testing.T, n int, cfg map[string]any, detect sim.Duration) *algotest.World {
	c := map[string]any{"election_T": 10, "election_T2": 30}
	for k, v := range cfg {
		c[k] = v
	}
	return algotest.New(t, algotest.Setup{Algo: "mutex.central", IDs: algotest.IDs(n), Config: c, Detect: detect})
}

// sends renders the sends of the mutual exclusion layer as "KIND from->to".
func sends(w *algotest.World) []string {
	var out []string
	for _, m := range w.Sends("") {
		switch k := m.Msg.(sim.Message).Kind(); k {
		case "REQUEST", "GRANTED", "DENIED", "RELEASE", "HELD", "IDLE":
			if _, ok := m.Msg.(sim.Message); ok && isMine(m.Msg) {
				out = append(out, fmt.Sprintf("%s %d->%d", k, m.From, m.To))
			}
		}
	}
	return out
}

func isMine(m any) bool {
	switch m.(type) {
	case Request, Granted, Denied, Release, Held, Idle:
		return true
	}
	return false
}

// entries lists the processes in the order they entered the critical
// section, and fails the test if two ever held it at once (a crash ends a
// process's critical section).
func entries(t *testing.T, w *algotest.World) []sim.NodeID {
	t.Helper()
	held := map[int]bool{}
	var order []sim.NodeID
	for _, e := range w.Rec.Events {
		switch {
		case e.Type == trace.Crash:
			delete(held, e.Node)
		case e.Type == trace.State && e.Key == "cs":
			if e.New == "held" {
				held[e.Node] = true
				order = append(order, sim.NodeID(e.Node))
			} else {
				delete(held, e.Node)
			}
		}
		if len(held) > 1 {
			t.Fatalf("t=%d seq=%d: %d processes hold the critical section: %v", e.T, e.Seq, len(held), held)
		}
	}
	return order
}

func cs(w *algotest.World, id sim.NodeID) any { return w.Get(id, "cs") }

func TestUncontendedRequestCostsThreeMessages(t *testing.T) {
	for _, n := range []int{2, 3, 5, 8, 16} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w := world(t, n, nil, 0)
			w.Request(5, 1, 4)
			w.Run(0)
			got := sends(w)
			want := []string{"REQUEST 1->" + fmt.Sprint(n), "GRANTED " + fmt.Sprint(n) + "->1", "RELEASE 1->" + fmt.Sprint(n)}
			if !slices.Equal(got, want) || w.Count("") != 3 {
				t.Errorf("sends %v (%d in all), want %v", got, w.Count(""), want)
			}
			if got := entries(t, w); !slices.Equal(got, []sim.NodeID{1}) {
				t.Errorf("entries %v, want [1]", got)
			}
		})
	}
}

// The notes' prose counts "only three messages per use of a CS (request,
// OK, release)"; their pseudo code also answers a request that has to wait
// with DENIED. 1 holds the critical section while 2 asks: with the pseudo
// code (denied=true, the default) 2's entry costs REQUEST, DENIED, GRANTED,
// RELEASE, four messages; with the prose (denied=false) three, and no
// DENIED is ever sent.
func TestContendedEntryCostsFourWithDenied(t *testing.T) {
	for _, c := range []struct {
		cfg  map[string]any
		want []string
	}{
		{cfg: nil, want: []string{"REQUEST 1->4", "GRANTED 4->1", "REQUEST 2->4", "DENIED 4->2", "RELEASE 1->4", "GRANTED 4->2", "RELEASE 2->4"}},
		{cfg: map[string]any{"denied": true}, want: []string{"REQUEST 1->4", "GRANTED 4->1", "REQUEST 2->4", "DENIED 4->2", "RELEASE 1->4", "GRANTED 4->2", "RELEASE 2->4"}},
		{cfg: map[string]any{"denied": false}, want: []string{"REQUEST 1->4", "GRANTED 4->1", "REQUEST 2->4", "RELEASE 1->4", "GRANTED 4->2", "RELEASE 2->4"}},
	} {
		w := world(t, 4, c.cfg, 0)
		w.Request(1, 1, 5)
		w.Request(3, 2, 2)
		w.Run(0)
		if got := sends(w); !slices.Equal(got, c.want) {
			t.Errorf("config %v: sends %v\nwant %v", c.cfg, got, c.want)
		}
		if got := entries(t, w); !slices.Equal(got, []sim.NodeID{1, 2}) {
			t.Errorf("config %v: entries %v, want [1 2]", c.cfg, got)
		}
	}
}

// Without DENIED the prose's variant still serves first come, first served:
// a queued request waits silently for its GRANTED.
func TestProseVariantQueuesSilently(t *testing.T) {
	w := world(t, 5, map[string]any{"denied": false}, 0)
	w.Request(1, 1, 0) // held until released
	w.Request(5, 4, 2)
	w.Request(6, 2, 2)
	w.Request(9, 3, 2)
	w.Run(20)
	if got, want := w.Get(5, "queue"), []sim.NodeID{4, 2, 3}; !slices.Equal(got.([]sim.NodeID), want) {
		t.Errorf("queue at the coordinator %v, want %v", got, want)
	}
	w.Command(30, 1, "release")
	w.Run(0)
	if got, want := entries(t, w), []sim.NodeID{1, 4, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
	if d, all := w.Count("DENIED"), len(sends(w)); d != 0 || all != 3*4 {
		t.Errorf("%d DENIED and %d messages, want 0 and 3 per entry (12)", d, all)
	}
}

// The coordinator competes too; it grants itself without a message.
func TestCoordinatorGrantsItselfWithoutMessages(t *testing.T) {
	w := world(t, 4, nil, 0)
	w.Request(5, 4, 3)
	w.Run(0)
	if c := w.Count(""); c != 0 {
		t.Errorf("%d messages for the coordinator's own request, want 0: %v", c, sends(w))
	}
	if got := entries(t, w); !slices.Equal(got, []sim.NodeID{4}) {
		t.Errorf("entries %v, want [4]", got)
	}
}

// REQUEST while somebody is in the CS: queue it and reply DENIED. RELEASE:
// remove the first on the queue and reply GRANTED. Requests are served in
// the order they reach the coordinator.
func TestBusyDeniesQueuesAndReleaseGrantsTheFirst(t *testing.T) {
	w := world(t, 5, map[string]any{"coordinator": 3}, 0)
	w.Request(1, 1, 0) // held until released
	w.Request(5, 4, 2)
	w.Request(6, 2, 2)
	w.Request(8, 3, 2) // the coordinator's own request queues behind them
	w.Request(9, 5, 2)
	w.Run(20)
	if got, want := w.Get(3, "queue"), []sim.NodeID{4, 2, 3, 5}; !slices.Equal(got.([]sim.NodeID), want) {
		t.Errorf("queue at the coordinator %v, want %v", got, want)
	}
	if got, want := sends(w), []string{"REQUEST 1->3", "GRANTED 3->1", "REQUEST 4->3", "REQUEST 2->3", "DENIED 3->4", "DENIED 3->2", "REQUEST 5->3", "DENIED 3->5"}; !slices.Equal(got, want) {
		t.Errorf("sends %v\nwant  %v", got, want)
	}
	w.Command(30, 1, "release")
	w.Run(0)
	if got, want := entries(t, w), []sim.NodeID{1, 4, 2, 3, 5}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want first come first served %v", got, want)
	}
	var grants []string
	for _, m := range w.Sends("GRANTED") {
		grants = append(grants, fmt.Sprintf("t=%d ->%d", m.T, m.To))
	}
	// Each GRANTED leaves when the RELEASE before it arrives (latency 1,
	// CS 2 ticks): 1 releases at 30, 4 is in from 32 to 34, 2 from 36 to 38,
	// then the coordinator enters at 39 without a message.
	if want := []string{"t=2 ->1", "t=31 ->4", "t=35 ->2", "t=41 ->5"}; !slices.Equal(grants, want) {
		t.Errorf("grants %v, want %v", grants, want)
	}
	if q := w.Get(3, "queue").([]sim.NodeID); len(q) != 0 {
		t.Errorf("queue %v at the end, want empty", q)
	}
}

// A RELEASE with nobody queued grants nothing; the next REQUEST is granted
// at once.
func TestReleaseWithEmptyQueueThenFreshGrant(t *testing.T) {
	w := world(t, 3, nil, 0)
	w.Request(1, 1, 2)
	w.Request(10, 2, 2)
	w.Run(0)
	if got, want := sends(w), []string{"REQUEST 1->3", "GRANTED 3->1", "RELEASE 1->3", "REQUEST 2->3", "GRANTED 3->2", "RELEASE 2->3"}; !slices.Equal(got, want) {
		t.Errorf("sends %v, want %v", got, want)
	}
}

// The coordinator crashes while 1 is in its critical section and 2 and 3
// wait. Every process suspects it and calls the bully election; 4 wins. 1
// reports HELD, 2 and 3 re-send REQUEST; 4 grants nothing while 1 is in,
// then serves 2 and 3. Then 4 crashes too, with 3 in its critical section
// and 2 waiting behind it: 3 becomes coordinator in turn.
func TestCoordinatorCrashesTwice(t *testing.T) {
	w := world(t, 5, nil, 3)
	w.Request(1, 1, 0)
	w.Request(3, 2, 5)
	w.Request(4, 3, 40)
	w.Crash(10, 5)
	w.Run(60)
	if got := w.Get(4, "leader"); got != sim.NodeID(4) {
		t.Fatalf("leader at 4 is %v, want 4", got)
	}
	if cs(w, 2) != "wanted" || cs(w, 3) != "wanted" || cs(w, 1) != "held" {
		t.Errorf("before the release: cs 1=%v 2=%v 3=%v, want held, wanted, wanted", cs(w, 1), cs(w, 2), cs(w, 3))
	}
	if w.Get(4, "recovering") != false {
		t.Errorf("4 is still recovering: it heard from 1, 2, 3 and suspects 5")
	}
	var reports []string
	for _, m := range w.Sends("") {
		if m.To == 4 && isMine(m.Msg) {
			reports = append(reports, fmt.Sprintf("%s %d", m.Msg.(sim.Message).Kind(), m.From))
		}
	}
	slices.Sort(reports)
	if want := []string{"HELD 1", "REQUEST 2", "REQUEST 3"}; !slices.Equal(reports, want) {
		t.Errorf("reports to 4: %v, want %v", reports, want)
	}
	w.Command(60, 1, "release") // its RELEASE goes to 4 (1 follows 4 by now)
	w.Run(75)
	if cs(w, 3) != "held" {
		t.Fatalf("3 is %v at 75, want held (2 served first)", cs(w, 3))
	}
	w.Request(76, 2, 5)
	w.Crash(80, 4)
	w.Run(0)
	if got := w.Get(3, "leader"); got != sim.NodeID(3) {
		t.Errorf("leader at 3 is %v, want 3 after 4 crashed", got)
	}
	got := entries(t, w)
	if want := []sim.NodeID{1, 2, 3, 2}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
	for _, id := range []sim.NodeID{1, 2, 3} {
		if cs(w, id) != "released" {
			t.Errorf("process %d ends with cs=%v", id, cs(w, id))
		}
	}
}

// A process whose RELEASE went to the dead coordinator reports IDLE to the
// new one and is not taken for the holder: the waiting process is served.
func TestReleaseLostWithTheCoordinator(t *testing.T) {
	w := world(t, 4, nil, 5)
	w.Request(1, 1, 0)
	w.Request(2, 2, 3)
	w.Crash(10, 4)
	w.Command(11, 1, "release") // the RELEASE is dropped: 4 is down
	w.Run(0)
	if got, want := entries(t, w), []sim.NodeID{1, 2}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
	if n := len(w.Sends("IDLE")); n != 1 {
		t.Errorf("%d IDLE reports, want 1 (from 1)", n)
	}
}

// The new coordinator waits for a report from every process it does not
// suspect: the process in its critical section is slow to hear of it, and
// nobody is granted before its HELD arrives.
func TestRecoveryWaitsForTheHolder(t *testing.T) {
	w := world(t, 4, nil, 2)
	if err := w.SetLink(1, 3, sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: 20}, FIFO: true}); err != nil {
		t.Fatal(err)
	}
	w.Request(1, 1, 0)
	w.Request(2, 2, 3)
	w.Crash(10, 4)
	w.Run(30)
	if w.Get(3, "recovering") != true || cs(w, 2) != "wanted" {
		t.Errorf("at 30: recovering=%v cs 2=%v, want 3 still waiting for 1's report and 2 waiting", w.Get(3, "recovering"), cs(w, 2))
	}
	w.Command(50, 1, "release")
	w.Run(0)
	if got, want := entries(t, w), []sim.NodeID{1, 2}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
}

// A client crashing in its critical section is noticed by the coordinator's
// detector: the next queued request is granted.
func TestClientCrashInCriticalSection(t *testing.T) {
	w := world(t, 3, nil, 4)
	w.Request(1, 1, 0)
	w.Request(2, 2, 2)
	w.Crash(10, 1)
	w.Run(0)
	if got, want := entries(t, w), []sim.NodeID{1, 2}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
	if g := w.Sends("GRANTED"); len(g) != 2 || g[1].T != 14 {
		t.Errorf("grants %v, want the second at 14, when 3 suspects 1", g)
	}
}

// A client that crashes in its critical section and recovers before the
// detector notices reports IDLE to the coordinator the bully announces, and
// the coordinator, still serving, lets the next request in.
func TestClientRecoversUnnoticed(t *testing.T) {
	w := world(t, 3, nil, 10)
	w.Request(1, 1, 0)
	w.Request(2, 2, 2)
	w.Crash(10, 1)
	w.Recover(12, 1)
	w.Run(0)
	if got, want := entries(t, w), []sim.NodeID{1, 2}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
	if w.Get(3, "recovering") != nil {
		t.Errorf("3 started a recovery phase though it kept serving")
	}
}

// Random requests and latencies; the coordinator crashes, then a client,
// which recovers later; in half the runs the old coordinator comes back
// and takes over. Nobody is ever in the critical section with
// another, and every request of a process that never crashed is served
// exactly once.
func TestSeedSweepWithCrashes(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			w := algotest.New(t, algotest.Setup{Algo: "mutex.central", IDs: algotest.IDs(6), Seed: seed, Detect: 4,
				Link:   sim.Link{Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: 4}, FIFO: true},
				Config: map[string]any{"election_T": 12, "election_T2": 40}})
			r := sim.Stream(seed, "central-sweep", 0)
			victim := sim.NodeID(1 + r.IntN(5))
			w.Crash(sim.Time(50+r.IntN(100)), 6)
			crash := sim.Time(150 + r.IntN(100))
			w.Crash(crash, victim)
			w.Recover(crash+sim.Time(r.IntN(30)), victim)
			if seed%2 == 0 {
				w.Recover(sim.Time(200+r.IntN(150)), 6)
			}
			issued := map[sim.NodeID]int{}
			for range 30 {
				id := sim.NodeID(1 + r.IntN(6))
				d := 1 + r.IntN(5)
				w.At(sim.Time(r.IntN(400)), func() {
					if !w.Up(id) {
						return
					}
					issued[id]++
					if err := w.Sim.Command(id, "request", sim.Args{"duration": d}); err != nil {
						t.Error(err)
					}
				})
			}
			w.Run(0)
			served := map[sim.NodeID]int{}
			for _, id := range entries(t, w) {
				served[id]++
			}
			for id := sim.NodeID(1); id <= 5; id++ {
				if id != victim && served[id] != issued[id] {
					t.Errorf("process %d made %d requests and entered %d times", id, issued[id], served[id])
				}
			}
			if w.Up(victim) && cs(w, victim) != "released" {
				t.Errorf("recovered process %d ends with cs=%v", victim, cs(w, victim))
			}
		})
	}
}

// The default coordinator is the highest id, whatever the ids; the election
// layer knows it from boot.
func TestDefaultCoordinatorIsTheHighestID(t *testing.T) {
	ids := []sim.NodeID{3, 9, 5}
	w := algotest.New(t, algotest.Setup{Algo: "mutex.central", IDs: ids})
	w.Request(1, 3, 2)
	w.Run(0)
	for _, id := range ids {
		if got := w.Get(id, "leader"); got != sim.NodeID(9) {
			t.Errorf("process %d follows %v, want 9", id, got)
		}
	}
	if got, want := sends(w), []string{"REQUEST 3->9", "GRANTED 9->3", "RELEASE 3->9"}; !slices.Equal(got, want) {
		t.Errorf("sends %v, want %v", got, want)
	}
}

// A coordinator key naming no process starts an election at boot.
func TestCoordinatorThatIsNoProcess(t *testing.T) {
	w := world(t, 3, map[string]any{"coordinator": 7}, 0)
	w.Request(50, 1, 2)
	w.Run(0)
	if err := algotest.Agreed(w.Sim, 3); err != nil {
		t.Error(err)
	}
	if got := entries(t, w); !slices.Equal(got, []sim.NodeID{1}) {
		t.Errorf("entries %v, want [1]", got)
	}
}

// The crashed coordinator recovers while the CS is held under its
// successor: the bully makes it coordinator again; it starts afresh, hears
// 1's HELD and 2's re-sent REQUEST, and the deposed 4 drops its queue.
func TestOldCoordinatorRecoversAndTakesOver(t *testing.T) {
	w := world(t, 5, nil, 3)
	w.Request(1, 1, 0)
	w.Crash(5, 5)
	w.Request(30, 2, 3)
	w.Recover(40, 5)
	w.Command(70, 1, "release")
	w.Run(0)
	if err := algotest.Agreed(w.Sim, 5); err != nil {
		t.Error(err)
	}
	if q := w.Get(4, "queue").([]sim.NodeID); len(q) != 0 {
		t.Errorf("deposed coordinator 4 still shows queue %v", q)
	}
	var grants []string
	for _, m := range w.Sends("GRANTED") {
		grants = append(grants, fmt.Sprintf("%d->%d", m.From, m.To))
	}
	if want := []string{"5->1", "5->2"}; !slices.Equal(grants, want) {
		t.Errorf("grants %v, want %v: 4 never grants, the recovered 5 grants 2 after 1's release", grants, want)
	}
	if got, want := entries(t, w), []sim.NodeID{1, 2}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
}

// served fails the test unless every process in ids ends released having
// entered its critical section want times in all.
func served(t *testing.T, w *algotest.World, want int, ids ...sim.NodeID) {
	t.Helper()
	got := map[sim.NodeID]int{}
	for _, id := range entries(t, w) {
		got[id]++
	}
	for _, id := range ids {
		if cs(w, id) != "released" || got[id] != want {
			t.Errorf("process %d: cs=%v after %d entries, want released after %d", id, cs(w, id), got[id], want)
		}
	}
}

// Sweep seed 58: of two processes the coordinator crashes for good while
// the other waits. The survivor elects itself with its own request queued
// and nobody left to hear from: the recovery phase ends at once and it
// grants itself.
func TestLoneSurvivorGrantsItself(t *testing.T) {
	w := world(t, 2, nil, 5)
	w.Crash(10, 2)
	w.Request(12, 1, 3) // its REQUEST is lost with the coordinator
	w.Run(0)
	if got := w.Get(1, "leader"); got != sim.NodeID(1) {
		t.Fatalf("leader at 1 is %v, want 1", got)
	}
	if w.Get(1, "recovering") != false {
		t.Errorf("1 is still recovering with nobody to hear from")
	}
	served(t, w, 1, 1)
}

// Sweep seeds 1436, 1561, 3758: a REQUEST sent just before its sender
// crashed reaches the coordinator after the detector reported the crash.
// Granting it would wait forever for a RELEASE from a dead process; the
// coordinator ignores it and the next request is served.
func TestRequestFromBeforeACrashIsIgnored(t *testing.T) {
	w := world(t, 3, nil, 5)
	if err := w.SetLink(2, 3, sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: 20}, FIFO: true}); err != nil {
		t.Fatal(err)
	}
	w.Request(10, 2, 3) // arrives at 30
	w.Crash(11, 2)      // suspected at 16
	w.Request(40, 1, 3)
	w.Run(0)
	if g := w.Sends("GRANTED"); len(g) != 1 || g[0].To != 1 {
		t.Errorf("grants %v, want one, to 1", g)
	}
	served(t, w, 1, 1)
}

// Sweep seeds 3790, 5277, 9134: the old coordinator recovers, announces
// itself and crashes again before the detector trusts it, so the detector
// never reports the second crash. The survivor follows it, probes it
// through the election layer while the detector suspects it, gets no
// REPLY, elects itself and serves its own request.
func TestCoordinatorCrashesAgainBeforeItIsTrusted(t *testing.T) {
	w := world(t, 2, nil, 5)
	w.Crash(6, 2)
	w.Recover(71, 2) // COORDINATOR 2 reaches 1 at 72; trusted at 76 if it stayed up
	w.Crash(73, 2)
	w.Request(85, 1, 3)
	w.Run(0)
	if got := w.Get(1, "leader"); got != sim.NodeID(1) {
		t.Errorf("leader at 1 is %v, want 1", got)
	}
	if len(w.Sends("REPLY")) != 0 || len(w.SentBy("REQUEST", 1)) == 0 {
		t.Errorf("want 1 to probe 2 and get no REPLY")
	}
	served(t, w, 1, 1)
}

// Sweep seed 17881: overlapping bully elections. 3 elects itself while 4
// is up (its ELECTION is slow); 4 bullies it out, but 3's COORDINATOR
// reaches 2, waiting in 4's queue, late: after 4's re-announcement for
// another election of 3. 2 re-sends its REQUEST to 3 while 3 is in that
// election; once it is over, 3 runs one more, so that 4 announces itself
// to 2 again and 2 is served.
func TestReportDuringAnElectionCallsAnother(t *testing.T) {
	w := world(t, 4, nil, 0)
	link := func(from, to sim.NodeID, lat float64) {
		if err := w.SetLink(from, to, sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: lat}, FIFO: true}); err != nil {
			t.Fatal(err)
		}
	}
	link(3, 4, 15) // 3's ELECTION reaches 4 after T: 3 wins at 20
	link(3, 2, 35) // its COORDINATOR reaches 2 at 55
	link(4, 3, 8)  // 4's ANSWER and COORDINATOR reach 3 within T
	w.Command(10, 3, "elect")
	w.Request(30, 1, 0) // 1 holds the critical section
	w.Request(31, 2, 3) // 2 is queued at 4
	w.Run(49)           // 3's IDLE to 4, sent at 33 when it followed 4, is in
	link(3, 4, 1)
	w.Command(50, 3, "elect") // 4 re-announces at 51, to 2 at 52 and to 3 at 59
	w.Run(70)
	if got := w.Get(2, "leader"); got != sim.NodeID(4) {
		t.Errorf("at 70 2 follows %v, want 4", got)
	}
	w.Command(80, 1, "release")
	w.Run(0)
	served(t, w, 1, 1, 2)
}

// Sweep seed 49801: a client recovers and sends REQUEST, then crashes
// again before the detector trusts it, so the detector reports no second
// crash. The coordinator grants nothing to a process it suspects: the
// request stays queued, 2 is served meanwhile, and when 1 stays suspected
// and does not answer the QUERY, its request is dropped.
func TestClientCrashesAgainBeforeItIsTrusted(t *testing.T) {
	w := world(t, 3, nil, 10)
	w.Crash(10, 1)      // suspected at 20
	w.Recover(30, 1)    // trusted at 40 if it stayed up
	w.Request(31, 1, 3) // reaches 3 while 1 is suspected
	w.Crash(36, 1)
	w.Request(45, 2, 3)
	w.Run(0)
	if g := w.Sends("GRANTED"); len(g) != 1 || g[0].To != 2 {
		t.Errorf("grants %v, want one, to 2", g)
	}
	if len(w.SentBy("REQUEST", 1)) == 0 || len(w.Sends("QUERY")) == 0 {
		t.Errorf("want 1's REQUEST to reach 3 and 3 to query the suspected 1")
	}
	if q := w.Get(3, "queue").([]sim.NodeID); len(q) != 0 {
		t.Errorf("queue %v at the end, want 1's request dropped", q)
	}
	served(t, w, 1, 2)
}

// A suspected requester that stays up answers the QUERY and is served once
// the detector trusts it; a trusted process that asked later is served
// first meanwhile.
func TestSuspectedRequesterIsServedOnceTrusted(t *testing.T) {
	w := world(t, 3, nil, 25)
	w.Crash(5, 1)       // suspected at 30
	w.Recover(35, 1)    // trusted at 60
	w.Request(36, 1, 3) // queued at 3
	w.Request(40, 2, 3)
	w.Run(0)
	if got, want := entries(t, w), []sim.NodeID{2, 1}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
	if len(w.Sends("QUERY")) == 0 {
		t.Errorf("3 never queried the suspected 1")
	}
	for _, g := range w.Sends("GRANTED") {
		if g.To == 1 && g.T < 60 {
			t.Errorf("1 granted at %d, while suspected", g.T)
		}
	}
	served(t, w, 1, 1, 2)
}

// A recovered coordinator, suspected until the detector's delay is over,
// wins the election and wants the critical section: it does not grant
// itself. Deposed by the recovered 4, it re-sends its REQUEST and crashes
// again, still suspected; 4 queries it, drops its request and serves 1.
// Granted meanwhile, 3 would have reported HELD and been taken for the
// holder for good.
func TestCoordinatorDoesNotGrantItselfWhileSuspected(t *testing.T) {
	w := world(t, 4, nil, 30)
	w.Crash(5, 3, 4)    // suspected at 35
	w.Recover(40, 3)    // trusted at 70 if it stayed up; no ANSWER from 4: coordinator at 50
	w.Request(52, 3, 0) // in its CS, were it granted, until it crashes
	w.Recover(55, 4)    // announces itself at once
	w.Crash(60, 3)
	w.Request(80, 1, 3)
	w.Run(0)
	if got := w.Get(1, "leader"); got != sim.NodeID(4) {
		t.Fatalf("1 follows %v, want 4", got)
	}
	if got, want := entries(t, w), []sim.NodeID{1}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
	served(t, w, 1, 1)
}

// A HELD from a process the detector suspects (hand-made here: under the
// rules above it follows only from a grant to a suspected process) makes
// it the holder, but the coordinator queries it, hears nothing, and frees
// the critical section for 2.
func TestHeldFromASuspectedProcessIsDropped(t *testing.T) {
	w := world(t, 3, nil, 5)
	w.Crash(10, 1)                               // suspected at 15
	w.Inject(20, 1, 3, Held{Seq: 100, Grant: 1}) // numbered after the suspicion: not stale
	w.Request(30, 2, 3)
	w.Run(0)
	if q := w.Sends("QUERY"); len(q) == 0 || q[0].To != 1 {
		t.Errorf("queries %v, want 3 to query 1", q)
	}
	served(t, w, 1, 2)
}
