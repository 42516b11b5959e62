package algotest

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo/mutex"
	"dsim/core/sim"
	"dsim/core/trace"
)

// Request gives id the request command at time t, asking to hold the
// critical section d ticks (d <= 0: until the release command).
func (w *World) Request(t sim.Time, id sim.NodeID, d int) {
	args := sim.Args{}
	if d > 0 {
		args["duration"] = d
	}
	w.CommandArgs(t, id, "request", args)
}

// CheckEntries fails the test unless the processes entered the critical
// section in the order want, and never two at once.
func (w *World) CheckEntries(want ...sim.NodeID) {
	w.t.Helper()
	if got := w.Entries(); !slices.Equal(got, want) {
		w.t.Errorf("entries %v, want %v", got, want)
	}
	if err := w.Exclusive(); err != nil {
		w.t.Error(err)
	}
}

// Entries lists, in order, the processes that entered the critical section
// (state cs became "held").
func (w *World) Entries() []sim.NodeID {
	var out []sim.NodeID
	for _, e := range w.Rec.Events {
		if e.Type == trace.State && e.Key == mutex.KeyCS && e.New == mutex.Held {
			out = append(out, sim.NodeID(e.Node))
		}
	}
	return out
}

// Exclusive reports the first event after which two processes were in the
// critical section at once; a crash takes a process out of it.
func (w *World) Exclusive() error {
	who, busy := 0, false
	for _, e := range w.Rec.Events {
		switch {
		case e.Type == trace.Crash || e.Type == trace.State && e.Key == mutex.KeyCS && e.New != mutex.Held:
			if busy && who == e.Node {
				busy = false
			}
		case e.Type == trace.State && e.Key == mutex.KeyCS:
			if busy {
				return fmt.Errorf("t=%d seq=%d: %d entered the critical section while %d was in it", e.T, e.Seq, e.Node, who)
			}
			who, busy = e.Node, true
		}
	}
	return nil
}

// Pending lists the live processes still waiting for the critical section
// (cs "wanted") or holding requests in their backlog at the end of the run.
func (w *World) Pending() []sim.NodeID {
	var out []sim.NodeID
	for _, id := range w.IDs() {
		if !w.Up(id) {
			continue
		}
		if w.Get(id, mutex.KeyCS) == mutex.Wanted || (w.Get(id, mutex.KeyBacklog) != nil && w.Get(id, mutex.KeyBacklog) != 0) {
			out = append(out, id)
		}
	}
	return out
}

// Soak runs seeds random worlds of a mutual exclusion algorithm on its own
// topology: 2 to 12 processes with shuffled ids, latencies uniform in 1..k
// on links that reorder, every process making a few requests at random
// times with random durations. At every event at most one process may be in
// the critical section, and by the end every request must have been served.
func Soak(t *testing.T, algo string, seeds int) {
	t.Helper()
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		r := sim.Stream(seed, "soak", 0)
		n := 2 + r.IntN(11)
		ids := make([]sim.NodeID, n)
		for i, k := range r.Perm(n) {
			ids[i] = sim.NodeID(k + 1)
		}
		link := sim.Link{Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + r.IntN(8))}}
		w := New(t, Setup{Algo: algo, IDs: ids, Link: link, Seed: seed})
		requests := 0
		for _, id := range ids {
			for range r.IntN(4) {
				w.CommandArgs(sim.Time(r.IntN(100)), id, "request", sim.Args{"duration": 1 + r.IntN(6)})
				requests++
			}
		}
		w.Run(0)
		if err := w.Exclusive(); err != nil {
			t.Fatalf("seed %d (ids %v): %v", seed, ids, err)
		}
		if got := len(w.Entries()); got != requests || len(w.Pending()) > 0 {
			t.Fatalf("seed %d (ids %v): %d of %d requests served, still waiting: %v", seed, ids, got, requests, w.Pending())
		}
	}
}

// CheckSecondTokenDropped is the test of a token algorithm (token, a TOKEN
// with every process's entry 0) for a copy of the token: injected at 1
// during its critical section, while 2 waits, it is dropped with the log
// line "a second token, dropped", and 1 then 2 enter, never together. Taken,
// the copy was passed on from inside the critical section.
func CheckSecondTokenDropped(t *testing.T, algo string, token sim.Message) {
	t.Helper()
	w := New(t, Setup{Algo: algo, IDs: IDs(3)})
	w.Request(0, 1, 6) // 1 holds the token: in its critical section t=0..6
	w.Request(1, 2, 1)
	w.Inject(3, 3, 1, token)
	w.Run(0)
	w.CheckEntries(1, 2)
	w.CheckLogged(1, "a second token, dropped")
}

// CheckZeroToken is the test of a token algorithm for a TOKEN whose maps
// and lists are Go zero values (as a hand-made one can be): it takes the
// place of the lost one, whose holder 1 crashed, and serves 2 then 3.
func CheckZeroToken(t *testing.T, algo string, token sim.Message) {
	t.Helper()
	w := New(t, Setup{Algo: algo, IDs: IDs(3)})
	w.Crash(0, 1) // the first holder, and its token, are gone
	w.Inject(1, 1, 2, token)
	w.Request(3, 2, 2)
	w.Request(10, 3, 2)
	w.Run(0)
	w.CheckEntries(2, 3)
}
