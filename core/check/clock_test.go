package check

import (
	"strings"
	"testing"

	"dsim/core/trace"
)

// Hand-made clock traces: a process's first value of the clock key starts
// it, each later one timestamps an event; sends and deliveries pair by id.
func clk(t int64, node int, old, v any) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: "clock", Old: old, New: v}
}
func vclk(t int64, node int, old, v []int) trace.Event {
	e := trace.Event{T: t, Type: trace.State, Node: node, Key: "vclock", New: v}
	if old != nil {
		e.Old = old
	}
	return e
}
func msg(t int64, typ trace.Type, from, to int, id uint64) trace.Event {
	node := from
	if typ == trace.Deliver {
		node = to
	}
	return trace.Event{T: t, Type: typ, Node: node, From: from, To: to, MsgID: id, Kind: "MSG"}
}

func TestClockProperties(t *testing.T) {
	z := []int{0, 0}
	tests := []verdictCase{
		{"lamport: a correct run", "clock.lamport", []trace.Event{
			clk(0, 1, nil, 0), clk(0, 2, nil, 0),
			clk(1, 1, 0, 1), msg(1, trace.Send, 1, 2, 1), // send stamped 1
			clk(1, 2, 0, 1), // concurrent with the send: equal C is fine
			msg(2, trace.Deliver, 1, 2, 1), clk(2, 2, 1, 2),
		}, true, "clock.lamport: C(a) < C(b) for every a → b among 3 timestamped events at 2 processes"},
		{"lamport: the starting value timestamps nothing", "clock.lamport", []trace.Event{
			clk(0, 1, nil, 5), clk(1, 2, nil, 0), clk(2, 2, 0, 1),
		}, true, "clock.lamport: C(a) < C(b) for every a → b among 1 timestamped events at 1 processes"},
		{"lamport: a receive not past the send", "clock.lamport", []trace.Event{
			clk(0, 1, nil, 0), clk(0, 2, nil, 0),
			clk(1, 1, 0, 60), msg(1, trace.Send, 1, 2, 1),
			msg(2, trace.Deliver, 1, 2, 1), clk(2, 2, 0, 56),
		}, false, "clock.lamport: t=2 seq=5: process 2's event has C=56, but process 1's event at t=1 seq=2 happened before it and has C=60"},
		{"lamport: a message's past reaches events after its delivery", "clock.lamport", []trace.Event{
			clk(0, 1, nil, 0), clk(0, 2, nil, 0),
			clk(1, 1, 0, 9), msg(1, trace.Send, 1, 2, 1),
			msg(2, trace.Deliver, 1, 2, 1), // a receive that does not tick
			clk(3, 2, 0, 9),
		}, false, "clock.lamport: t=3 seq=5: process 2's event has C=9, but process 1's event at t=1 seq=2 happened before it and has C=9"},
		{"lamport: a duplicate is ordered after the send too", "clock.lamport", []trace.Event{
			clk(0, 1, nil, 0), clk(0, 2, nil, 0),
			clk(1, 1, 0, 3), msg(1, trace.Send, 1, 2, 7),
			msg(2, trace.Deliver, 1, 2, 7), clk(2, 2, 0, 4),
			msg(3, trace.Deliver, 1, 2, 7), clk(3, 2, 4, 5),
		}, true, "clock.lamport: C(a) < C(b) for every a → b among 3 timestamped events at 2 processes"},
		{"lamport: a clock going back along its process", "clock.lamport", []trace.Event{
			clk(0, 1, nil, 0), clk(1, 1, 0, 4), clk(2, 1, 4, 3), clk(3, 1, 3, 2),
		}, false, "clock.lamport: t=2 seq=2: process 1's event has C=3, but process 1's event at t=1 seq=1 happened before it and has C=4 (and 1 more)"},
		{"lamport: not an integer", "clock.lamport", []trace.Event{
			clk(0, 1, nil, 0), clk(1, 1, 0, "x"),
		}, false, `clock.lamport: t=1 seq=1: process 1's clock is "x", not an integer`},

		{"vector: a correct run with concurrent events", "clock.vector", []trace.Event{
			vclk(0, 1, nil, z), vclk(0, 2, nil, z),
			vclk(1, 1, z, []int{1, 0}), vclk(1, 2, z, []int{0, 1}),
			vclk(2, 1, []int{1, 0}, []int{2, 0}), msg(2, trace.Send, 1, 2, 1),
			msg(3, trace.Deliver, 1, 2, 1), vclk(3, 2, []int{0, 1}, []int{2, 2}),
		}, true, "clock.vector: V(a) < V(b) if and only if a → b among 4 timestamped events at 2 processes"},
		{"vector: a receive that does not merge", "clock.vector", []trace.Event{
			vclk(0, 1, nil, z), vclk(0, 2, nil, z),
			vclk(1, 1, z, []int{1, 0}), msg(1, trace.Send, 1, 2, 1),
			msg(2, trace.Deliver, 1, 2, 1), vclk(2, 2, z, []int{0, 1}),
		}, false, "clock.vector: t=2 seq=5: process 2's event has V=[0,1], not above V=[1,0] of process 1's event at t=1 seq=2, which happened before it"},
		{"vector: concurrent events ordered (a later one above)", "clock.vector", []trace.Event{
			vclk(0, 1, nil, z), vclk(0, 2, nil, z),
			vclk(1, 1, z, []int{1, 0}), vclk(2, 2, z, []int{1, 1}),
		}, false, "clock.vector: t=2 seq=3: process 2's event has V=[1,1], above V=[1,0] of process 1's event at t=1 seq=2, which did not happen before it"},
		{"vector: concurrent events ordered (a later one below)", "clock.vector", []trace.Event{
			vclk(0, 1, nil, z), vclk(0, 2, nil, z),
			vclk(1, 1, z, []int{2, 1}), vclk(2, 2, z, []int{0, 1}),
		}, false, "clock.vector: t=2 seq=3: process 2's event has V=[0,1], below V=[2,1] of process 1's event at t=1 seq=2, which it did not happen before"},
		{"vector: a Lamport clock as a vector of one", "clock.vector", []trace.Event{
			vclk(0, 1, nil, []int{0}), vclk(0, 2, nil, []int{0}),
			vclk(1, 1, []int{0}, []int{1}), vclk(2, 2, []int{0}, []int{2}),
		}, false, "clock.vector: t=2 seq=3: process 2's event has V=[2], above V=[1] of process 1's event at t=1 seq=2, which did not happen before it"},
		{"vector: the first event outside the past is the one compared", "clock.vector", []trace.Event{
			// 1's second event reaches 2; 2's event is above 1's third too.
			vclk(0, 1, nil, z), vclk(0, 2, nil, z),
			vclk(1, 1, z, []int{1, 0}), msg(1, trace.Send, 1, 2, 1),
			vclk(2, 1, []int{1, 0}, []int{2, 0}),
			msg(3, trace.Deliver, 1, 2, 1), vclk(3, 2, z, []int{2, 1}),
		}, false, "clock.vector: t=3 seq=6: process 2's event has V=[2,1], above V=[2,0] of process 1's event at t=2 seq=4, which did not happen before it"},
		{"vector: not a list", "clock.vector", []trace.Event{
			vclk(0, 1, nil, z), {T: 1, Type: trace.State, Node: 1, Key: "vclock", Old: z, New: 3},
		}, false, "clock.vector: t=1 seq=1: process 1's vector clock is 3, not a list of integers"},
	}
	judgeAll(t, 10, tests)
}

// TestClockCheckersIgnoreOtherRuns: a run without clock keys keeps nothing
// per message.
func TestClockCheckersIgnoreOtherRuns(t *testing.T) {
	m := feed(cs(0, 1, "released"), msg(1, trace.Send, 1, 2, 1), msg(2, trace.Deliver, 1, 2, 1))
	if len(m.lamport.sent) != 0 || len(m.vector.sent) != 0 || len(m.lamport.procs) != 0 || len(m.vector.procs) != 0 {
		t.Errorf("kept %d, %d messages and %d, %d processes", len(m.lamport.sent), len(m.vector.sent), len(m.lamport.procs), len(m.vector.procs))
	}
}

// TestVectorCheckerForgets: two processes passing a message back and forth
// see each other's events happen before their next, so the checker keeps
// only the last few of each; a broken vector at the end is still caught.
func TestVectorCheckerForgets(t *testing.T) {
	v := [][]int{{0, 0}, {0, 0}}
	evs := []trace.Event{vclk(0, 1, nil, v[0]), vclk(0, 2, nil, v[1])}
	for i := range 400 {
		p, q := i%2, 1-i%2
		if i > 0 {
			evs = append(evs, msg(int64(i), trace.Deliver, q+1, p+1, uint64(i)))
			v[p] = []int{max(v[p][0], v[q][0]), max(v[p][1], v[q][1])}
		}
		old := v[p]
		v[p] = append([]int(nil), old...)
		v[p][p]++
		evs = append(evs, vclk(int64(i), p+1, old, v[p]), msg(int64(i), trace.Send, p+1, q+1, uint64(i+1)))
	}
	m := feed(evs...)
	if v, _ := m.Check("clock.vector", 400); !v.Pass {
		t.Fatal(v.Text)
	}
	for _, q := range m.vector.order {
		if len(q.evs) > 4 || q.base < 190 {
			t.Errorf("process %d: keeps %d events from the %d-th", q.id, len(q.evs), q.base)
		}
	}
	if len(m.vector.sent) != 1 {
		t.Errorf("%d messages kept, want the one in flight", len(m.vector.sent))
	}
	// Process 1 forgets process 2's latest event, which happened before.
	bad := vclk(401, 1, v[0], []int{v[0][0] + 1, 0})
	bad.Seq = uint64(len(evs))
	m.Observe(&bad)
	if v, _ := m.Check("clock.vector", 401); v.Pass || !strings.Contains(v.Text, "not above") {
		t.Errorf("got pass=%v %s", v.Pass, v.Text)
	}
}
