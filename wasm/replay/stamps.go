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
	if r.lamport == nil {
		c := make([]int, len(r.Events))
		r.stamp(false, func(i, l int, _ []int32) { c[i] = l })
		r.lamport = c
	}
	return r.lamport
}

// Vector is each event's vector timestamp, entries by process position
// (nil for an event without one), or false past MaxVector processes.
func (r *Replay) Vector() ([][]int32, bool) {
	if len(r.Nodes) > MaxVector {
		return nil, false
	}
	if r.vector == nil {
		v := make([][]int32, len(r.Events))
		r.stamp(true, func(i, _ int, x []int32) { v[i] = x })
		r.vector = v
	}
	return r.vector, true
}

// stamp puts each event's timestamps, and then the zero ones of a timer or
// a command whose first send stood for it.
func (r *Replay) stamp(vector bool, put func(i, l int, v []int32)) {
	st := trace.NewStamper(len(r.Nodes), vector)
	for i := range r.Events {
		l, v, _ := st.Stamp(&r.Events[i], int(r.nodeOf[i]))
		put(i, l, v)
		if seq, ok := st.Absorbed(); ok {
			if j, ok := r.IndexOfSeq(seq); ok {
				put(j, 0, nil)
			}
		}
	}
}
