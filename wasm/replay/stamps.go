package replay

// Logical timestamps of the events of the world shown, for the diagram (see
// trace.Stamper).

import "dsim/core/trace"

// MaxVector is the most processes whose vector timestamps are kept: a
// vector of more entries would not fit beside an event anyway.
const MaxVector = 16

// Lamport is each event's Lamport timestamp: one more than the larger of
// its process's previous event's and, for a delivery, its send's (0 for
// an event without one: see trace.Stamped, and a timer or a command whose
// first send stands for it, trace.Stamper.Absorbed).
func (r *Replay) Lamport() []int {
	if r.lamport != nil {
		return r.lamport
	}
	c := make([]int, len(r.Events))
	st := trace.NewStamper(len(r.Nodes), false)
	cause := 0
	for i := range r.Events {
		c[i], _, _ = st.Stamp(&r.Events[i], int(r.nodeOf[i]))
		if st.Absorbed() {
			c[cause] = 0 // its send stands for it
		}
		if t := r.Events[i].Type; t == trace.Timer || t == trace.Command {
			cause = i
		}
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
	st := trace.NewStamper(len(r.Nodes), true)
	cause := 0
	for i := range r.Events {
		_, v[i], _ = st.Stamp(&r.Events[i], int(r.nodeOf[i]))
		if st.Absorbed() {
			v[cause] = nil // its send stands for it
		}
		if t := r.Events[i].Type; t == trace.Timer || t == trace.Command {
			cause = i
		}
	}
	r.vector = v
	return v, true
}
