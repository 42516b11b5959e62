package check

import (
	"fmt"
	"slices"

	"dsim/core/algo/clock"
	"dsim/core/trace"
)

// The logical clock properties compare the clocks' timestamps with
// happened-before, which the checkers compute from the events alone: the
// order of a process's events, and each send with its deliveries (paired by
// message id; a duplicate shares its original's).
//
// The timestamped events are the changes of a process's clock state key
// (clock for Lamport, vclock for vector clocks): a clock changes at every
// event of its process, before the messages that event sends, so each
// change is one event of the clock's and its new value that event's
// timestamp. A key's first value, at boot or after a recovery (its old
// value is unset), is where the clock starts and timestamps nothing. A
// message follows the last timestamped event of its sender before the send,
// and precedes every timestamped event of its receiver after its delivery.
// A copy of a message (a duplicate) is delivered to the same process as its
// original, whose past already holds the message's: the checkers forget a
// message at its first delivery, and keep only those in flight (and those
// dropped).

// clockEvent names a timestamped event.
type clockEvent struct {
	node int
	at   mark
}

func (e clockEvent) String() string { return fmt.Sprintf("process %d's event at %s", e.node, e.at) }

// violation keeps the first violation of a property judged at every event
// and counts the later ones.
type violation struct {
	text string // "" none
	seq  uint64
	more int
}

func (v *violation) add(e *trace.Event, format string, args ...any) {
	if v.text != "" {
		v.more++
		return
	}
	v.text, v.seq = fmt.Sprintf("t=%d seq=%d: ", e.T, e.Seq)+fmt.Sprintf(format, args...), e.Seq
}

// lamportState judges clock.lamport. As < is transitive, C(a) < C(b) for
// every a → b follows from C growing along the edges happened-before is
// made of: from each event to the next one of its process, and from a
// message's send to the receiver's next event. So each process keeps only
// its floor, the largest timestamp of the events known to precede its next
// one, and each message the timestamp it carries in that sense.
type lamportState struct {
	procs  map[int]*lamportProc
	sent   map[uint64]stampedAt // by message id: the send's timestamped event
	events int
	bad    violation
}

// stampedAt is a timestamped event and its C.
type stampedAt struct {
	c  int
	ev clockEvent
}

type lamportProc struct {
	floor    stampedAt // the largest C that must be below the next event's
	hasFloor bool
	last     stampedAt // this process's last timestamped event
	hasLast  bool
}

func (s *lamportState) proc(id int) *lamportProc {
	p := s.procs[id]
	if p == nil {
		p = &lamportProc{}
		s.procs[id] = p
	}
	return p
}

func (s *lamportState) observe(e *trace.Event) {
	switch e.Type {
	case trace.Send:
		// Only a process with a timestamped event has one to pass on: a run
		// of another algorithm keeps nothing per message.
		if p := s.procs[e.Node]; p != nil && p.hasLast {
			s.sent[e.MsgID] = p.last
		}
	case trace.Deliver:
		// A copy of the message reaches the same process later, whose
		// floor only rises meanwhile: the first delivery is the last that
		// needs the record.
		if a, ok := s.sent[e.MsgID]; ok {
			s.proc(e.Node).raise(a)
			delete(s.sent, e.MsgID)
		}
	case trace.State:
		if e.Key == clock.KeyLamport && e.Old != nil {
			s.event(e)
		}
	}
}

func (p *lamportProc) raise(a stampedAt) {
	if !p.hasFloor || a.c > p.floor.c {
		p.floor, p.hasFloor = a, true
	}
}

func (s *lamportState) event(e *trace.Event) {
	s.events++
	p := s.proc(e.Node)
	c, ok := intOf(e.New)
	if !ok {
		s.bad.add(e, "process %d's clock is %s, not an integer", e.Node, trace.AppendJSON(nil, e.New))
		return
	}
	b := stampedAt{c, clockEvent{e.Node, mark{e.T, e.Seq}}}
	if p.hasFloor && c <= p.floor.c {
		s.bad.add(e, "process %d's event has C=%d, but %s happened before it and has C=%d", e.Node, c, p.floor.ev, p.floor.c)
	}
	p.last, p.hasLast = b, true
	p.raise(b)
}

func (m *Monitor) lamportClock(int64) (bool, string) {
	s := &m.lamport
	if s.bad.text != "" {
		return false, s.bad.text + more(s.bad.more)
	}
	procs := 0
	for _, p := range s.procs {
		if p.hasLast {
			procs++
		}
	}
	return true, fmt.Sprintf("C(a) < C(b) for every a → b among %d timestamped events at %d processes", s.events, procs)
}

// vectorState judges clock.vector. It keeps its own vector clock per
// process, counting timestamped events (hb[k]: how many events of the k-th
// process it saw happen before this process's next one), and every
// event's V. Then, for a new event b with past hb:
//
//   - "if a → b then V(a) < V(b)": as < is transitive and every earlier
//     event's check passed, it is enough that V(b) is above the latest
//     event of each process in b's past that was not in the past of the
//     previous event of b's process (whose own V is checked the same way);
//   - "if V(a) < V(b) then a → b", and the same the other way round, for
//     every event a not in b's past: V grows along each process's events,
//     so it is enough that V(b) is not above the first such event of each
//     process, nor below the last.
//
// That makes O(n) comparisons per event, each cut short where a correct
// clock tells the two apart, usually at the first entry looked at (the one
// that told this process's events apart last time). The memory is one
// vector per message in flight and the events' vectors (shared with the
// trace): those of each process from the first that a live process has not
// seen happen before its next event (every process's first value registers
// it, so that those yet to have an event count), the only ones a later event
// can be compared with.
type vectorState struct {
	procs      map[int]*vecProc
	order      []*vecProc         // by index in hb
	sent       map[uint64][]int32 // by message id: the sender's hb at the send
	events     int
	sincePrune int // events since the last prune
	bad        violation
}

type vecProc struct {
	id, ix int
	evs    []vecEvent // its timestamped events from the base-th (from 0) on, in order
	base   int
	// hb is its past, by process index, in int32s so that a message's
	// copy costs half; shared with the messages sent since it last
	// changed.
	hb     []int32
	shared bool
	fresh  []int // indices whose hb grew by a delivery since its last event
	down   bool  // crashed: its past holds back no pruning
	// hint is the entry that last told one of its events apart from
	// another event: where the next comparison looks first.
	hint int
}

// nth is its i-th timestamped event (from 0), unless pruned: only a process
// that was down at the pruning can ask for one that was.
func (q *vecProc) nth(i int) (vecEvent, bool) {
	if i < q.base || i >= q.count() {
		return vecEvent{}, false
	}
	return q.evs[i-q.base], true
}

// count is how many timestamped events it has had.
func (q *vecProc) count() int { return q.base + len(q.evs) }

type vecEvent struct {
	v  []int
	ev clockEvent
}

func (s *vectorState) proc(id int) *vecProc {
	p := s.procs[id]
	if p == nil {
		p = &vecProc{id: id, ix: len(s.order)}
		s.procs[id] = p
		s.order = append(s.order, p)
	}
	return p
}

func (s *vectorState) observe(e *trace.Event) {
	switch e.Type {
	case trace.Send:
		if p := s.procs[e.Node]; p != nil && p.hb != nil {
			s.sent[e.MsgID] = p.hb
			p.shared = true
		}
	case trace.Deliver:
		if h, ok := s.sent[e.MsgID]; ok {
			s.proc(e.Node).merge(h)
			delete(s.sent, e.MsgID)
		}
	case trace.Crash:
		if p := s.procs[e.Node]; p != nil {
			p.down = true
		}
	case trace.State:
		switch {
		case e.Key != clock.KeyVector:
		case e.Old == nil:
			s.proc(e.Node).down = false
		default:
			s.event(e)
		}
	}
}

// own makes hb this process's alone to change, at least n entries long.
func (p *vecProc) own(n int) {
	if p.shared || len(p.hb) < n {
		h := make([]int32, max(n, len(p.hb)))
		copy(h, p.hb)
		p.hb, p.shared = h, false
	}
}

func (p *vecProc) merge(h []int32) {
	for k, x := range h {
		if k >= len(p.hb) || x > p.hb[k] {
			p.own(len(h))
			p.hb[k] = x
			p.fresh = append(p.fresh, k)
		}
	}
}

func (s *vectorState) event(e *trace.Event) {
	s.events++
	p := s.proc(e.Node)
	v, ok := e.New.([]int)
	if !ok {
		s.bad.add(e, "process %d's vector clock is %s, not a list of integers", e.Node, trace.AppendJSON(nil, e.New))
		return
	}
	b := vecEvent{v, clockEvent{e.Node, mark{e.T, e.Seq}}}
	p.own(len(s.order))
	p.hb[p.ix]++
	// Before it: the previous event of its process, and the latest of
	// each process a delivery brought news of.
	if a, ok := p.nth(p.count() - 1); ok {
		s.before(e, a, b)
	}
	for _, k := range p.fresh {
		if a, ok := s.order[k].nth(int(p.hb[k]) - 1); ok && k != p.ix {
			s.before(e, a, b)
		}
	}
	p.fresh = p.fresh[:0]
	// Not before it: the events of other processes outside its past.
	for k, q := range s.order {
		seen := 0
		if k < len(p.hb) {
			seen = int(p.hb[k])
		}
		if q == p || seen >= q.count() {
			continue
		}
		if first, ok := q.nth(seen); ok && less(first.v, v, &q.hint) {
			s.bad.add(e, "process %d's event has V=%s, above V=%s of %s, which did not happen before it", e.Node, vecText(v), vecText(first.v), first.ev)
		}
		if last, _ := q.nth(q.count() - 1); less(v, last.v, &p.hint) {
			s.bad.add(e, "process %d's event has V=%s, below V=%s of %s, which it did not happen before", e.Node, vecText(v), vecText(last.v), last.ev)
		}
	}
	p.evs = append(p.evs, b)
	// A prune every n events costs O(n) per event.
	if s.sincePrune++; s.sincePrune >= len(s.order) {
		s.sincePrune = 0
		s.prune()
	}
}

// prune forgets, at each process, the events before the first that some
// live process has not seen happen before its next event: no later event
// of a live process is compared with them. Each process's last event stays,
// which its next one is compared with. The events are copied rather than
// resliced, so that their memory goes, once half of them can.
func (s *vectorState) prune() {
	for k, q := range s.order {
		low := q.count() - 1
		for _, p := range s.order {
			if p.down {
				continue
			}
			seen := 0
			if k < len(p.hb) {
				seen = int(p.hb[k])
			}
			low = min(low, seen)
		}
		if drop := low - q.base; drop > 0 && 2*drop >= len(q.evs) {
			q.evs = slices.Clone(q.evs[drop:])
			q.base = low
		}
	}
}

// before checks V(a) < V(b) for a → b.
func (s *vectorState) before(e *trace.Event, a, b vecEvent) {
	hint := 0
	if !less(a.v, b.v, &hint) {
		s.bad.add(e, "process %d's event has V=%s, not above V=%s of %s, which happened before it", e.Node, vecText(b.v), vecText(a.v), a.ev)
	}
}

// less reports whether a < b: as long, every entry <=, and not equal. It
// looks at entry *hint first, and leaves there an entry where a is above b
// when it finds one.
func less(a, b []int, hint *int) bool {
	if len(a) != len(b) {
		return false
	}
	if k := *hint; k < len(a) && a[k] > b[k] {
		return false
	}
	below := false
	for k := range a {
		if a[k] > b[k] {
			*hint = k
			return false
		}
		below = below || a[k] < b[k]
	}
	return below
}

func vecText(v []int) string { return string(trace.AppendJSON(nil, v)) }

func (m *Monitor) vectorClock(int64) (bool, string) {
	s := &m.vector
	if s.bad.text != "" {
		return false, s.bad.text + more(s.bad.more)
	}
	procs := 0
	for _, p := range s.order {
		if p.count() > 0 {
			procs++
		}
	}
	return true, fmt.Sprintf("V(a) < V(b) if and only if a → b among %d timestamped events at %d processes", s.events, procs)
}

// intOf reads an integer state value.
func intOf(v any) (int, bool) {
	if !isInt(v) {
		return 0, false
	}
	return toInt(v), true
}
