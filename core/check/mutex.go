package check

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"dsim/core/algo/mutex"
	"dsim/core/trace"
)

// proc is what the monitor knows of one process. A crash resets it: the
// process's state, requests included, is lost.
type proc struct {
	id        int
	cs        string
	wantedAt  int64  // time cs became wanted
	wantedSeq uint64 // and the event's seq
	heldAt    int64
	stamp     any     // req_ts, nil when unset
	backlog   []int64 // when each request waiting in the backlog was made
}

// entry is one critical-section entry, for the ordering property.
type entry struct {
	id    int
	stamp any
	t     int64
	seq   uint64
}

// mutexState follows the critical-section states of a run.
type mutexState struct {
	procs   map[int]*proc
	holders []*proc // in the critical section now (more than one: unsafe)

	unsafe       string // the first safety violation ("" none)
	unsafeSeq    uint64 // the seq of its event
	unsafeMore   int    // violations after it
	disorder     string // the first ordering violation
	disorderSeq  uint64
	disorderMore int
	last         *entry // the previous entry

	costs       tally
	exitSeq     uint64 // seq of the last exit
	exitAt      int64  // time of the last exit: the end of the throughput span
	exitPending bool   // the last exit has not been followed by an entry or a holder's crash
	spanOpen    bool   // a request was seen: firstReq is set
	firstReq    int64
	kinds       []KindCount // in order of first send
}

// tally accumulates the cost sums in integers.
type tally struct {
	requests, entries, messages int64
	syncSum, syncN              int64
	respSum, respN              int64
	waitSum, waitN              int64
}

func (s *mutexState) proc(id int) *proc {
	p := s.procs[id]
	if p == nil {
		p = &proc{id: id}
		s.procs[id] = p
	}
	return p
}

func (s *mutexState) observe(e *trace.Event) {
	switch e.Type {
	case trace.Send:
		s.costs.messages++
		s.countKind(e.Kind)
	case trace.Crash:
		p := s.proc(e.Node)
		if p.cs == mutex.Held {
			s.leave(p)
			s.exitPending = false // a crash is not an exit the next one waits for
		}
		*p = proc{id: p.id}
	case trace.State:
		switch e.Key {
		case mutex.KeyCS:
			v, _ := e.New.(string)
			s.setCS(s.proc(e.Node), v, e)
		case mutex.KeyStamp:
			s.proc(e.Node).stamp = e.New
		case mutex.KeyBacklog:
			p := s.proc(e.Node)
			n := toInt(e.New)
			for len(p.backlog) < n {
				p.backlog = append(p.backlog, e.T)
			}
			if n < len(p.backlog) {
				p.backlog = p.backlog[len(p.backlog)-max(n, 0):]
			}
		}
	}
}

func (s *mutexState) countKind(kind string) {
	for i := range s.kinds {
		if s.kinds[i].Kind == kind {
			s.kinds[i].Sent++
			return
		}
	}
	s.kinds = append(s.kinds, KindCount{Kind: kind, Sent: 1})
}

func (s *mutexState) setCS(p *proc, v string, e *trace.Event) {
	was := p.cs
	p.cs = v
	switch {
	case v == mutex.Wanted && was != mutex.Wanted:
		s.costs.requests++
		p.wantedAt, p.wantedSeq = e.T, e.Seq
		if !s.spanOpen {
			s.spanOpen, s.firstReq = true, e.T
		}
	case v == mutex.Held && was != mutex.Held:
		s.enter(p, was, e)
	case v != mutex.Held && was == mutex.Held:
		s.leave(p)
		s.costs.respSum += e.T - p.wantedAt
		s.costs.respN++
		s.exitSeq, s.exitAt, s.exitPending = e.Seq, e.T, true
	}
}

func (s *mutexState) enter(p *proc, was string, e *trace.Event) {
	if len(s.holders) > 0 {
		if s.unsafe == "" {
			s.unsafeSeq = e.Seq
			h := s.holders[0]
			s.unsafe = fmt.Sprintf("t=%d seq=%d: processes %d and %d are both in the critical section (%d entered while %d held it since t=%d)",
				e.T, e.Seq, min(h.id, p.id), max(h.id, p.id), p.id, h.id, h.heldAt)
		} else {
			s.unsafeMore++
		}
	}
	s.holders = append(s.holders, p)
	p.heldAt = e.T
	s.costs.entries++
	if was == mutex.Wanted {
		s.costs.waitSum += e.T - p.wantedAt
		s.costs.waitN++
		if s.exitPending && p.wantedSeq < s.exitSeq {
			s.costs.syncSum += e.T - s.exitAt
			s.costs.syncN++
		}
	}
	s.exitPending = false
	s.checkOrder(&entry{id: p.id, stamp: p.stamp, t: e.T, seq: e.Seq})
}

// checkOrder compares an entry with the previous one: consecutive entries
// in increasing (req_ts, id) order make the whole sequence so.
func (s *mutexState) checkOrder(cur *entry) {
	prev := s.last
	s.last = cur
	bad := ""
	switch {
	case cur.stamp == nil:
		bad = fmt.Sprintf("t=%d seq=%d: process %d entered the critical section without a req_ts", cur.t, cur.seq, cur.id)
	case !isInt(cur.stamp):
		bad = fmt.Sprintf("t=%d seq=%d: process %d entered with req_ts %s, not an integer", cur.t, cur.seq, cur.id, trace.AppendJSON(nil, cur.stamp))
	case prev == nil || prev.stamp == nil || !isInt(prev.stamp):
		return
	case !stampLess(prev, cur):
		bad = fmt.Sprintf("t=%d seq=%d: process %d entered with (req_ts=%d, id=%d) after process %d entered at t=%d seq=%d with (req_ts=%d, id=%d)",
			cur.t, cur.seq, cur.id, toInt(cur.stamp), cur.id, prev.id, prev.t, prev.seq, toInt(prev.stamp), prev.id)
	default:
		return
	}
	if s.disorder == "" {
		s.disorder, s.disorderSeq = bad, cur.seq
	} else {
		s.disorderMore++
	}
}

func stampLess(a, b *entry) bool {
	ta, tb := toInt(a.stamp), toInt(b.stamp)
	return ta < tb || ta == tb && a.id < b.id
}

func (s *mutexState) leave(p *proc) {
	if i := slices.Index(s.holders, p); i >= 0 {
		s.holders = slices.Delete(s.holders, i, i+1)
	}
}

func isInt(v any) bool {
	switch reflect.ValueOf(v).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	case reflect.Float64, reflect.Float32:
		f := reflect.ValueOf(v).Float()
		return f == float64(int64(f))
	}
	return false
}

// toInt reads an integer state value of any integer type (sim.Time,
// sim.NodeID and plain ints alike); anything else is 0.
func toInt(v any) int {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int(rv.Uint())
	case reflect.Float64, reflect.Float32:
		return int(rv.Float())
	}
	return 0
}

func more(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d more)", n)
}

func (m *Monitor) safety(int64) (bool, string) {
	s := &m.mutex
	if s.unsafe != "" {
		return false, s.unsafe + more(s.unsafeMore)
	}
	return true, fmt.Sprintf("at most one process in the critical section at every event (%d entries)", s.costs.entries)
}

func (m *Monitor) liveness(now int64) (bool, string) {
	s := &m.mutex
	ids := make([]int, 0, len(s.procs))
	for id, p := range s.procs {
		if p.cs == mutex.Wanted || len(p.backlog) > 0 {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return true, fmt.Sprintf("every request of a process that stayed up was granted by t=%d (%d requests)", now, s.costs.requests)
	}
	slices.Sort(ids)
	// The first trace.MaxListed are named: a verdict stays one line.
	parts := make([]string, min(len(ids), trace.MaxListed))
	for i, id := range ids[:len(parts)] {
		p := s.procs[id]
		var what []string
		if p.cs == mutex.Wanted {
			what = append(what, fmt.Sprintf("wanted since t=%d", p.wantedAt))
		} else {
			what = append(what, p.cs)
		}
		if n := len(p.backlog); n > 0 {
			what = append(what, fmt.Sprintf("%d more in its backlog since t=%d", n, p.backlog[0]))
		}
		parts[i] = fmt.Sprintf("%d (%s)", id, strings.Join(what, ", "))
	}
	if len(ids) > len(parts) {
		parts = append(parts, "...")
	}
	return false, fmt.Sprintf("at t=%d, %d process(es) still waiting: %s", now, len(ids), strings.Join(parts, "; "))
}

func (m *Monitor) ordering(int64) (bool, string) {
	s := &m.mutex
	if s.disorder != "" {
		return false, s.disorder + more(s.disorderMore)
	}
	return true, fmt.Sprintf("%d entries in (req_ts, id) order", s.costs.entries)
}
