package check

import (
	"fmt"
	"slices"
	"strings"

	"dsim/core/algo/commit"
	dsproc "dsim/core/proc"
	"dsim/core/trace"
)

// commitKeys are the state keys the atomic commit checkers read (see
// core/algo/commit): a site's keys phase, vote and decision speak of the
// transaction its key transaction names.
var commitKeys = []string{commit.KeyTxn, commit.KeyPhase, commit.KeyVote, commit.KeyDecision, commit.KeyParticipants}

// commitState follows the transactions of a run. commit.atomic is safety,
// judged at every decision: the first decision of a transaction fixes it,
// a later different one breaks it, and a commit needs every participant
// the coordinator named to have voted ready before it. commit.nonblocking
// holds once the run is over: every participant up then that took part in
// a transaction (set transaction to it, in any of its lives) has decided it; one
// that never heard of it waits for nothing.
type commitState struct {
	procs map[int]*commitProc
	txns  map[int]*txnRec
	order []int // transactions, in order of first mention
	bad   violation
}

// commitProc is a site: the transaction its keys speak of now, its
// phase and the event that set it, and whether it is down.
type commitProc struct {
	txn     int
	phase   string
	phaseAt mark
	down    bool
}

// txnRec is one transaction: its participants, their votes, the first
// decision and where it was made, who took part (set transaction to it) and who
// decided.
type txnRec struct {
	parts     []int
	votes     map[int]string
	decision  string
	by        int
	at        mark
	joined    map[int]bool
	decidedBy map[int]bool
}

func (s *commitState) proc(id int) *commitProc {
	p := s.procs[id]
	if p == nil {
		p = &commitProc{}
		s.procs[id] = p
	}
	return p
}

func (s *commitState) txn(t int) *txnRec {
	r := s.txns[t]
	if r == nil {
		r = &txnRec{votes: map[int]string{}, joined: map[int]bool{}, decidedBy: map[int]bool{}}
		s.txns[t] = r
		s.order = append(s.order, t)
	}
	return r
}

func (s *commitState) observe(e *trace.Event) {
	switch e.Type {
	case trace.Crash:
		if p := s.procs[e.Node]; p != nil {
			*p = commitProc{down: true}
		} else {
			s.procs[e.Node] = &commitProc{down: true}
		}
	case trace.Recover:
		s.proc(e.Node).down = false
	case trace.State:
		s.state(e)
	}
}

func (s *commitState) state(e *trace.Event) {
	switch e.Key {
	case commit.KeyTxn:
		p := s.proc(e.Node)
		p.txn, p.phase = toInt(e.New), ""
		s.txn(p.txn).joined[e.Node] = true
		return
	case commit.KeyPhase, commit.KeyVote, commit.KeyDecision, commit.KeyParticipants:
	default:
		return
	}
	p := s.proc(e.Node)
	if p.txn == 0 {
		return
	}
	r := s.txn(p.txn)
	v, _ := e.New.(string)
	switch e.Key {
	case commit.KeyPhase:
		p.phase, p.phaseAt = v, mark{e.T, e.Seq}
	case commit.KeyVote:
		r.votes[e.Node] = v
	case commit.KeyParticipants:
		r.parts = idInts(e.New)
	case commit.KeyDecision:
		s.decide(e, p.txn, r, v)
	}
}

// decide judges a decision of process e.Node on transaction t.
func (s *commitState) decide(e *trace.Event, t int, r *txnRec, d string) {
	r.decidedBy[e.Node] = true
	if r.decision != "" {
		if d != r.decision {
			s.bad.add(e, "process %d decided %s on T%d, but process %d decided %s at %s", e.Node, d, t, r.by, r.decision, r.at)
		}
		return
	}
	r.decision, r.by, r.at = d, e.Node, mark{e.T, e.Seq}
	if d != commit.Commit {
		return
	}
	if r.parts == nil {
		s.bad.add(e, "process %d decided commit on T%d, whose participants no coordinator named", e.Node, t)
		return
	}
	var missing []int
	for _, id := range r.parts {
		if r.votes[id] != commit.Ready {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		s.bad.add(e, "process %d decided commit on T%d, but %s %s not voted ready", e.Node, t, idList(missing), plural(missing, "has", "have"))
	}
}

// idInts reads a list of ids, as the kernel keeps it or a JSONL trace
// gives it back.
func idInts(v any) []int {
	var out []int
	switch l := v.(type) {
	case []dsproc.NodeID:
		for _, id := range l {
			out = append(out, int(id))
		}
	case []int:
		out = slices.Clone(l)
	case []any:
		for _, x := range l {
			out = append(out, toInt(x))
		}
	}
	if out == nil {
		out = []int{}
	}
	return out
}

func (m *Monitor) commitAtomic(int64) (bool, string) {
	s := &m.commit
	if s.bad.text != "" {
		return false, s.bad.text + more(s.bad.more)
	}
	decided := 0
	for _, t := range s.order {
		if s.txns[t].decision != "" {
			decided++
		}
	}
	return true, fmt.Sprintf("every site decided each transaction alike, and a commit only after every participant voted ready (%d transaction(s) decided)", decided)
}

func (m *Monitor) commitNonBlocking(now int64) (bool, string) {
	s := &m.commit
	var waiting []string
	n := 0
	for _, t := range s.order {
		r := s.txns[t]
		for _, id := range r.parts {
			p := s.procs[id]
			if p != nil && p.down || r.decidedBy[id] || !r.joined[id] {
				continue // down, decided, or never heard of T: waiting for nothing
			}
			n++
			if len(waiting) == trace.MaxListed {
				continue
			}
			if p.txn != t {
				waiting = append(waiting, fmt.Sprintf("%d (T%d: no state of it since it crashed)", id, t))
			} else {
				waiting = append(waiting, fmt.Sprintf("%d (T%d: phase %s since %s)", id, t, p.phase, p.phaseAt))
			}
		}
	}
	if n == 0 {
		return true, fmt.Sprintf("every participant up at t=%d has decided its transaction", now)
	}
	if n > len(waiting) {
		waiting = append(waiting, "...")
	}
	return false, fmt.Sprintf("at t=%d, %d participant(s) up have not decided: %s", now, n, strings.Join(waiting, "; "))
}
