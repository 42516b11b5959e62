package replay

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"dsim/core/trace"
	"dsim/wasm/internal/runs"
)

// ev builds events with consecutive seqs.
type builder struct{ events []trace.Event }

func (b *builder) add(e trace.Event) int {
	e.Seq = uint64(len(b.events))
	b.events = append(b.events, e)
	return len(b.events) - 1
}

func (b *builder) send(t int64, from, to int, kind string, id uint64) int {
	return b.add(trace.Event{T: t, Type: trace.Send, Node: from, From: from, To: to, Kind: kind, MsgID: id})
}

func (b *builder) deliver(t int64, from, to int, kind string, id uint64) int {
	return b.add(trace.Event{T: t, Type: trace.Deliver, Node: to, From: from, To: to, Kind: kind, MsgID: id})
}

func (b *builder) state(t int64, node int, key string, v any) int {
	return b.add(trace.Event{T: t, Type: trace.State, Node: node, Key: key, New: v})
}

func world(ids []int, b *builder) *trace.World {
	return &trace.World{Header: trace.Header{World: 1, Topology: "ring", IDs: ids}, Events: b.events}
}

// A small bully-like run: 3 crashes, 2 elects itself, tells 1.
func smallRun() *trace.World {
	b := &builder{}
	b.add(trace.Event{T: 0, Type: trace.Crash, Node: 3})
	b.state(1, 2, "role", "candidate")
	b.send(1, 2, 3, "ELECTION", 1)
	b.add(trace.Event{T: 3, Type: trace.Drop, Node: 3, From: 2, To: 3, Kind: "ELECTION", MsgID: 1, Reason: "crashed"})
	b.add(trace.Event{T: 4, Type: trace.Timer, Node: 2, Tag: "T"})
	b.state(4, 2, "role", "leader")
	b.state(4, 2, "leader", 2)
	b.send(4, 2, 1, "COORDINATOR", 2)
	b.deliver(6, 2, 1, "COORDINATOR", 2)
	b.state(6, 1, "leader", 2)
	b.add(trace.Event{T: 6, Type: trace.Check, Node: trace.NoNode, Pass: true, Text: "2 leads", Line: 9})
	b.add(trace.Event{T: 7, Type: trace.Recover, Node: 3})
	b.state(7, 3, "role", "candidate")
	return world([]int{1, 2, 3}, b)
}

func TestViewAtEachPoint(t *testing.T) {
	r := New(smallRun(), 2)
	if got := r.At(0); !got.Up[0] || !got.Up[2] || got.T != 0 || len(got.InFlight()) != 0 {
		t.Fatalf("before any event: %+v", got)
	}
	v := r.At(1)
	if v.Class(2) != Crashed || v.Up[2] {
		t.Errorf("after the crash: process 3 class %q up %v", v.Class(2), v.Up[2])
	}
	v = r.At(3)
	if v.Class(1) != Candidate {
		t.Errorf("process 2 class %q, want candidate", v.Class(1))
	}
	if fl := v.InFlight(); len(fl) != 1 || r.Flights[fl[0]].Kind != "ELECTION" || !r.Flights[fl[0]].Dropped {
		t.Errorf("in flight after the send: %v %+v", fl, r.Flights)
	}
	if len(r.At(4).InFlight()) != 0 {
		t.Errorf("the dropped message is still in flight")
	}
	v = r.At(9)
	if v.Class(1) != Leader {
		t.Errorf("process 2 class %q, want leader", v.Class(1))
	}
	if got, _ := v.Get(1, "leader"); got != "2" {
		t.Errorf("leader at process 2 = %q", got)
	}
	if got := v.State[1]; !reflect.DeepEqual(got, []KV{{"role", `"leader"`}, {"leader", "2"}}) {
		t.Errorf("state of process 2 = %v (want keys in the order they were set)", got)
	}
	if _, ok := v.Get(0, "leader"); ok {
		t.Errorf("process 1 knows the leader before the COORDINATOR arrives")
	}
	if len(v.InFlight()) != 0 {
		t.Errorf("COORDINATOR still in flight after its delivery")
	}
	if fl := r.At(8).InFlight(); len(fl) != 1 || r.Flights[fl[0]].To != 1 {
		t.Errorf("COORDINATOR not in flight: %v", fl)
	}
	v = r.At(len(r.Events))
	if v.Class(2) != Candidate || !v.Up[2] {
		t.Errorf("after the recovery process 3 is %q", v.Class(2))
	}
	if v.T != 7 || v.N != len(r.Events) {
		t.Errorf("end view T=%d N=%d", v.T, v.N)
	}
	if len(r.Checks) != 1 || r.Checks[0].Index != 10 || r.Checks[0].Line != 9 || !r.Checks[0].Pass {
		t.Errorf("checks: %+v", r.Checks)
	}
	if !reflect.DeepEqual(r.StateKeys, []string{"role", "leader"}) {
		t.Errorf("state keys %v", r.StateKeys)
	}
	want := []KindStat{{"COORDINATOR", 1, 1, 0}, {"ELECTION", 1, 0, 1}}
	if !reflect.DeepEqual(r.Kinds, want) {
		t.Errorf("kinds %+v, want %+v", r.Kinds, want)
	}
}

func TestCrashLosesStateAndClassPriority(t *testing.T) {
	b := &builder{}
	b.state(0, 1, "role", "leader")
	b.state(0, 1, "cs", "held")
	b.state(0, 2, "has_token", true)
	b.state(0, 2, "role", "candidate")
	b.state(0, 3, "role", "leader")
	b.state(0, 4, "role", "follower")
	b.state(0, 4, "has_token", false)
	b.state(0, 5, "cs", "held")
	b.state(0, 6, "cs", "wanted")
	b.state(0, 7, "cs", "released")
	b.add(trace.Event{T: 1, Type: trace.Crash, Node: 1})
	b.state(2, 2, "has_token", nil)
	r := New(world([]int{1, 2, 3, 4, 5, 6, 7}, b), 0)
	v := r.At(10)
	for p, want := range []Class{InCS, Token, Leader, None, InCS, Waiting, None} {
		if got := v.Class(p); got != want {
			t.Errorf("process %d: class %q, want %q", p+1, got, want)
		}
	}
	v = r.At(12)
	if v.Class(0) != Crashed || len(v.State[0]) != 0 {
		t.Errorf("crashed process keeps %v", v.State[0])
	}
	if v.Class(1) != Candidate || len(v.State[1]) != 1 {
		t.Errorf("clearing token: class %q state %v", v.Class(1), v.State[1])
	}
}

func TestDuplicateMessageHasTwoFlights(t *testing.T) {
	b := &builder{}
	b.send(0, 1, 2, "M", 7)
	b.deliver(1, 1, 2, "M", 7)
	b.deliver(3, 1, 2, "M", 7)
	r := New(world([]int{1, 2}, b), 0)
	if len(r.Flights) != 2 {
		t.Fatalf("flights %+v", r.Flights)
	}
	if got := len(r.At(1).InFlight()); got != 2 {
		t.Errorf("after the send %d copies in flight, want 2", got)
	}
	if got := len(r.At(2).InFlight()); got != 1 {
		t.Errorf("after one delivery %d in flight, want 1", got)
	}
	if got := r.FlightsOf(0); !reflect.DeepEqual(got, []int{0, 1}) {
		t.Errorf("FlightsOf(send) = %v", got)
	}
	if got := r.FlightsOf(2); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("FlightsOf(second deliver) = %v", got)
	}
}

func TestUnknownProcessesAreAdded(t *testing.T) {
	b := &builder{}
	b.state(0, 9, "role", "leader")
	r := New(world([]int{1}, b), 0)
	if !reflect.DeepEqual(r.Nodes, []int{1, 9}) {
		t.Errorf("nodes %v", r.Nodes)
	}
	if p, ok := r.Pos(9); !ok || r.At(1).Class(p) != Leader {
		t.Errorf("process 9 not tracked")
	}
}

// randomRun makes a random but well-formed trace: sends, deliveries (some
// duplicated, some never), drops, local events, crashes, state changes and
// events at no process.
func randomRun(seed uint64, nodes, steps int) *trace.World {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := &builder{}
	type pending struct {
		from, to int
		id       uint64
		kind     string
	}
	var inFlight []pending
	up := make([]bool, nodes+1)
	for i := range up {
		up[i] = true
	}
	var id uint64
	t := int64(0)
	for range steps {
		t += int64(rng.IntN(3))
		n := 1 + rng.IntN(nodes)
		switch c := rng.IntN(10); {
		case c < 3 && up[n]:
			id++
			to := 1 + rng.IntN(nodes)
			kind := []string{"A", "B"}[rng.IntN(2)]
			b.send(t, n, to, kind, id)
			inFlight = append(inFlight, pending{n, to, id, kind})
		case c < 6 && len(inFlight) > 0:
			k := rng.IntN(len(inFlight))
			m := inFlight[k]
			if rng.IntN(5) == 0 {
				b.add(trace.Event{T: t, Type: trace.Drop, Node: m.to, From: m.from, To: m.to, Kind: m.kind, MsgID: m.id, Reason: "loss"})
			} else {
				b.deliver(t, m.from, m.to, m.kind, m.id)
			}
			if rng.IntN(4) != 0 { // else it may arrive again (a duplicate)
				inFlight = append(inFlight[:k], inFlight[k+1:]...)
			}
		case c == 6:
			if up[n] {
				b.add(trace.Event{T: t, Type: trace.Crash, Node: n})
			} else {
				b.add(trace.Event{T: t, Type: trace.Recover, Node: n})
			}
			up[n] = !up[n]
		case c == 7 && up[n]:
			b.state(t, n, []string{"role", "x"}[rng.IntN(2)], []any{"leader", "candidate", nil, 3}[rng.IntN(4)])
		case c == 8:
			b.add(trace.Event{T: t, Type: trace.Log, Node: trace.NoNode, Text: "scenario"})
		default:
			b.add(trace.Event{T: t, Type: trace.Timer, Node: n, Tag: "tick"})
		}
	}
	ids := make([]int, nodes)
	for i := range ids {
		ids[i] = i + 1
	}
	return world(ids, b)
}

// Seeking through snapshots must give exactly what a replay from the start
// gives.
func TestSnapshotsAgreeWithFullReplay(t *testing.T) {
	for seed := range uint64(20) {
		w := randomRun(seed, 5, 400)
		full, snapped := New(w, len(w.Events)+1), New(w, 7)
		for n := 0; n <= len(w.Events); n++ {
			a, b := full.At(n), snapped.At(n)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("seed %d n %d:\nfull    %+v\nsnapped %+v", seed, n, a, b)
			}
			if n == 0 {
				continue
			}
			// in flight: sent within the first n, ended at n or later (or never)
			var want []int
			for f, fl := range full.Flights {
				if fl.Send < n && (fl.End < 0 || fl.End >= n) {
					want = append(want, f)
				}
			}
			if got := b.InFlight(); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("seed %d n %d: in flight %v, want %v", seed, n, got, want)
			}
		}
	}
}

// Causal must agree with the definition: the transitive closure of process
// order and send -> deliver, computed here by a plain graph search.
func TestCausalMatchesTransitiveClosure(t *testing.T) {
	for seed := range uint64(10) {
		w := randomRun(100+seed, 4, 150)
		r := New(w, 0)
		n := len(w.Events)
		succ := make([][]int, n)
		last := map[int]int{}
		sendAt := map[uint64]int{}
		for i, e := range w.Events {
			if e.Node == trace.NoNode {
				continue
			}
			if p, ok := last[e.Node]; ok {
				succ[p] = append(succ[p], i)
			}
			last[e.Node] = i
			switch e.Type {
			case trace.Send:
				sendAt[e.MsgID] = i
			case trace.Deliver:
				succ[sendAt[e.MsgID]] = append(succ[sendAt[e.MsgID]], i)
			}
		}
		reach := func(from int) []bool {
			seen := make([]bool, n)
			stack := []int{from}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, y := range succ[x] {
					if !seen[y] {
						seen[y] = true
						stack = append(stack, y)
					}
				}
			}
			return seen
		}
		closure := make([][]bool, n)
		for i := range n {
			closure[i] = reach(i)
		}
		for x := range n {
			past, future := r.Causal(x)
			if r.nodeOf[x] < 0 {
				if past != nil || future != nil {
					t.Fatalf("seed %d: event %d at no process has a causal cone", seed, x)
				}
				continue
			}
			for y := range n {
				if future[y] != closure[x][y] {
					t.Fatalf("seed %d: future of %d contains %d = %v, closure says %v", seed, x, y, future[y], closure[x][y])
				}
				if past[y] != closure[y][x] {
					t.Fatalf("seed %d: past of %d contains %d = %v, closure says %v", seed, x, y, past[y], closure[y][x])
				}
			}
		}
	}
}

func TestIndexOfSeqAndText(t *testing.T) {
	r := New(smallRun(), 0)
	if i, ok := r.IndexOfSeq(10); !ok || i != 10 {
		t.Errorf("IndexOfSeq(10) = %d %v", i, ok)
	}
	if _, ok := r.IndexOfSeq(99); ok {
		t.Errorf("IndexOfSeq(99) found")
	}
	if got := r.Text(7); got != "P2 send COORDINATOR -> P1 [m2]" {
		t.Errorf("Text = %q", got)
	}
}

func BenchmarkNew10kMessages(b *testing.B) {
	w := randomRun(1, 16, 60000)
	b.ResetTimer()
	for range b.N {
		New(w, 0)
	}
}

func BenchmarkSeek(b *testing.B) {
	w := randomRun(1, 16, 60000)
	r := New(w, 0)
	b.ResetTimer()
	for i := range b.N {
		r.At(i * 7919 % len(w.Events))
	}
}

func BenchmarkCausal(b *testing.B) {
	w := randomRun(1, 16, 60000)
	r := New(w, 0)
	b.ResetTimer()
	for i := range b.N {
		r.Causal(i * 7919 % len(w.Events))
	}
}

func TestFilter(t *testing.T) {
	r := New(smallRun(), 0)
	all := r.Filter(Filter{Node: AnyNode})
	if len(all) != len(r.Events) {
		t.Errorf("no filter kept %d of %d", len(all), len(r.Events))
	}
	cases := []struct {
		f    Filter
		want []int
	}{
		{Filter{Node: 3}, []int{0, 3, 11, 12}},
		{Filter{Node: AnyNode, Type: trace.State}, []int{1, 5, 6, 9, 12}},
		{Filter{Node: AnyNode, Kind: "COORDINATOR"}, []int{7, 8}},
		{Filter{Node: 2, Type: trace.Send}, []int{2, 7}},
		{Filter{Node: AnyNode, Text: "coordinator <- p2"}, []int{8}},
		{Filter{Node: AnyNode, Text: "LEADS"}, []int{10}},
		{Filter{Node: 1, Text: "ELECTION"}, []int{}},
	}
	for _, c := range cases {
		if got := r.Filter(c.f); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Filter(%+v) = %v, want %v", c.f, got, c.want)
		}
		// the same with the search texts made in part beforehand, or all
		for _, prepared := range []int{3, len(r.Events)} {
			q := New(smallRun(), 0)
			if done := q.PrepareText(prepared); done != (prepared >= len(q.Events)) {
				t.Errorf("PrepareText(%d) of %d events = %v", prepared, len(q.Events), done)
			}
			if got := q.Filter(c.f); !reflect.DeepEqual(got, c.want) {
				t.Errorf("after PrepareText(%d): Filter(%+v) = %v, want %v", prepared, c.f, got, c.want)
			}
		}
	}
	if got := r.KindNames(); !reflect.DeepEqual(got, []string{"COORDINATOR", "ELECTION"}) {
		t.Errorf("KindNames = %v", got)
	}
}

// Classes lists exactly the changes of View.Class from one event to the
// next.
func TestClassesFollowTheViews(t *testing.T) {
	for seed := range uint64(5) {
		r := New(randomRun(seed, 4, 400), 16)
		class := make([]Class, len(r.Nodes))
		k := 0
		for n := 1; n <= len(r.Events); n++ {
			for ; k < len(r.Classes) && r.Classes[k].Index == n-1; k++ {
				if c := r.Classes[k]; c.Class == class[c.Pos] {
					t.Fatalf("seed %d: change %d to the class %q a process had", seed, k, c.Class)
				}
				class[r.Classes[k].Pos] = r.Classes[k].Class
			}
			v := r.At(n)
			for p := range r.Nodes {
				if got := v.Class(p); got != class[p] {
					t.Fatalf("seed %d, after %d events: process %d is %q, Classes say %q", seed, n, p, got, class[p])
				}
			}
		}
		if k != len(r.Classes) {
			t.Errorf("seed %d: %d changes of %d in event order", seed, k, len(r.Classes))
		}
	}
}

// Find, over a whole world, agrees with Filter over its replay: the first
// selected event from a position on, or the last before it.
func TestFindAgreesWithFilter(t *testing.T) {
	worlds, err := runs.Examples()
	if err != nil {
		t.Fatal(err)
	}
	// the first few, and the longest, which Find reads in several stretches
	slices.SortStableFunc(worlds[8:], func(a, b trace.World) int { return len(b.Events) - len(a.Events) })
	for _, w := range worlds[:min(len(worlds), 12)] {
		r := New(&w, 0)
		n := len(w.Events)
		for _, f := range []Filter{
			{Node: AnyNode},
			{Node: AnyNode, Type: trace.Deliver},
			{Node: r.Nodes[0], Type: trace.State},
			{Node: AnyNode, Text: "ELECT"},
			{Node: AnyNode, Text: "no event says this"},
		} {
			sel := r.Filter(f)
			for _, from := range []int{0, 1, n / 3, n / 2, n - 1, n} {
				next, prev := -1, -1
				for _, i := range sel {
					if i >= from && next < 0 {
						next = i
					}
					if i < from {
						prev = i
					}
				}
				if got := Find(&w, f, from, true); got != next {
					t.Errorf("world %d, %+v: the next from %d is %d, Find says %d", w.Header.World, f, from, next, got)
				}
				if got := Find(&w, f, from, false); got != prev {
					t.Errorf("world %d, %+v: the last before %d is %d, Find says %d", w.Header.World, f, from, prev, got)
				}
			}
		}
	}
}

// A clock correction replays as a log line of its process and changes no
// state.
func TestClockEvent(t *testing.T) {
	b := &builder{}
	b.state(1, 2, "role", "leader")
	b.add(trace.Event{T: 2, Type: trace.Clock, Node: 2, Local: 1040, Kind: "step", Delta: -40})
	b.add(trace.Event{T: 3, Type: trace.Clock, Node: 1, Local: 3, Kind: "slew", Delta: 5, Over: 50})
	r := New(world([]int{1, 2}, b), 0)
	if got := r.Text(1); got != "P2 clock step 1040 -> 1000" {
		t.Errorf("Text = %q", got)
	}
	if got := r.Text(2); got != "P1 clock slew 3 by 5 over 50" {
		t.Errorf("Text = %q", got)
	}
	if v := r.At(3); !v.Up[0] || !v.Up[1] || len(v.State[1]) != 1 || v.T != 3 {
		t.Errorf("after the corrections: %+v", v)
	}
}
