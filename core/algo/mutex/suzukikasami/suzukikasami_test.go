package suzukikasami

import (
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

func world(t *testing.T, ids []sim.NodeID, cfg map[string]any) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "mutex.suzukikasami", IDs: ids, Config: cfg})
}

func messages(w *algotest.World) int { return w.Count("REQUEST") + w.Count("TOKEN") }

// TestUncontended: n messages per entry (n-1 REQUEST, one TOKEN), none
// when the requester holds the idle token.
func TestUncontended(t *testing.T) {
	for _, n := range []int{2, 3, 5, 8, 13} {
		w := world(t, algotest.IDs(n), nil)
		w.Request(0, 2, 1)
		w.Run(0)
		if got := messages(w); got != n {
			t.Errorf("n=%d: %d messages, want n", n, got)
		}
		w.Request(w.Now()+1, 2, 1)
		w.Run(0)
		if got := messages(w); got != n {
			t.Errorf("n=%d: the holder's second entry sent %d messages", n, got-n)
		}
		w.CheckEntries(2, 2)
	}
}

// TestRequest: a process without the token increments RN[i] and sends
// REQUEST(i, RN[i]) to all; the idle holder answers an outstanding request
// (RN[j] = LN[j]+1) with the token at once.
func TestRequest(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Request(0, 3, 1)
	w.Request(5, 3, 1)
	w.Run(0)
	if got := algotest.Pairs(w.Sends("REQUEST")); got != "3->1 3->2" {
		t.Errorf("REQUEST %s, want 3->1 3->2 once (the second entry holds the token)", got)
	}
	tok := w.Sends("TOKEN")
	if len(tok) != 1 || tok[0].T != 1 || tok[0].From != 1 {
		t.Fatalf("TOKEN %v, want 1->3 at t=1", tok)
	}
	if m := w.Sends("REQUEST")[0].Msg.(Request); m != (Request{ID: 3, SN: 1}) {
		t.Errorf("REQUEST %+v, want (3, 1)", m)
	}
	if w.Get(3, KeySN) != 1 || w.Get(3, "has_token") != true || w.Get(1, "has_token") != false {
		t.Errorf("sn %v, has_token 3:%v 1:%v", w.Get(3, KeySN), w.Get(3, "has_token"), w.Get(1, "has_token"))
	}
}

// TestSequenceNumbers: RN keeps the maximum and LN tells served requests
// from outstanding ones. 2's first request is served (LN[2] = 1); then,
// while 1 holds the token in its critical section, REQUEST(2, 2) and a
// stale REQUEST(2, 1) arrive: at the release RN[2] = 2 = LN[2]+1, so 2 is
// queued and gets the token. A stale REQUEST(2, 1) reaching an idle holder
// moves nothing.
func TestSequenceNumbers(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Request(0, 2, 1) // served t=2..3; 2 keeps the token
	w.Request(5, 1, 10)
	w.Inject(7, 2, 1, Request{ID: 2, SN: 2})
	w.Inject(8, 2, 1, Request{ID: 2, SN: 1})
	w.Run(0)
	tok := w.Sends("TOKEN")
	if got := algotest.Pairs(tok); got != "1->2 2->1 1->2" || tok[2].T != 17 {
		t.Fatalf("TOKEN %v, want 1->2 2->1 1->2, the last at t=17", tok)
	}
	if m := tok[2].Msg.(Token); m.LN[2] != 1 || m.LN[1] != 1 || len(m.Q) != 0 {
		t.Errorf("token %+v, want LN[1]=LN[2]=1 and Q empty", m)
	}
	// 2 holds it idle now; a stale request is not outstanding.
	w.Inject(w.Now()+1, 3, 2, Request{ID: 3, SN: 0})
	w.Run(0)
	if w.Count("TOKEN") != 3 {
		t.Errorf("a stale REQUEST moved the token: %s", algotest.Pairs(w.Sends("TOKEN")))
	}
}

// TestQueue works a contended run through: 1 is in its critical section
// while 3, 5 and 2 ask. At 1's release every outstanding request joins Q
// in ring order from 2: Q = [2 3 5], and 2 gets the token. 4 asks while 2
// is in its critical section: at 2's release it joins the end of Q, behind
// 3 and 5, which the queue keeps first although 4 comes before 5 in the
// ring. Four entries through the network cost 4n messages.
func TestQueue(t *testing.T) {
	w := world(t, algotest.IDs(5), nil)
	w.Request(0, 1, 10)
	w.Request(1, 3, 2)
	w.Request(2, 5, 2)
	w.Request(3, 2, 2)
	w.Request(11, 4, 2)
	w.Run(0)
	w.CheckEntries(1, 2, 3, 5, 4)
	tok := w.Sends("TOKEN")
	var queues [][]sim.NodeID
	for _, m := range tok {
		queues = append(queues, m.Msg.(Token).Q)
	}
	want := [][]sim.NodeID{{3, 5}, {5, 4}, {4}, nil}
	for i := range want {
		if i >= len(queues) || !slices.Equal(queues[i], want[i]) {
			t.Fatalf("queues carried %v, want %v", queues, want)
		}
	}
	if got := messages(w); got != 20 {
		t.Errorf("%d messages, want 4n = 20", got)
	}
}

// TestCrashedNonHolder: a crashed process that does not hold the token
// does not stop the others; a suspected head of Q is dropped from it.
func TestCrashedNonHolder(t *testing.T) {
	w := world(t, algotest.IDs(5), nil)
	w.Crash(0, 4)
	w.Request(0, 1, 10)
	w.Request(1, 2, 1)
	w.Request(1, 3, 1)
	w.Crash(5, 2)
	w.Request(20, 5, 1)
	w.Run(0)
	w.CheckEntries(1, 3, 5)
	if p := w.Pending(); len(p) != 0 {
		t.Errorf("still waiting: %v", p)
	}
}

// TestHolderCrash: the token is lost with its holder.
func TestHolderCrash(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Crash(0, 1)
	w.Recover(2, 1)
	w.Request(5, 2, 1)
	w.Run(0)
	if p := w.Pending(); len(w.Entries()) != 0 || !slices.Equal(p, []sim.NodeID{2}) {
		t.Errorf("entries %v, waiting %v; want none and [2]", w.Entries(), p)
	}
}

// TestSoak: random workloads on reordering links.
func TestSoak(t *testing.T) { algotest.Soak(t, "mutex.suzukikasami", 300) }
