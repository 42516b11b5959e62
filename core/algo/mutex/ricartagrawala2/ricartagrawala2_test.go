package ricartagrawala2

import (
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

func world(t *testing.T, ids []sim.NodeID, cfg map[string]any) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "mutex.ricartagrawala2", IDs: ids, Config: cfg, Detect: 0})
}

func messages(w *algotest.World) int { return w.Count("REQUEST") + w.Count("TOKEN") }

// TestUncontended: one request costs n messages, n-1 REQUEST and one TOKEN,
// and none when the requester already holds the token (the lecture notes
// "Synchronization, Coordination and Agreement", "Ricart-Agrawala Second
// Algorithm": "it requires n messages for entering a CS").
func TestUncontended(t *testing.T) {
	for _, n := range []int{2, 3, 5, 8, 13} {
		w := world(t, algotest.IDs(n), nil)
		w.Request(0, sim.NodeID(n), 1)
		w.Run(0)
		w.CheckEntries(sim.NodeID(n))
		if got := messages(w); got != n {
			t.Errorf("n=%d: %d messages (%d REQUEST, %d TOKEN), want n", n, got, w.Count("REQUEST"), w.Count("TOKEN"))
		}
		// Again, now holding the token: no message at all.
		w.Request(w.Now()+1, sim.NodeID(n), 1)
		w.Run(0)
		if got := messages(w); got != n {
			t.Errorf("n=%d: the holder's second entry sent %d messages", n, got-n)
		}
		w.CheckEntries(sim.NodeID(n), sim.NodeID(n))
	}
}

// TestRI1: one process starts TOKEN-PRESENT, the others NO-TOKEN; by
// default the first in ring order, else the configured holder.
func TestRI1(t *testing.T) {
	for _, c := range []struct {
		ids    []sim.NodeID
		cfg    map[string]any
		holder sim.NodeID
	}{
		{ids: algotest.IDs(4), holder: 1},
		{ids: []sim.NodeID{4, 2, 7}, holder: 4},
		{ids: algotest.IDs(4), cfg: map[string]any{"holder": 3}, holder: 3},
		{ids: algotest.IDs(4), cfg: map[string]any{"holder": 99}, holder: 1}, // names no process
	} {
		w := world(t, c.ids, c.cfg)
		w.Run(0)
		for _, id := range c.ids {
			want, has := NoToken, false
			if id == c.holder {
				want, has = TokenPresent, true
			}
			if got := w.Get(id, KeyState); got != want || w.Get(id, "has_token") != has {
				t.Errorf("ids %v cfg %v: %d is %v (has_token %v), want %s", c.ids, c.cfg, id, got, w.Get(id, "has_token"), want)
			}
		}
	}
}

// TestRA1: a NO-TOKEN process sends REQUEST(clock, i) to every other
// process and enters, TOKEN-HELD, when the TOKEN comes; RH2: the idle
// holder releases it at once.
func TestRA1(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Request(0, 2, 5)
	w.Run(3)
	if got := algotest.Pairs(w.Sends("REQUEST")); got != "2->3 2->1" {
		t.Errorf("REQUEST %s, want 2->3 2->1 (ring order from the successor)", got)
	}
	if m := w.Sends("REQUEST")[0].Msg.(Request); m != (Request{TS: 1, ID: 2}) {
		t.Errorf("REQUEST %+v, want (1, 2)", m)
	}
	tok := w.Sends("TOKEN")
	if len(tok) != 1 || tok[0].T != 1 || tok[0].From != 1 || tok[0].To != 2 {
		t.Fatalf("TOKEN sends %v, want 1->2 at t=1 (RH2)", tok)
	}
	// RR2 set token[1] to 1's clock, which REQUEST(1, 2) advanced to 2.
	if got := tok[0].Msg.(Token).Token; got[1] != 2 || got[2] != 0 || got[3] != 0 {
		t.Errorf("token %v, want token[1]=2, others 0", got)
	}
	if w.Get(2, KeyState) != TokenHeld || w.Get(2, "cs") != "held" || w.Get(1, KeyState) != NoToken {
		t.Errorf("2 is %v/%v, 1 is %v; want TOKEN-HELD/held and NO-TOKEN", w.Get(2, KeyState), w.Get(2, "cs"), w.Get(1, KeyState))
	}
	w.Run(0)
	if w.Get(2, KeyState) != TokenPresent {
		t.Errorf("after the CS 2 is %v, want TOKEN-PRESENT (RR1, no request pending)", w.Get(2, KeyState))
	}
}

// TestRH2HeldWaits: a request reaching a TOKEN-HELD process is only
// recorded (RH1); the token leaves when the critical section ends (RR2).
func TestRH2HeldWaits(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Request(0, 1, 10)
	w.Request(2, 3, 1)
	w.Run(0)
	w.CheckEntries(1, 3)
	if tok := w.Sends("TOKEN"); len(tok) != 1 || tok[0].T != 10 {
		t.Errorf("TOKEN %v, want one at t=10, when 1 leaves", tok)
	}
	if got := messages(w); got != 3 {
		t.Errorf("%d messages, want 3: the holder's entry is free, 3's costs n", got)
	}
}

// TestRH1: request[j] keeps the maximum, so a stale REQUEST arriving late
// cannot hide a pending one. 3 holds the token with token[2] = 4 (2's clock
// when it last released it); REQUEST(6, 2) then a stale REQUEST(2, 2)
// arrive; at the end of 3's critical section 2 is still pending (6 > 4)
// and gets the token although it no longer wants it: it keeps it,
// TOKEN-PRESENT.
func TestRH1(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Request(0, 2, 1) // 2 gets the token, leaves at t=3 with token[2] = 1
	w.Request(5, 3, 10)
	w.Inject(8, 2, 3, Request{TS: 6, ID: 2})
	w.Inject(10, 2, 3, Request{TS: 2, ID: 2})
	w.Run(0)
	w.CheckEntries(2, 3)
	tok := w.Sends("TOKEN")
	if got := algotest.Pairs(tok); got != "1->2 2->3 3->2" {
		t.Fatalf("TOKEN %s, want 1->2 2->3 3->2", got)
	}
	if tok[1].Msg.(Token).Token[2] != 4 || tok[2].T != 17 {
		t.Errorf("token[2]=%d, last TOKEN at t=%d; want 4 and t=17", tok[1].Msg.(Token).Token[2], tok[2].T)
	}
	if w.Get(2, KeyState) != TokenPresent || w.Get(2, "cs") != "released" {
		t.Errorf("2 is %v/%v, want TOKEN-PRESENT/released", w.Get(2, KeyState), w.Get(2, "cs"))
	}
}

// TestRR2Order is the notes' search order worked through: holder 3 is in
// its critical section while 2, 1 and 5 ask (in that order, so by
// timestamp 2 first). RR2 searches 4, 5, 1, 2 from 3, so 5 comes next;
// from 5 it searches 1, 2, 3, 4, so 1; from 1, 2. Three entries through
// the network cost 3n messages.
func TestRR2Order(t *testing.T) {
	w := world(t, algotest.IDs(5), map[string]any{"holder": 3})
	w.Request(0, 3, 10)
	w.Request(1, 2, 2)
	w.Request(2, 1, 2)
	w.Request(3, 5, 2)
	w.Run(0)
	w.CheckEntries(3, 5, 1, 2)
	if got := algotest.Pairs(w.Sends("TOKEN")); got != "3->5 5->1 1->2" {
		t.Errorf("TOKEN %s, want 3->5 5->1 1->2", got)
	}
	if got := messages(w); got != 15 {
		t.Errorf("%d messages, want 3 x n = 15", got)
	}
}

// TestRR2NumericOrder: "j is searched in order [i+1, i+2, ..., n, 1, 2,
// ..., i-1]" (the lecture notes "Synchronization, Coordination and
// Agreement", "Ricart-Agrawala Second Algorithm") is the numeric order of the ids, whatever order the processes
// are listed in: on the ring 1, 3, 2 the token goes from 1 to 2 (the ring
// order would give 3), and on the ring 5, 2, 4, 1, 3 from 4 to 5, then 1,
// then 2 (the ring order from 4 is 1, 3, 5, 2).
func TestRR2NumericOrder(t *testing.T) {
	for _, c := range []struct {
		ids     []sim.NodeID
		holder  sim.NodeID
		ask     []sim.NodeID
		entries []sim.NodeID
		tokens  string
	}{
		{ids: []sim.NodeID{1, 3, 2}, holder: 1, ask: []sim.NodeID{2, 3}, entries: []sim.NodeID{1, 2, 3}, tokens: "1->2 2->3"},
		{ids: []sim.NodeID{1, 3, 2}, holder: 1, ask: []sim.NodeID{3, 2}, entries: []sim.NodeID{1, 2, 3}, tokens: "1->2 2->3"},
		{ids: []sim.NodeID{5, 2, 4, 1, 3}, holder: 4, ask: []sim.NodeID{2, 5, 1}, entries: []sim.NodeID{4, 5, 1, 2}, tokens: "4->5 5->1 1->2"},
		{ids: []sim.NodeID{30, 10, 20}, holder: 20, ask: []sim.NodeID{10, 30}, entries: []sim.NodeID{20, 30, 10}, tokens: "20->30 30->10"},
	} {
		w := world(t, c.ids, map[string]any{"holder": int(c.holder)})
		w.Request(0, c.holder, 10)
		for _, id := range c.ask {
			w.Request(1, id, 1)
		}
		w.Run(0)
		w.CheckEntries(c.entries...)
		if got := algotest.Pairs(w.Sends("TOKEN")); got != c.tokens {
			t.Errorf("ids %v: TOKEN %s, want %s", c.ids, got, c.tokens)
		}
	}
}

// TestCrashedNonHolder checks the notes' claim: "the failure of a process,
// except the one which holds the token, doesn't prevent progress". 4 is
// down from the start and 2 crashes while waiting for the token; RR2
// passes 2 over and every other request is served.
func TestCrashedNonHolder(t *testing.T) {
	w := world(t, algotest.IDs(5), nil)
	w.Crash(0, 4)
	w.Request(0, 1, 10)
	w.Request(1, 2, 1)
	w.Request(1, 3, 1)
	w.Request(1, 5, 1)
	w.Crash(5, 2)
	w.Request(20, 3, 1)
	w.Request(20, 1, 1)
	w.Run(0)
	w.CheckEntries(1, 3, 5, 3, 1)
	if p := w.Pending(); len(p) != 0 {
		t.Errorf("still waiting: %v", p)
	}
}

// TestHolderCrash: the token dies with its holder and nobody regenerates
// it; a recovered holder starts NO-TOKEN.
func TestHolderCrash(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Crash(0, 1)
	w.Recover(2, 1)
	w.Request(5, 2, 1)
	w.Run(0)
	if len(w.Entries()) != 0 || w.Get(1, KeyState) != NoToken {
		t.Errorf("entries %v, 1 is %v; want none and NO-TOKEN", w.Entries(), w.Get(1, KeyState))
	}
	if p := w.Pending(); !slices.Equal(p, []sim.NodeID{2}) {
		t.Errorf("waiting %v, want [2]", p)
	}
}

// TestSoak: random workloads on reordering links.
func TestSoak(t *testing.T) { algotest.Soak(t, "mutex.ricartagrawala2", 300) }
