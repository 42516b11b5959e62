package algotest

import (
	"errors"
	"fmt"
	"slices"

	"dsim/core/algo/mutex"
	"dsim/core/check"
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

// StampedEntries lists the critical-section entries in trace order.
func (w *World) StampedEntries() []Stamped {
	var out []Stamped
	ts := map[int]int{}
	for _, e := range w.Rec.Events {
		switch {
		case e.Type != trace.State:
		case e.Key == mutex.KeyStamp:
			ts[e.Node] = e.New.(int)
		case e.Key == mutex.KeyCS && e.New == mutex.Held:
			out = append(out, Stamped{T: e.T, Stamp: mutex.Stamp{TS: ts[e.Node], ID: sim.NodeID(e.Node)}})
		}
	}
	return out
}

// CheckStampedEntries fails the test unless the entries, written as
// Stamped.String gives them ("t=2 1(ts=1)"), are want in order.
func (w *World) CheckStampedEntries(want ...string) {
	w.t.Helper()
	var got []string
	for _, e := range w.StampedEntries() {
		got = append(got, e.String())
	}
	if !slices.Equal(got, want) {
		w.t.Errorf("entries %v, want %v", got, want)
	}
}

// Judge runs core/check's checkers of the named properties over the
// recorded trace and returns the first failure, naming the property.
func (w *World) Judge(names ...string) error {
	m := check.New()
	for i := range w.Rec.Events {
		m.Observe(&w.Rec.Events[i])
	}
	for _, name := range names {
		v, err := m.Check(name, int64(w.Now()))
		if err != nil {
			return err
		}
		if !v.Pass {
			return errors.New(v.Text)
		}
	}
	return nil
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
