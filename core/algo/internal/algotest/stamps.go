package algotest

import (
	"fmt"

	"dsim/core/algo/mutex"
	"dsim/core/sim"
	"dsim/core/trace"
)

// Stamped is one entry into the critical section of a timestamped
// algorithm, with the req_ts of the request it served.
type Stamped struct {
	T     int64
	Stamp mutex.Stamp
}

func (e Stamped) String() string { return fmt.Sprintf("t=%d %d(ts=%d)", e.T, e.Stamp.ID, e.Stamp.TS) }

// stamps walks the state events of a timestamped algorithm, calling f at
// every change of cs or req_ts with the process's current request stamp.
func (w *World) stamps(f func(e *trace.Event, s mutex.Stamp)) {
	ts := map[int]int{}
	for i := range w.Rec.Events {
		e := &w.Rec.Events[i]
		switch {
		case e.Type != trace.State:
		case e.Key == mutex.KeyStamp:
			ts[e.Node] = e.New.(int)
			fallthrough
		case e.Key == mutex.KeyCS:
			f(e, mutex.Stamp{TS: ts[e.Node], ID: sim.NodeID(e.Node)})
		}
	}
}

// StampedEntries lists the critical-section entries in trace order.
func (w *World) StampedEntries() []Stamped {
	var out []Stamped
	w.stamps(func(e *trace.Event, s mutex.Stamp) {
		if e.Key == mutex.KeyCS && e.New == mutex.Held {
			out = append(out, Stamped{T: e.T, Stamp: s})
		}
	})
	return out
}

// OrderViolation reports the first entry made while another process waited
// with a request of smaller (req_ts, id): the promise of the timestamped
// algorithms for every request already made when the entry happens.
func (w *World) OrderViolation() error {
	waiting := map[sim.NodeID]mutex.Stamp{}
	var err error
	w.stamps(func(e *trace.Event, s mutex.Stamp) {
		_, wanted := waiting[s.ID]
		delete(waiting, s.ID)
		switch {
		case err != nil:
		case e.Key == mutex.KeyStamp:
			// req_ts is set just after cs becomes wanted.
			if wanted {
				waiting[s.ID] = s
			}
		case e.New == mutex.Wanted:
			waiting[s.ID] = s
		case e.New == mutex.Held:
			for _, id := range w.IDs() {
				if other, ok := waiting[id]; ok && other.Less(s) {
					err = fmt.Errorf("t=%d seq=%d: %d entered with %v while %d waited with %v", e.T, e.Seq, s.ID, s, id, other)
					return
				}
			}
		}
	})
	return err
}

// RandomRequests gives each process count requests, each holding the
// critical section for 1..maxCS ticks, at times drawn uniformly in
// [0, horizon) from the seed. It returns the number of requests made.
func (w *World) RandomRequests(seed uint64, count int, horizon sim.Time, maxCS int) int {
	r := sim.Stream(seed, "algotest.requests", 0)
	made := 0
	for _, id := range w.IDs() {
		for range count {
			w.CommandArgs(sim.Time(r.Int64N(int64(horizon))), id, "request", sim.Args{"duration": 1 + r.IntN(maxCS)})
			made++
		}
	}
	return made
}
