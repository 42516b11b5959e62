package check

import (
	"testing"

	"dsim/core/algo/agreement"
	"dsim/core/trace"
)

// Hand-made Byzantine generals traces: every general says whether it is a
// traitor, the commander gives its order, the lieutenants decide.
func gen(node int, traitor bool) trace.Event {
	return trace.Event{Type: trace.State, Node: node, Key: agreement.KeyTraitor, New: traitor}
}
func ordered(node, v int) trace.Event {
	return trace.Event{Type: trace.State, Node: node, Key: agreement.KeyOrder, New: v}
}
func decide(t int64, node, v int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: agreement.KeyDecision, New: v}
}

// generals: commander 1 ordering attack, lieutenants 2..4, the traitors
// among 1..4 as given.
func generals(traitors ...int) []trace.Event {
	evs := []trace.Event{ordered(1, agreement.Attack)}
	for id := 1; id <= 4; id++ {
		t := false
		for _, x := range traitors {
			t = t || x == id
		}
		evs = append(evs, gen(id, t))
	}
	return evs
}

func TestAgreementProperties(t *testing.T) {
	with := func(evs []trace.Event, more ...trace.Event) []trace.Event { return append(evs, more...) }
	judgeAll(t, 100, []verdictCase{
		{"loyal all attack", agreement.IC1, with(generals(4), decide(100, 2, 1), decide(100, 3, 1), decide(100, 4, 0)), true,
			"agreement.ic1: at t=100, the 2 loyal lieutenants all decided 1"},
		{"loyal all attack: IC2", agreement.IC2, with(generals(4), decide(100, 2, 1), decide(100, 3, 1), decide(100, 4, 0)), true,
			"agreement.ic2: at t=100, the 2 loyal lieutenants all decided the loyal commander 1's order 1"},
		{"they split", agreement.IC1, with(generals(1), decide(100, 2, 1), decide(100, 3, 0), decide(100, 4, 1)), false,
			"agreement.ic1: at t=100, the loyal lieutenants do not agree: 2, 4 decided 1 (t=100 seq=7); 3 decided 0 (t=100 seq=6)"},
		{"a traitorous commander: IC2 asks nothing", agreement.IC2, with(generals(1), decide(100, 2, 1), decide(100, 3, 0)), true,
			"agreement.ic2: at t=100, the commander 1 is a traitor: IC2 asks nothing"},
		{"the loyal commander disobeyed", agreement.IC2, with(generals(4), decide(100, 2, 0), decide(100, 3, 0), decide(100, 4, 1)), false,
			"agreement.ic2: at t=100, the loyal commander 1 ordered 1, but 2, 3 decided 0 (t=100 seq=6)"},
		{"a loyal lieutenant undecided", agreement.IC1, with(generals(), decide(100, 2, 1), decide(100, 3, 1)), false,
			"agreement.ic1: at t=100, the loyal lieutenants do not agree: 2, 3 decided 1 (t=100 seq=6); 4 no decision"},
		{"undecided breaks IC2 too", agreement.IC2, with(generals(), decide(100, 2, 1), decide(100, 3, 1)), false,
			"agreement.ic2: at t=100, the loyal commander 1 ordered 1, but 4 no decision"},
		{"a crashed lieutenant is faulty", agreement.IC1, with(generals(), decide(100, 2, 1), decide(100, 3, 1), crash(50, 4)), true,
			"agreement.ic1: at t=100, the 2 loyal lieutenants all decided 1"},
		{"no generals", agreement.IC1, nil, true, "agreement.ic1: at t=100, no loyal lieutenant"},
		{"no commander", agreement.IC2, []trace.Event{gen(2, false), decide(100, 2, 1)}, true,
			"agreement.ic2: at t=100, no commander gave an order"},
	})
}
