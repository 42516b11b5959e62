package check

import (
	"fmt"
	"slices"
	"strings"

	"dsim/core/algo/agreement"
	"dsim/core/trace"
)

// agreementKeys are the state keys the Byzantine generals checkers read.
var agreementKeys = []string{agreement.KeyTraitor, agreement.KeyOrder, agreement.KeyDecision}

// general is what the monitor knows of one general: whether it said it is
// a traitor, whether it gave the order (the commander) and which, whether
// it crashed (a crashed general is faulty, as a traitor), and its decision
// with the event that set it.
type general struct {
	traitor, commander, crashed, decided bool
	order, decision                      any
	at                                   mark
}

// agreementState follows the generals of a run; IC1 and IC2 are judged
// at the end from the last values.
type agreementState struct {
	procs map[int]*general
}

func (s *agreementState) observe(e *trace.Event) {
	if e.Type != trace.State && e.Type != trace.Crash {
		return
	}
	if e.Type == trace.State && !slices.Contains(agreementKeys, e.Key) {
		return
	}
	g := s.procs[e.Node]
	if g == nil {
		g = &general{}
		s.procs[e.Node] = g
	}
	switch {
	case e.Type == trace.Crash:
		g.crashed = true
	case e.Key == agreement.KeyTraitor:
		g.traitor = e.New == true
	case e.Key == agreement.KeyOrder:
		g.commander, g.order = true, e.New
	default:
		g.decided, g.decision, g.at = e.New != nil, e.New, mark{e.T, e.Seq}
	}
}

// loyal lists the loyal lieutenants, sorted: the generals that set a key,
// gave no order, are no traitor and did not crash.
func (s *agreementState) loyal() []int {
	var ids []int
	for id, g := range s.procs {
		if !g.commander && !g.traitor && !g.crashed {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// decisions groups the loyal lieutenants that skip does not leave out
// by decision, in the order of their lowest id, each with the event that
// set the latest of its decisions: "2, 4 decided 1 (t=20 seq=9)".
func (s *agreementState) decisions(ids []int, skip func(*general) bool) []string {
	var groups []string
	byText, last := map[string][]int{}, map[string]mark{}
	for _, id := range ids {
		g := s.procs[id]
		if skip != nil && skip(g) {
			continue
		}
		t := "no decision"
		if g.decided {
			t = "decided " + string(trace.AppendJSON(nil, g.decision))
			if g.at.seq >= last[t].seq {
				last[t] = g.at
			}
		}
		if byText[t] == nil {
			groups = append(groups, t)
		}
		byText[t] = append(byText[t], id)
	}
	out := make([]string, len(groups))
	for i, t := range groups {
		out[i] = idList(byText[t]) + " " + t
		if at, ok := last[t]; ok {
			out[i] += " (" + at.String() + ")"
		}
	}
	return out
}

func (m *Monitor) ic1(now int64) (bool, string) {
	s := &m.generals
	ids := s.loyal()
	if len(ids) == 0 {
		return true, fmt.Sprintf("at t=%d, no loyal lieutenant", now)
	}
	groups := s.decisions(ids, nil)
	if g := s.procs[ids[0]]; len(groups) == 1 && g.decided {
		return true, fmt.Sprintf("at t=%d, the %d loyal lieutenants all decided %s", now, len(ids), trace.AppendJSON(nil, g.decision))
	}
	return false, fmt.Sprintf("at t=%d, the loyal lieutenants do not agree: %s", now, strings.Join(groups, "; "))
}

func (m *Monitor) ic2(now int64) (bool, string) {
	s := &m.generals
	var cmd int
	var c *general
	for id, g := range s.procs {
		if g.commander && (c == nil || id < cmd) {
			cmd, c = id, g
		}
	}
	switch {
	case c == nil:
		return true, fmt.Sprintf("at t=%d, no commander gave an order", now)
	case c.traitor || c.crashed:
		return true, fmt.Sprintf("at t=%d, the commander %d is a traitor: IC2 asks nothing", now, cmd)
	}
	order := string(trace.AppendJSON(nil, c.order))
	ids := s.loyal()
	wrong := s.decisions(ids, func(g *general) bool {
		return g.decided && string(trace.AppendJSON(nil, g.decision)) == order
	})
	if len(wrong) == 0 {
		return true, fmt.Sprintf("at t=%d, the %d loyal lieutenants all decided the loyal commander %d's order %s", now, len(ids), cmd, order)
	}
	return false, fmt.Sprintf("at t=%d, the loyal commander %d ordered %s, but %s", now, cmd, order, strings.Join(wrong, "; "))
}
