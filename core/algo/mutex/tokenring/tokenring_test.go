package tokenring

import (
	"slices"
	"strings"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
	"dsim/core/trace"
)

func world(t *testing.T, n int, cfg map[string]any) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "mutex.tokenring", IDs: algotest.IDs(n), Config: cfg, Detect: 5})
}

// safe fails the test if two processes were ever in the critical section
// at once.
func safe(t *testing.T, w *algotest.World) {
	t.Helper()
	if err := w.Exclusive(); err != nil {
		t.Fatal(err)
	}
}

// served fails the test unless every request was served.
func served(t *testing.T, w *algotest.World, requests int) {
	t.Helper()
	if got := len(w.Entries()); got != requests || len(w.Pending()) > 0 {
		t.Fatalf("%d of %d requests served, still waiting: %v", got, requests, w.Pending())
	}
}

// tokens returns the TOKEN sends, usable ones and sweeps.
func tokens(w *algotest.World) []algotest.Msg { return w.Sends("TOKEN") }

// made lists the identities of the regenerated tokens, in the order their
// sweeps were first sent.
func made(w *algotest.World) []Ident {
	var out []Ident
	for _, m := range tokens(w) {
		if id := m.Msg.(Token).ident(); id.Gen > 0 && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// logs returns process id's log lines containing s.
func logs(w *algotest.World, id sim.NodeID, s string) []string {
	var out []string
	for _, e := range w.Rec.Events {
		if e.Type == trace.Log && e.Node == int(id) && strings.Contains(e.Text, s) {
			out = append(out, e.Text)
		}
	}
	return out
}

// TestIdleCirculation: "the token is initially given to one process" (the
// first in ring order) and "when a process receives the token but does not
// require to enter the critical section, it immediately passes the token
// over" (the lecture notes "Synchronization, Coordination and Agreement",
// "Token Ring Algorithm"): by
// default (hold 0) the token leaves each process at the tick it arrives,
// one pass per tick on links of latency 1, round and round.
func TestIdleCirculation(t *testing.T) {
	for _, c := range []struct {
		cfg   map[string]any
		every sim.Time // ticks between passes: hold + latency
	}{
		{cfg: nil, every: 1},
		{cfg: map[string]any{"hold": 0}, every: 1},
		{cfg: map[string]any{"hold": 1}, every: 2},
		{cfg: map[string]any{"hold": 4}, every: 5},
	} {
		w := world(t, 4, c.cfg)
		w.Run(30)
		ms := tokens(w)
		if got := algotest.Pairs(ms); !strings.HasPrefix(got, "1->2 2->3 3->4 4->1 1->2 2->3") {
			t.Errorf("config %v: token route %s", c.cfg, got)
		}
		hold := c.every - 1
		for i, m := range ms {
			if want := hold + c.every*sim.Time(i); m.T != want {
				t.Fatalf("config %v: pass %d (%v) at t=%d, want %d", c.cfg, i, m, m.T, want)
			}
			if m.Msg.(Token).Sweep || m.Msg.(Token).Gen != 0 {
				t.Fatalf("config %v: pass %v is not the boot token", c.cfg, m)
			}
		}
		if len(w.Entries()) != 0 {
			t.Errorf("config %v: entries %v without a request", c.cfg, w.Entries())
		}
	}

	// The holder key follows the token.
	w := world(t, 3, map[string]any{"holder": 3})
	w.Run(5)
	if got := algotest.Pairs(tokens(w)); got != "3->1 1->2 2->3 3->1 1->2 2->3" {
		t.Errorf("holder 3: route %s", got)
	}
}

// TestHolderWantingKeepsIt: "When a process requires to enter the CS, it
// waits until it receives the token ... and then it retains it; after it
// got the token it enters the CS; after it left the CS it passes the token
// to its neighbour". The token does not move during the critical section,
// and leaves at the exit tick.
func TestHolderWantingKeepsIt(t *testing.T) {
	w := world(t, 4, map[string]any{"hold": 0})
	w.Request(0, 3, 20) // the token reaches 3 at t=2
	w.Run(40)
	if got := w.Entries(); !slices.Equal(got, []sim.NodeID{3}) {
		t.Fatalf("entries %v", got)
	}
	var during []algotest.Msg
	for _, m := range tokens(w) {
		if m.T > 2 && m.T < 22 {
			during = append(during, m)
		}
	}
	if len(during) > 0 {
		t.Errorf("the token moved during 3's critical section: %v", during)
	}
	if got := w.SentBy("TOKEN", 3); len(got) == 0 {
		t.Fatal("3 never passed the token")
	}
	for _, m := range tokens(w) {
		if m.From == 3 {
			if m.T != 22 || m.To != 4 {
				t.Errorf("3 passed the token %v, want to 4 at its exit, t=22", m)
			}
			break
		}
	}
	if w.Get(1, "has_token") == nil {
		t.Error("has_token unset")
	}
}

// TestMessagesToObtain: "It can take from 1 to n-1 messages to obtain a
// token", and none for the process holding it. A process at distance d from
// the holder waits for d TOKEN messages.
func TestMessagesToObtain(t *testing.T) {
	for _, n := range []int{2, 3, 5, 8} {
		for k := 1; k <= n; k++ {
			w := world(t, n, map[string]any{"hold": 50})
			w.Request(0, sim.NodeID(k), 1)
			var at sim.Time = -1
			w.Run(sim.Time(60 * n))
			for _, e := range w.Rec.Events {
				if e.Type == trace.State && e.Key == "cs" && e.New == "held" {
					at = sim.Time(e.T)
					break
				}
			}
			if at < 0 {
				t.Fatalf("n=%d: process %d never entered", n, k)
			}
			got := 0
			for _, m := range tokens(w) {
				if m.T <= at {
					got++
				}
			}
			if got != k-1 {
				t.Errorf("n=%d: process %d obtained the token with %d messages, want %d", n, k, got, k-1)
			}
		}
	}
}

// TestRequestWhileHoldingIdle: a request made while the token waits its hold
// delay enters at once, without a message.
func TestRequestWhileHoldingIdle(t *testing.T) {
	w := world(t, 3, map[string]any{"hold": 10})
	w.Request(5, 1, 3)
	w.Run(9)
	if got := w.Entries(); !slices.Equal(got, []sim.NodeID{1}) || w.Count("TOKEN") != 1 {
		t.Errorf("entries %v, TOKEN sends %v", got, tokens(w))
	}
	if first := tokens(w)[0]; first.T != 8 {
		t.Errorf("the token left 1 at t=%d, want at its exit, t=8", first.T)
	}
}

// TestBypass: "If a process fails, it needs to be detected and then
// by-passed": once the detector suspects 3, 2 passes the token to 4.
func TestBypass(t *testing.T) {
	// hold 1: the token reaches 2 at t=6, after the detector suspects 3
	w := world(t, 5, map[string]any{"holder": 4, "hold": 1})
	w.Crash(0, 3)
	w.Request(10, 4, 2)
	w.Run(60)
	for _, m := range tokens(w) {
		if m.To == 3 && m.T >= 5 {
			t.Errorf("token sent to the suspected 3: %v", m)
		}
	}
	if !strings.Contains(algotest.Pairs(tokens(w)), "2->4") {
		t.Errorf("3 not bypassed: %s", algotest.Pairs(tokens(w)))
	}
	if got := w.Entries(); !slices.Equal(got, []sim.NodeID{4}) {
		t.Errorf("entries %v", got)
	}
	if len(made(w)) != 0 {
		t.Errorf("tokens regenerated %v: the token was never lost", made(w))
	}
}

// TestHolderCrash: "If the process holding the token fails, a unique process
// has to be picked, which will regenerate the token and pass it along the
// ring; an election algorithm has to be run". 3 crashes in its critical
// section; the loss timeouts start a Chang-Roberts election; 5, the winner,
// alone makes generation 1; its sweep goes round, and every request is
// served, one process at a time.
func TestHolderCrash(t *testing.T) {
	w := world(t, 5, nil)
	w.Request(0, 3, 100)
	w.Crash(20, 3)
	requests := 0
	for _, id := range []sim.NodeID{1, 2, 4, 5} {
		w.Request(30, id, 3)
		w.Request(300, id, 3)
		requests += 2
	}
	w.Run(600)
	safe(t, w)
	if got := made(w); !slices.Equal(got, []Ident{{Gen: 1, By: 5}}) {
		t.Fatalf("tokens made %v, want one, generation 1 by 5", got)
	}
	if w.Count("ELECTION") == 0 || w.Count("ELECTED") == 0 {
		t.Error("no election ran")
	}
	if len(logs(w, 5, "regenerating the token as generation 1")) != 1 {
		t.Error("5 does not say it regenerates")
	}
	served(t, w, requests+1) // and 3's, before it crashed
	for _, id := range []sim.NodeID{1, 2, 4, 5} {
		if g := w.Get(id, "generation"); g != 1 {
			t.Errorf("process %d knows generation %v", id, g)
		}
	}
}

// TestTokenSentToCrashingProcess: the token is in flight to 2 when 2
// crashes: lost on arrival, regenerated once.
func TestTokenSentToCrashingProcess(t *testing.T) {
	w := world(t, 4, map[string]any{"hold": 0})
	w.Crash(1, 2) // the token left 1 at t=0 and arrives at t=1
	w.Request(20, 4, 2)
	w.Run(300)
	safe(t, w)
	if got := made(w); len(got) != 1 || got[0].By != 4 {
		t.Fatalf("tokens made %v, want one by 4", got)
	}
	served(t, w, 1)
}

// TestStaleTokenDiscarded: a generation-0 token that turns up after the
// regeneration is discarded by the first process that gets it.
func TestStaleTokenDiscarded(t *testing.T) {
	w := world(t, 4, nil)
	w.Crash(0, 1) // the boot holder
	w.Inject(400, 2, 3, Token{By: -1})
	w.Request(400, 3, 5)
	w.Run(500)
	safe(t, w)
	if len(made(w)) != 1 {
		t.Fatalf("tokens made %v", made(w))
	}
	if len(logs(w, 3, "stale token 0/-1 discarded")) != 1 {
		t.Error("3 does not discard the stale token")
	}
	served(t, w, 1)
}

// TestFalseSuspicion: a critical section longer than the loss timeout makes
// the others presume the token lost. The regenerated sweep waits at the
// process in the critical section, which drops the old token when it
// leaves: never two processes in the critical section.
func TestFalseSuspicion(t *testing.T) {
	w := world(t, 4, map[string]any{"timeout": 30})
	w.CommandArgs(0, 2, "request", nil) // until the release command
	for _, id := range []sim.NodeID{1, 3, 4} {
		w.Request(10, id, 2)
	}
	w.Command(200, 2, "release")
	w.Run(400)
	safe(t, w)
	if len(made(w)) == 0 {
		t.Fatal("no regeneration: the timeout did not fire")
	}
	if len(logs(w, 2, "waits for this critical section")) == 0 || len(logs(w, 2, "superseded")) == 0 {
		t.Error("the sweep did not wait for 2 to leave, or 2 kept the old token")
	}
	served(t, w, 4)
}

// TestRejoinElection: a recovered process starts an election when it
// rejoins (t=110). The token is elsewhere during it, so the winner, 5,
// only waits for its own loss timeout; the token reaches it long before,
// and no token is made.
func TestRejoinElection(t *testing.T) {
	w := world(t, 5, map[string]any{"hold": 10})
	w.Crash(33, 3) // just after it passed the token on, at t=32
	w.Recover(100, 3)
	w.Request(130, 3, 2)
	w.Run(600)
	safe(t, w)
	if w.Count("ELECTION") == 0 {
		t.Fatal("no rejoin election")
	}
	if len(logs(w, 5, "elected: regenerating the token if none comes")) != 1 {
		t.Error("5 does not say it waits for its own timeout")
	}
	if got := made(w); len(got) != 0 {
		t.Errorf("tokens made %v: the token was never lost", got)
	}
	served(t, w, 1)
}

// TestRecovery: a recovered process rejoins the ring and is served; what
// it knew of the generation survives its crash.
func TestRecovery(t *testing.T) {
	w := world(t, 4, nil)
	w.Crash(100, 4)
	w.Crash(300, 2)
	w.Recover(400, 4)
	w.Recover(420, 2)
	for _, id := range []sim.NodeID{1, 2, 3, 4} {
		w.Request(500, id, 3)
	}
	w.Run(900)
	safe(t, w)
	served(t, w, 4)
}

// TestSoak: random rings, latencies and workloads on reordering links, with
// crashes and recoveries in half the seeds and loss timeouts often shorter
// than a round (false suspicions): at most one process in the critical
// section at every event, and every request of a process that never
// crashed served.
func TestSoak(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		r := sim.Stream(seed, "tokenring.soak", 0)
		n := 2 + r.IntN(9)
		ids := make([]sim.NodeID, n)
		for i, k := range r.Perm(n) {
			ids[i] = sim.NodeID(k + 1)
		}
		lat := 1 + r.IntN(6)
		link := sim.Link{Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(lat)}}
		w := algotest.New(t, algotest.Setup{Algo: "mutex.tokenring", IDs: ids, Link: link, Seed: seed, Detect: sim.Duration(lat + r.IntN(10)),
			Config: map[string]any{"hop": lat, "hold": r.IntN(3), "timeout": r.IntN(2) * r.IntN(60)}})
		const horizon = 400
		down := map[sim.NodeID]bool{} // ever crashed: its requests may die with it
		if seed%2 == 0 {
			for range 1 + r.IntN(2) {
				id := ids[r.IntN(n)]
				at := sim.Time(r.IntN(horizon))
				if down[id] {
					continue
				}
				down[id] = true
				w.Crash(at, id)
				if r.IntN(2) == 0 {
					w.Recover(at+sim.Time(1+r.IntN(100)), id)
				}
			}
		}
		want := 0
		for _, id := range ids {
			for range r.IntN(5) {
				at, d := sim.Time(r.IntN(horizon)), 1+r.IntN(6)
				w.At(at, func() {
					if w.Up(id) {
						if err := w.Sim.Command(id, "request", sim.Args{"duration": d}); err != nil {
							t.Error(err)
						}
					}
				})
				if !down[id] {
					want++
				}
			}
		}
		w.Run(horizon * 6)
		if err := w.Exclusive(); err != nil {
			t.Fatalf("seed %d (ids %v): %v", seed, ids, err)
		}
		got := 0
		for _, id := range w.Entries() {
			if !down[id] {
				got++
			}
		}
		var waiting []sim.NodeID
		for _, id := range w.Pending() {
			if !down[id] {
				waiting = append(waiting, id)
			}
		}
		if got != want || len(waiting) > 0 {
			t.Fatalf("seed %d (ids %v): %d of %d requests of processes that never crashed served, waiting: %v", seed, ids, got, want, waiting)
		}
	}
}
