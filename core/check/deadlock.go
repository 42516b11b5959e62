package check

import (
	"fmt"
	"slices"

	"dsim/core/algo/deadlock"
	"dsim/core/algo/txn"
	"dsim/core/trace"
)

// dlState judges the deadlock properties from the keys alone. The global
// wait-for graph is the union of the sites' local graphs, each computed
// from the site's last locks value (deadlock.Edges), independently of any
// algorithm; each edge keeps the time it appeared at its site, so that a
// cycle's age is its youngest edge's.
//
//   - deadlock.free: after each change of a lock table, the global graph
//     has no cycle.
//   - deadlock.sound: at each deadlock event, the declared cycle is a
//     cycle of the global graph; one that is not is a phantom.
//   - deadlock.complete: no cycle lasts longer than the detector's bound
//     (the bound key; the largest any site declared): at each event while
//     the graph has a cycle, the edges older than the bound must hold none.
type dlState struct {
	sites    []*dlSite // in the order first seen
	cyclic   bool      // the global graph has a cycle now
	changes  int       // lock-table changes seen
	formed   int       // times the global graph became cyclic
	declared int
	bound    int64 // -1: none declared
	reported bool  // the cycle lasting too long is reported; again after the next change
	free     violation
	sound    violation
	late     violation
}

type dlSite struct {
	id    int
	edges []deadlock.Edge
	born  []int64 // when each edge appeared
	past  []dlPast
}

// dlPast is an edge that was: alive from born to died.
type dlPast struct {
	e          deadlock.Edge
	born, died int64
}

func (s *dlState) site(id int) *dlSite {
	for _, x := range s.sites {
		if x.id == id {
			return x
		}
	}
	x := &dlSite{id: id}
	s.sites = append(s.sites, x)
	return x
}

// global is the union of the local graphs, with each edge's birth.
func (s *dlState) global() ([]deadlock.Edge, []int64) {
	var edges []deadlock.Edge
	var born []int64
	for _, x := range s.sites {
		edges = append(edges, x.edges...)
		born = append(born, x.born...)
	}
	return edges, born
}

func (s *dlState) observe(e *trace.Event) {
	switch e.Type {
	case trace.Crash:
		// A crashed site's lock table is lost with it.
		if x := s.find(e.Node); x != nil && len(x.edges) > 0 {
			x.edges, x.born = nil, nil
			s.changed(e)
		}
	case trace.State:
		switch e.Key {
		case txn.KeyLocks:
			v, _ := e.New.([]int)
			x := s.site(e.Node)
			edges := deadlock.Edges(v)
			born := make([]int64, len(edges))
			for i, ed := range edges {
				born[i] = e.T
				if k := slices.Index(x.edges, ed); k >= 0 {
					born[i] = x.born[k]
				}
			}
			for i, ed := range x.edges {
				if !slices.Contains(edges, ed) {
					x.past = append(x.past, dlPast{ed, x.born[i], e.T})
				}
			}
			if s.bound >= 0 { // what died longer than the bound ago no longer counts
				x.past = slices.DeleteFunc(x.past, func(p dlPast) bool { return p.died < e.T-s.bound })
			}
			x.edges, x.born = edges, born
			s.changes++
			s.changed(e)
		case deadlock.KeyDeadlock:
			if c, ok := e.New.([]int); ok {
				s.declared++
				if edges, _ := s.global(); !deadlock.IsCycle(edges, c) && !s.was(c, e.T) {
					s.sound.add(e, "site %d declared the deadlock %s, a phantom: %s%s", e.Node, deadlock.Text(c), missing(edges, c), s.within())
				}
			}
		case deadlock.KeyBound:
			if isInt(e.New) {
				s.bound = max(s.bound, int64(toInt(e.New)))
			}
		}
	}
	if s.cyclic && s.bound >= 0 && !s.reported {
		if c, since := s.old(e.T); c != nil {
			s.late.add(e, "the cycle %s has lasted since t=%d, longer than the bound of %d ticks", deadlock.Text(c), since, s.bound)
			s.reported = true
		}
	}
}

func (s *dlState) find(id int) *dlSite {
	for _, x := range s.sites {
		if x.id == id {
			return x
		}
	}
	return nil
}

// changed judges deadlock.free after a lock table changed.
func (s *dlState) changed(e *trace.Event) {
	edges, _ := s.global()
	c := deadlock.Cycle(edges, nil)
	if c != nil && !s.cyclic {
		s.formed++
	}
	s.cyclic, s.reported = c != nil, false
	if c != nil {
		s.free.add(e, "the global wait-for graph has the cycle %s (site %d's lock table changed)", deadlock.Text(c), e.Node)
	}
}

// old finds a cycle of the edges older than the bound at time now, and
// since when it has lasted (its youngest edge's birth).
func (s *dlState) old(now int64) ([]int, int64) {
	edges, born := s.global()
	var aged []deadlock.Edge
	for i, ed := range edges {
		if now-born[i] > s.bound {
			aged = append(aged, ed)
		}
	}
	c := deadlock.Cycle(aged, nil)
	if c == nil {
		return nil, 0
	}
	var since int64
	for i, ed := range edges {
		for k, u := range c {
			if ed == (deadlock.Edge{From: u, To: c[(k+1)%len(c)]}) {
				since = max(since, born[i])
			}
		}
	}
	return c, since
}

// was reports whether c was a cycle of the global graph at some time
// within the bound before now: a deadlock already broken (by another
// detection's victim) when it is declared was real, detected late. The
// times to try are the window's start and the births of the edges.
func (s *dlState) was(c []int, now int64) bool {
	if s.bound < 0 || len(c) < 2 {
		return false
	}
	type life struct{ born, died int64 }
	var lives [][]life // per edge of c
	for k, u := range c {
		ed := deadlock.Edge{From: u, To: c[(k+1)%len(c)]}
		var ls []life
		for _, x := range s.sites {
			if i := slices.Index(x.edges, ed); i >= 0 {
				ls = append(ls, life{x.born[i], now + 1})
			}
			for _, p := range x.past {
				if p.e == ed {
					ls = append(ls, life{p.born, p.died})
				}
			}
		}
		lives = append(lives, ls)
	}
	alive := func(at int64) bool {
		for _, ls := range lives {
			if !slices.ContainsFunc(ls, func(l life) bool { return l.born <= at && at < l.died }) {
				return false
			}
		}
		return true
	}
	if alive(now - s.bound) {
		return true
	}
	for _, ls := range lives {
		for _, l := range ls {
			if l.born >= now-s.bound && l.born <= now && alive(l.born) {
				return true
			}
		}
	}
	return false
}

// within says how far back deadlock.sound looked.
func (s *dlState) within() string {
	if s.bound < 0 {
		return ""
	}
	return fmt.Sprintf(", and the graph never had this cycle in the last %d ticks (the bound)", s.bound)
}

// missing names the first edge of the cycle c the graph lacks.
func missing(edges []deadlock.Edge, c []int) string {
	if len(c) < 2 {
		return "a cycle needs two transactions"
	}
	for i, u := range c {
		v := c[(i+1)%len(c)]
		if !slices.Contains(edges, deadlock.Edge{From: u, To: v}) {
			return fmt.Sprintf("%s -> %s is no edge of the global wait-for graph", deadlock.Name(u), deadlock.Name(v))
		}
	}
	return ""
}

func (m *Monitor) deadlockFree(int64) (bool, string) {
	s := &m.dl
	if s.free.text != "" {
		return false, s.free.text + more(s.free.more)
	}
	return true, fmt.Sprintf("no cycle in the global wait-for graph at any event (%d lock-table changes)", s.changes)
}

func (m *Monitor) deadlockSound(int64) (bool, string) {
	s := &m.dl
	if s.sound.text != "" {
		return false, s.sound.text + more(s.sound.more)
	}
	return true, fmt.Sprintf("each of the %d declared deadlocks was a cycle of the global wait-for graph when declared", s.declared)
}

func (m *Monitor) deadlockComplete(now int64) (bool, string) {
	s := &m.dl
	if s.late.text != "" {
		return false, s.late.text + more(s.late.more)
	}
	if s.bound < 0 {
		edges, _ := s.global()
		if c := deadlock.Cycle(edges, nil); c != nil {
			return false, fmt.Sprintf("at t=%d the cycle %s remains (no detector declared a bound)", now, deadlock.Text(c))
		}
		return true, fmt.Sprintf("no cycle remains at t=%d (%d formed; no detector declared a bound)", now, s.formed)
	}
	if s.cyclic {
		if c, since := s.old(now); c != nil {
			return false, fmt.Sprintf("at t=%d the cycle %s has lasted since t=%d, longer than the bound of %d ticks", now, deadlock.Text(c), since, s.bound)
		}
	}
	return true, fmt.Sprintf("each of the %d times the global wait-for graph became cyclic, its cycles were broken within the bound of %d ticks", s.formed, s.bound)
}

// dlKeys are the keys the deadlock checkers read: locks, deadlock, bound.
var dlKeys = []string{txn.KeyLocks, deadlock.KeyDeadlock, deadlock.KeyBound}
