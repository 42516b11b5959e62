package trace

// Logical timestamps of the events of a run, computed from the trace alone
// (Lamport's logical clock and vector clocks, whatever the algorithm under
// study keeps): the page shows them on the diagram and scenarios read them
// (w:timestamps). The events are those of the texts' model: a send, a
// receive (delivery), and the internal events a process is handed (a timer,
// a command, a crash or a recovery); a delivery also follows its message's
// send. A timer or a command whose handler sends is no event of its own:
// its first send is ("p1 sends m1": one event, not two), as the algorithms
// that keep logical clocks count. State changes and log lines happen within
// those events and have no timestamp of their own, nor do events at no
// process.

// Stamped reports whether an event of type t has a timestamp.
func Stamped(t Type) bool {
	switch t {
	case Send, Deliver, Timer, Command, Crash, Recover:
		return true
	}
	return false
}

// Stamper gives the events of a run, in trace order, their timestamps: a
// Lamport timestamp one more than the larger of its process's previous
// event's and, for a delivery, its send's; and, when kept, a vector
// timestamp, entries by process position, the vector clock of the same
// rule.
type Stamper struct {
	n      int
	vector bool
	lastL  []int
	lastV  [][]int32
	sentL  map[uint64]int // by message id: its send's timestamps (a duplicate shares them)
	sentV  map[uint64][]int32
	// cause is the position of the process whose timer or command the
	// last event was (-1: none), whose first send takes its timestamp,
	// and causeSeq that event's seq; absorbed is whether the last event
	// stamped took it.
	cause    int
	causeSeq uint64
	absorbed bool
}

// NewStamper stamps the events of n processes, their vectors too if vector.
func NewStamper(n int, vector bool) *Stamper {
	s := &Stamper{n: n, vector: vector, lastL: make([]int, n), sentL: map[uint64]int{}, cause: -1}
	if vector {
		s.lastV, s.sentV = make([][]int32, n), map[uint64][]int32{}
	}
	return s
}

// Stamp gives event e of the process at position p (0..n-1; -1 for none)
// its timestamps; ok is false for an event without one. v is nil unless
// vectors are kept, and must not be modified.
func (s *Stamper) Stamp(e *Event, p int) (l int, v []int32, ok bool) {
	if p != s.cause || (e.Type != Send && Stamped(e.Type)) {
		s.cause = -1 // the handler of the timer or command has ended
	}
	s.absorbed = false
	if p < 0 || p >= s.n || !Stamped(e.Type) {
		return 0, nil, false
	}
	if e.Type == Send && p == s.cause {
		// the first send of a timer's or a command's handler is the
		// event the timer or command stood for
		s.cause, s.absorbed = -1, true
		l = s.lastL[p]
		if s.vector {
			v = s.lastV[p]
			s.sentV[e.MsgID] = v
		}
		s.sentL[e.MsgID] = l
		return l, v, true
	}
	if e.Type == Timer || e.Type == Command {
		s.cause, s.causeSeq = p, e.Seq
	}
	l = s.lastL[p]
	sl, recv := 0, false
	if e.Type == Deliver {
		sl, recv = s.sentL[e.MsgID]
	}
	if recv {
		l = max(l, sl)
	}
	l++
	s.lastL[p] = l
	if s.vector {
		v = make([]int32, s.n)
		copy(v, s.lastV[p])
		if recv {
			for k, x := range s.sentV[e.MsgID] {
				v[k] = max(v[k], x)
			}
		}
		v[p]++
		s.lastV[p] = v
	}
	if e.Type == Send {
		s.sentL[e.MsgID] = l
		if s.vector {
			s.sentV[e.MsgID] = v
		}
	}
	return l, v, true
}

// Absorbed reports whether the last event stamped was the first send of a
// timer's or a command's handler, which took the timer's or command's
// timestamp, and gives that earlier event's seq: it is then no event of its
// own, and the caller leaves it out.
func (s *Stamper) Absorbed() (seq uint64, ok bool) { return s.causeSeq, s.absorbed }
