package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dsim/core/algo/txn"
	"dsim/core/trace"
)

// ccState judges cc.serializable from two keys alone: op, an access
// [k, T, item, w, run] at the site holding the copy, and txn, a
// transaction's status [T, status, ts] at its home site, whose status-0
// events at its begin and after each abort count its runs (a status 0
// after a wait, 3, is the same run going on). Each copy (an item at a site) keeps its accesses
// in the order they happened; the conflict graph of the committed
// transactions, built from the accesses of their committed runs only, has
// an edge Ti -> Tj when an access of Ti precedes a conflicting one of Tj
// (the same copy, one of them a write). For each access it keeps only the
// edges from the latest write before it and, for a write, from the reads
// since that write: the others follow by transitivity, so the graph has a
// cycle exactly when the full one does. The conflict graph of the
// transactions committed so far only grows, so the first commit that
// closes a cycle is where the property first fails.
type ccState struct {
	copies []*ccCopy // in the order first accessed
	byKey  map[[2]int]*ccCopy
	runs   map[int]int // transaction -> runs begun
	last   map[int]int // transaction -> its latest status
	done   map[int]ccCommit
	order  []int // transactions in commit order
	judged bool
	cycle  []ccEdge // the first cycle, or nil
	at     uint64
	ts     int64
	// home is each transaction's home site, the first to set its txn
	// key; twice, the first transaction another site also began (ids are
	// the scenario's to choose, and two transactions of one id would
	// merge in the conflict graph), with where.
	home  map[int]int
	twice *ccTwice
}

type ccTwice struct {
	t, first, second int
	seq              uint64
	at               int64
}

type ccCopy struct {
	site, item int
	ops        []ccOp
}

type ccOp struct{ t, run, w int }

type ccCommit struct {
	run int
	seq uint64
	t   int64
}

type ccEdge struct{ from, to, item, site int }

func (s *ccState) observe(e *trace.Event) {
	if e.Type != trace.State {
		return
	}
	v, ok := e.New.([]int)
	switch {
	case !ok:
	case e.Key == txn.KeyOp && len(v) >= 5:
		key := [2]int{e.Node, v[2]}
		c := s.byKey[key]
		if c == nil {
			c = &ccCopy{site: e.Node, item: v[2]}
			s.byKey[key] = c
			s.copies = append(s.copies, c)
		}
		c.ops = append(c.ops, ccOp{t: v[1], run: v[4], w: v[3]})
		s.judged = false
	case e.Key == txn.KeyTxn && len(v) >= 2:
		if h, ok := s.home[v[0]]; !ok {
			s.home[v[0]] = e.Node
		} else if h != e.Node && s.twice == nil {
			s.twice = &ccTwice{v[0], h, e.Node, e.Seq, e.T}
		}
		last, seen := s.last[v[0]]
		s.last[v[0]] = v[1]
		switch v[1] {
		case txn.Running:
			if !seen || last == txn.Aborted { // a begin or a restart, not the end of a wait
				s.runs[v[0]]++
			}
		case txn.Committed:
			if _, dup := s.done[v[0]]; !dup {
				s.done[v[0]] = ccCommit{s.runs[v[0]], e.Seq, e.T}
				s.order = append(s.order, v[0])
				s.judged = false
			}
		}
	}
}

// committed reports whether op belongs to the committed run of its
// transaction.
func (s *ccState) committed(o ccOp) bool {
	c, ok := s.done[o.t]
	return ok && c.run == o.run
}

// judge finds the first commit that closes a cycle in the conflict graph.
func (s *ccState) judge() {
	if s.judged {
		return
	}
	s.judged, s.cycle = true, nil
	out := map[int][]ccEdge{}
	for _, c := range s.copies {
		lastW, reads := -1, []int(nil)
		add := func(from, to int) {
			if from != to && !slices.ContainsFunc(out[from], func(e ccEdge) bool { return e.to == to }) {
				out[from] = append(out[from], ccEdge{from, to, c.item, c.site})
			}
		}
		for _, o := range c.ops {
			if !s.committed(o) {
				continue
			}
			if lastW >= 0 {
				add(lastW, o.t)
			}
			if o.w == 0 {
				reads = append(reads, o.t)
				continue
			}
			for _, r := range reads {
				add(r, o.t)
			}
			lastW, reads = o.t, nil
		}
	}
	// Commit by commit, a cycle through the new transaction among those
	// committed so far.
	rank := map[int]int{}
	for i, t := range s.order {
		rank[t] = i
		if cyc := findCycle(t, out, func(u int) bool { r, ok := rank[u]; return ok && r <= i }); cyc != nil {
			s.cycle, s.at, s.ts = cyc, s.done[t].seq, s.done[t].t
			return
		}
	}
}

// findCycle is a path of edges from t back to t over the transactions in,
// depth first in the order the edges were found, or nil.
func findCycle(t int, out map[int][]ccEdge, in func(int) bool) []ccEdge {
	seen := map[int]bool{}
	var path []ccEdge
	var dfs func(u int) bool
	dfs = func(u int) bool {
		seen[u] = true
		for _, e := range out[u] {
			if !in(e.to) {
				continue
			}
			path = append(path, e)
			if e.to == t || !seen[e.to] && dfs(e.to) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	if dfs(t) {
		return path
	}
	return nil
}

func (m *Monitor) serializable(int64) (bool, string) {
	s := &m.cc
	if d := s.twice; d != nil {
		return false, fmt.Sprintf("t=%d seq=%d: %s is begun at %d and at %d: the conflict graph needs one id per transaction", d.at, d.seq, txn.Name(d.t), d.first, d.second)
	}
	s.judge()
	if s.cycle == nil {
		return true, strconv.Itoa(len(s.order)) + " committed transactions, conflict graph acyclic"
	}
	// The cycle from its lowest transaction id, as the text writes them.
	low := 0
	for i, e := range s.cycle {
		if e.from < s.cycle[low].from {
			low = i
		}
	}
	cyc := append(slices.Clone(s.cycle[low:]), s.cycle[:low]...)
	ts, items := []string{txn.Name(cyc[0].from)}, []string{}
	for _, e := range cyc {
		ts = append(ts, txn.Name(e.to))
		name := txn.ItemName(e.item)
		if slices.ContainsFunc(cyc, func(o ccEdge) bool { return o.item == e.item && o.site != e.site }) {
			name += "@" + strconv.Itoa(e.site) // copies of one item: name the sites
		}
		items = append(items, name)
	}
	return false, "t=" + strconv.FormatInt(s.ts, 10) + " seq=" + strconv.FormatUint(s.at, 10) +
		": the committed transactions' conflict graph has the cycle " + strings.Join(ts, " → ") + " on " + strings.Join(items, ", ")
}

// serializableAt is the seq where cc.serializable first failed.
func (m *Monitor) serializableAt() uint64 {
	if d := m.cc.twice; d != nil {
		return d.seq
	}
	m.cc.judge()
	return m.cc.at
}

var ccKeys = []string{txn.KeyOp, txn.KeyTxn}
