package script

import "dsim/core/trace"

// chunkSize is the number of events per recording chunk (about 1 MB).
const chunkSize = 1 << 12

// recording keeps a world's trace in fixed-size chunks. One growing slice
// would copy every event again at each doubling, with a write barrier per
// pointer, which cost more than the kernel's own work per event.
type recording struct {
	chunks [][]trace.Event
	n      int
}

func (r *recording) record(e *trace.Event) {
	if r.n%chunkSize == 0 {
		r.chunks = append(r.chunks, make([]trace.Event, 0, chunkSize))
	}
	last := &r.chunks[len(r.chunks)-1]
	*last = append(*last, *e)
	r.n++
}

func (r *recording) each(fn func(e *trace.Event)) {
	for _, c := range r.chunks {
		for i := range c {
			fn(&c[i])
		}
	}
}

// events returns the whole trace as one slice.
func (r *recording) events() []trace.Event {
	if len(r.chunks) == 1 {
		return r.chunks[0]
	}
	out := make([]trace.Event, 0, r.n)
	for _, c := range r.chunks {
		out = append(out, c...)
	}
	return out
}
