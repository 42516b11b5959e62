package check

import (
	"fmt"

	"dsim/core/algo/order"
	"dsim/core/trace"
)

// orderState judges the ordered multicasts' properties from two state keys:
// a change of multicasts to s is the multicast of the process's s-th
// message, a change of delivered to "o:s" the delivery of process o's s-th
// message to the application. Happened-before among them is computed here,
// over those events alone (a message's multicast comes before its
// deliveries, and each process's events are in order), not from any
// timestamp of the algorithm's: a process that has received a message but
// holds it back has not seen it, as the causal order of Birman, Schiper and
// Stephenson has it.
//
// Each process keeps known, how many multicasts of each process happened
// before its next event (a vector clock counting multicasts), and every
// multicast the known of its process at it: its causal past. Each process
// keeps what it delivered, by origin a prefix and the numbers above it, and
// its delivery order, for the total order: there maxpos[q] is the latest
// place in q's order of a message both it and q delivered, so that a
// delivery x at p breaks the total order exactly when some message p
// delivered before x comes after x at some q (the last of the four
// deliveries of a violating pair is the one that finds it).
//
// The group is the processes that set the multicasts key (every ordering
// sets it to 0 at boot). Once every member has delivered a message, the
// checkers forget its causal past and its places in the delivery orders,
// which no later event looks up: their memory follows the messages not yet
// delivered everywhere, and each process's delivery order, one number per
// delivery.
type orderState struct {
	procs      map[int]*orderProc
	order      []*orderProc
	past       map[uint64][]int32 // by message: the multicast's causal past, by process index
	count      map[uint64]int     // by message: the processes that delivered it
	multicasts int
	deliveries int
	dup        violation // a message delivered twice: breaks all three
	fifo       violation
	causal     violation
	total      violation
}

type orderProc struct {
	id, ix int
	known  []int32
	got    map[int]*prefix // by origin id: the numbers delivered
	pos    map[uint64]int  // by message: its place in the delivery order
	seq    []uint64        // the delivery order
	maxpos []int           // by process index: see orderState; -1 none
}

// prefix is a set of message numbers: 1..n and those in above.
type prefix struct {
	n     int
	above map[int]bool
}

func (s *prefix) has(k int) bool { return k <= s.n || s.above[k] }

func (s *prefix) add(k int) {
	if k != s.n+1 {
		if s.above == nil {
			s.above = map[int]bool{}
		}
		s.above[k] = true
		return
	}
	for s.n++; s.above[s.n+1]; s.n++ {
		delete(s.above, s.n+1)
	}
}

func msgKey(origin, seq int) uint64 { return uint64(uint32(origin))<<32 | uint64(uint32(seq)) }

func keyLabel(k uint64) string { return fmt.Sprintf("%d:%d", int32(k>>32), uint32(k)) }

func (s *orderState) proc(id int) *orderProc {
	p := s.procs[id]
	if p == nil {
		p = &orderProc{id: id, ix: len(s.order), got: map[int]*prefix{}, pos: map[uint64]int{}}
		s.procs[id] = p
		s.order = append(s.order, p)
	}
	return p
}

func (p *orderProc) prefix(origin int) *prefix {
	g := p.got[origin]
	if g == nil {
		g = &prefix{}
		p.got[origin] = g
	}
	return g
}

func (s *orderState) observe(e *trace.Event) {
	if e.Type != trace.State {
		return
	}
	switch e.Key {
	case order.KeyMulticasts:
		p := s.proc(e.Node)
		if n, ok := intOf(e.New); ok && n > 0 {
			s.multicasts++
			past := make([]int32, len(s.order))
			copy(past, p.known)
			past[p.ix] = int32(n - 1)
			s.past[msgKey(e.Node, n)] = past
			p.see(p.ix, n)
		}
	case order.KeyDelivered:
		if label, ok := e.New.(string); ok {
			if o, n, ok := order.ParseLabel(label); ok {
				s.deliver(e, s.proc(e.Node), o, n)
			}
		}
	}
}

// see raises known[ix] to n.
func (p *orderProc) see(ix, n int) {
	for len(p.known) <= ix {
		p.known = append(p.known, 0)
	}
	p.known[ix] = max(p.known[ix], int32(n))
}

func (s *orderState) deliver(e *trace.Event, p *orderProc, o, n int) {
	s.deliveries++
	key := msgKey(o, n)
	g := p.prefix(o)
	if g.has(n) {
		s.dup.add(e, "process %d delivered %d:%d a second time", p.id, o, n)
		return
	}
	if n > g.n+1 {
		s.fifo.add(e, "process %d delivered %d:%d before %d:%d, which process %d multicast before it", p.id, o, n, o, g.n+1, o)
	}
	past := s.past[key]
	for k, c := range past {
		q := s.order[k]
		if h := p.prefix(q.id); h.n < int(c) {
			s.causal.add(e, "process %d delivered %d:%d before %d:%d, whose multicast happened before %d:%d's", p.id, o, n, q.id, h.n+1, o, n)
			break
		}
	}
	// The total order, against every process that delivered the message.
	here := len(p.seq)
	for _, q := range s.order {
		at, ok := q.pos[key]
		if !ok || q == p {
			continue
		}
		for len(p.maxpos) <= q.ix {
			p.maxpos = append(p.maxpos, -1)
		}
		for len(q.maxpos) <= p.ix {
			q.maxpos = append(q.maxpos, -1)
		}
		if m := p.maxpos[q.ix]; m > at {
			s.total.add(e, "process %d delivered %s before %d:%d, and process %d delivered them the other way round", p.id, keyLabel(q.seq[m]), o, n, q.id)
		}
		p.maxpos[q.ix] = max(p.maxpos[q.ix], at)
		q.maxpos[p.ix] = here
	}
	g.add(n)
	p.pos[key] = here
	p.seq = append(p.seq, key)
	for k, c := range past {
		p.see(k, int(c))
	}
	p.see(s.proc(o).ix, n)
	if s.count[key]++; s.count[key] >= len(s.order) {
		delete(s.count, key)
		delete(s.past, key)
		for _, q := range s.order {
			delete(q.pos, key)
		}
	}
}

// first is the first of v and a duplicate delivery, which breaks every
// order property.
func (s *orderState) first(v *violation) *violation {
	if s.dup.text != "" && (v.text == "" || s.dup.seq < v.seq) {
		return &s.dup
	}
	return v
}

func (s *orderState) judge(v *violation, what string) (bool, string) {
	if b := s.first(v); b.text != "" {
		return false, b.text + more(b.more)
	}
	delivering := 0
	for _, p := range s.order {
		if len(p.seq) > 0 {
			delivering++
		}
	}
	return true, fmt.Sprintf("%s: %d deliveries of %d multicasts at %d processes", what, s.deliveries, s.multicasts, delivering)
}

func (m *Monitor) orderFIFO(int64) (bool, string) {
	return m.order.judge(&m.order.fifo, "every process delivered each process's messages in the order it multicast them")
}

func (m *Monitor) orderCausal(int64) (bool, string) {
	return m.order.judge(&m.order.causal, "every process delivered a message after those whose multicast happened before its multicast")
}

func (m *Monitor) orderTotal(int64) (bool, string) {
	return m.order.judge(&m.order.total, "every two processes delivered the messages both delivered in the same order")
}
