package replay

// Logical timestamps of the events of a run, computed from the trace alone
// (the lecture notes' "Lamport logical clock" and "vector clocks", whatever
// the algorithm under study keeps): the page shows them on the diagram.
// The events are those of the texts' model: a send, a receive (delivery),
// and the internal events a process is handed (a timer, a command, a crash
// or a recovery); a delivery also follows its message's send. State
// changes and log lines happen within those events and have no timestamp
// of their own, nor do events at no process.

import "dsim/core/trace"

// Stamped reports whether an event of type t has a timestamp.
func Stamped(t trace.Type) bool {
	switch t {
	case trace.Send, trace.Deliver, trace.Timer, trace.Command, trace.Crash, trace.Recover:
		return true
	}
	return false
}

// MaxVector is the most processes whose vector timestamps are kept: a
// vector of more entries would not fit beside an event anyway.
const MaxVector = 16

// Lamport is each event's Lamport timestamp: one more than the larger of
// its process's previous event's and, for a delivery, its send's (0 for
// an event without one, see Stamped).
func (r *Replay) Lamport() []int {
	if r.lamport != nil {
		return r.lamport
	}
	c := make([]int, len(r.Events))
	last := make([]int, len(r.Nodes))
	for i := range r.Events {
		p := r.nodeOf[i]
		if p < 0 || !Stamped(r.Events[i].Type) {
			continue
		}
		t := last[p]
		if s := r.recvOf[i]; s >= 0 {
			t = max(t, c[s])
		}
		c[i], last[p] = t+1, t+1
	}
	r.lamport = c
	return c
}

// Vector is each event's vector timestamp, entries by process position
// (nil for an event without one), or false past MaxVector processes.
func (r *Replay) Vector() ([][]int32, bool) {
	if len(r.Nodes) > MaxVector {
		return nil, false
	}
	if r.vector != nil {
		return r.vector, true
	}
	v := make([][]int32, len(r.Events))
	last := make([][]int32, len(r.Nodes))
	for i := range r.Events {
		p := r.nodeOf[i]
		if p < 0 || !Stamped(r.Events[i].Type) {
			continue
		}
		t := make([]int32, len(r.Nodes))
		copy(t, last[p])
		if s := r.recvOf[i]; s >= 0 {
			for k, x := range v[s] {
				t[k] = max(t[k], x)
			}
		}
		t[p]++
		v[i], last[p] = t, t
	}
	r.vector = v
	return v, true
}
