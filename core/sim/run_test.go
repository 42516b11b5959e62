package sim

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"dsim/core/trace"
)

// ticker re-arms a timer of period d forever and counts its firings.
func ticker(d Duration, count *int) Factory {
	return func(NodeID) Node {
		return &fnNode{
			start: func(ctx Context) { ctx.SetTimer(d, "tick") },
			timer: func(ctx Context, tag string) {
				*count++
				ctx.SetTimer(d, tag)
			},
		}
	}
}

func TestEventLimitStopsZeroDelayLoop(t *testing.T) {
	n := 0
	s, _ := world(t, []NodeID{1}, DefaultLink, ticker(0, &n), func(c *Config) { c.MaxEvents = 1000 })
	res := s.Run(Until{})
	if res.Reason != EventLimit || !res.Limited() || res.Events != 1000 || res.Time != 0 || n != 999 {
		t.Fatalf("result %+v after %d firings; want the event limit after 1000 events at t=0", res, n)
	}
	if !strings.Contains(res.String(), "event limit") {
		t.Fatalf("String() = %q does not name the limit", res.String())
	}
	// The limit bounds the whole run, not each Run call.
	if res := s.Run(Until{}); res.Reason != EventLimit || res.Events != 0 {
		t.Fatalf("second run %+v", res)
	}
}

func TestTimeLimit(t *testing.T) {
	n := 0
	s, _ := world(t, []NodeID{1}, DefaultLink, ticker(7, &n), func(c *Config) { c.MaxTime = 100 })
	res := s.Run(Until{})
	// Start at 0, firings at 7, 14, ..., 98.
	if res.Reason != TimeLimit || !res.Limited() || res.Time != 100 || res.Events != 15 || n != 14 {
		t.Fatalf("result %+v after %d firings", res, n)
	}
	if !strings.Contains(res.String(), "time limit at t=100") {
		t.Fatalf("String() = %q", res.String())
	}
	// A requested time beyond the limit stops at the limit too.
	s2, _ := world(t, []NodeID{1}, DefaultLink, idle, func(c *Config) { c.MaxTime = 50 })
	if res := s2.Run(Until{Time: 80}); res.Reason != TimeLimit || res.Time != 50 {
		t.Fatalf("idle run to 80 with MaxTime 50: %+v", res)
	}
}

func TestQuiescentBeatsExhaustedLimit(t *testing.T) {
	s, _ := world(t, []NodeID{1, 2, 3}, DefaultLink, idle, func(c *Config) { c.MaxEvents = 3 })
	if res := s.Run(Until{}); res.Reason != Quiescent || res.Events != 3 {
		t.Fatalf("three boots with MaxEvents 3: %+v, want quiescent", res)
	}
}

func TestUntilTime(t *testing.T) {
	n := 0
	s, _ := world(t, []NodeID{1}, DefaultLink, ticker(7, &n))
	res := s.Run(Until{Time: 49})
	if res.Reason != ReachedTime || res.Time != 49 || s.Now() != 49 || n != 7 {
		t.Fatalf("%+v with %d firings; want t=49 after the firing at 49", res, n)
	}
	if res := s.Run(Until{Time: 30}); res.Reason != ReachedTime || res.Events != 0 || s.Now() != 49 {
		t.Fatalf("running to an earlier time: %+v, now %d", res, s.Now())
	}
	idleSim, _ := world(t, []NodeID{1}, DefaultLink, idle)
	if res := idleSim.Run(Until{Time: 500}); res.Reason != ReachedTime || idleSim.Now() != 500 {
		t.Fatalf("quiet run to 500: %+v", res)
	}
}

func TestUntilEventsAndPredicate(t *testing.T) {
	n := 0
	s, _ := world(t, []NodeID{1}, DefaultLink, ticker(3, &n))
	if res := s.Run(Until{Events: 5}); res.Reason != EventCount || res.Events != 5 || n != 4 {
		t.Fatalf("%+v, %d firings", res, n)
	}
	res := s.Run(Until{Pred: func() bool { return n >= 10 }})
	if res.Reason != Predicate || n != 10 || res.Time != 30 {
		t.Fatalf("%+v, %d firings; want to stop right after the 10th at t=30", res, n)
	}
	if res := s.Run(Until{Pred: func() bool { return true }}); res.Reason != Predicate || res.Events != 0 {
		t.Fatalf("a predicate true from the start: %+v", res)
	}
}

func TestStopFromObserver(t *testing.T) {
	n := 0
	s, _ := world(t, []NodeID{1}, DefaultLink, ticker(1, &n))
	s.Observe(func(e *trace.Event) {
		if e.Type == trace.Timer && e.T == 5 {
			s.Stop()
		}
	})
	if res := s.Run(Until{}); res.Reason != Stopped || res.Time != 5 || n != 5 {
		t.Fatalf("%+v, %d firings", res, n)
	}
	if s.Running() {
		t.Fatal("Running after Run returned")
	}
}

// TestLimitsInsideATick: the event counts and Stop take effect between any
// two events, also among the many of one tick, which Run takes in a tight
// loop; with and without tracing.
func TestLimitsInsideATick(t *testing.T) {
	const n = 12
	mk := func(id NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			if id == 1 {
				ctx.Broadcast(msg{})
			}
		}}
	}
	build := func(traced bool, opt ...func(*Config)) *Sim {
		cfg := Config{Seed: 1, Topology: Topology{Name: "complete", IDs: ringIDs(n)}, Factory: mk, Link: DefaultLink}
		for _, o := range opt {
			o(&cfg)
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if traced {
			s.Observe(func(*trace.Event) {})
		}
		return s
	}
	for _, traced := range []bool{false, true} {
		// n boots at t=0, then n-1 deliveries at t=1.
		for k := uint64(1); k < 2*n-1; k++ {
			if res := build(traced).Run(Until{Events: k}); res.Reason != EventCount || res.Events != k {
				t.Errorf("traced %v, Until{Events: %d}: %+v", traced, k, res)
			}
			if res := build(traced, func(c *Config) { c.MaxEvents = k }).Run(Until{}); res.Reason != EventLimit || res.Events != k {
				t.Errorf("traced %v, MaxEvents %d: %+v", traced, k, res)
			}
		}
		s := build(traced)
		pred := func() bool { return s.Stats().Delivered == 3 }
		if res := s.Run(Until{Pred: pred}); res.Reason != Predicate || res.Events != n+3 {
			t.Errorf("traced %v, until the third delivery: %+v", traced, res)
		}
		// A scenario action due at t=1 comes before the deliveries, which
		// were scheduled later.
		s = build(traced)
		s.At(1, s.Stop)
		if res := s.Run(Until{}); res.Reason != Stopped || res.Events != n+1 || s.Stats().Delivered != 0 {
			t.Errorf("traced %v, stopped at t=1: %+v after %d deliveries", traced, res, s.Stats().Delivered)
		}
		if res := s.Run(Until{}); res.Reason != Quiescent || res.Events != n-1 {
			t.Errorf("traced %v, the run resumed: %+v", traced, res)
		}
	}
	s := build(false)
	delivered := 0
	s.Observe(func(e *trace.Event) {
		if e.Type == trace.Deliver {
			if delivered++; delivered == 3 {
				s.Stop()
			}
		}
	})
	if res := s.Run(Until{}); res.Reason != Stopped || res.Events != n+3 || delivered != 3 {
		t.Errorf("stopped by an observer at the third delivery: %+v after %d deliveries", res, delivered)
	}
}

func TestStats(t *testing.T) {
	mk := func(id NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			if id == 1 {
				ctx.Broadcast(msg{})
				ctx.Send(9, msg{})
			}
		}}
	}
	s, _ := world(t, []NodeID{1, 2, 3}, DefaultLink, mk)
	s.At(0, func() { must(t, s.Crash(3)) })
	s.At(1, func() { must(t, s.Inject(2, 1, kindMsg("A"))) })
	s.Run(Until{})
	st := s.Stats()
	want := []KindStats{{Kind: "A", Sent: 1, Delivered: 1}, {Kind: "M", Sent: 3, Delivered: 1, Dropped: 2}}
	if !slices.Equal(st.Kinds, want) {
		t.Fatalf("kinds %+v, want %+v", st.Kinds, want)
	}
	if st.Sent != 4 || st.Delivered != 2 || st.Dropped != 2 || st.Time != 2 {
		t.Fatalf("stats %+v", st)
	}
	if st.DropReasons["crashed"] != 1 || st.DropReasons["no-such-process"] != 1 || len(st.DropReasons) != 2 {
		t.Fatalf("drop reasons %v", st.DropReasons)
	}
	// 3 boots, 2 actions, 2 deliveries (to 2 and the injected A), 1 drop on
	// arrival, 1 detector update for the crash.
	if st.Events != 9 || st.Events != s.Events() {
		t.Fatalf("events %d, want 9", st.Events)
	}
}

type kindMsg string

func (k kindMsg) Kind() string { return string(k) }

func TestTopologyView(t *testing.T) {
	ids := []NodeID{3, 5, 0, 1, 4, 6}
	ring := [][]int32{{1}, {2}, {3}, {4}, {5}, {0}}
	views := map[NodeID]Context{}
	mk := func(id NodeID) Node {
		return &fnNode{start: func(ctx Context) { views[id] = ctx }}
	}
	s, err := New(Config{Topology: Topology{IDs: ids, Adj: ring}, Factory: mk, Link: DefaultLink})
	must(t, err)
	s.Run(Until{})
	c := views[3]
	for dir, want := range map[int]NodeID{1: 5, 2: 0, -1: 6, -2: 4, 6: 3, 7: 5, -13: 6, 0: 3} {
		if got := c.Neighbor(dir); got != want {
			t.Errorf("Neighbor(%d) of 3 = %d, want %d", dir, got, want)
		}
	}
	if got := views[0].Peers(); !slices.Equal(got, []NodeID{1, 4, 6, 3, 5}) {
		t.Errorf("Peers of 0 = %v", got)
	}
	if got := views[0].Neighbors(); !slices.Equal(got, []NodeID{1}) {
		t.Errorf("Neighbors of 0 on the ring = %v", got)
	}
	if c.N() != 6 || c.Self() != 3 {
		t.Errorf("N %d, Self %d", c.N(), c.Self())
	}
	// Appending to a shared slice must not write into the kernel's.
	_ = append(views[6].Peers(), 99)
	_ = append(views[0].Neighbors(), 99)
	if got := views[3].Peers(); !slices.Equal(got, []NodeID{5, 0, 1, 4, 6}) {
		t.Errorf("Peers of 3 after an append elsewhere = %v", got)
	}

	complete, _ := world(t, []NodeID{7, 8, 9}, DefaultLink, mk)
	complete.Run(Until{})
	if got := views[8].Neighbors(); !slices.Equal(got, []NodeID{9, 7}) {
		t.Errorf("Neighbors of 8 on a complete graph = %v", got)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	ok := Config{Topology: Topology{IDs: []NodeID{1, 2}}, Factory: idle, Link: DefaultLink}
	for name, change := range map[string]func(c *Config){
		"no processes":   func(c *Config) { c.Topology.IDs = nil },
		"duplicate id":   func(c *Config) { c.Topology.IDs = []NodeID{1, 1} },
		"duplicate far":  func(c *Config) { c.Topology.IDs = []NodeID{1, 1 << 30, 1} },
		"id too low":     func(c *Config) { c.Topology.IDs = []NodeID{trace.NoNode, 1} },
		"adj rows":       func(c *Config) { c.Topology.Adj = [][]int32{{1}} },
		"adj index":      func(c *Config) { c.Topology.Adj = [][]int32{{1}, {2}} },
		"adj negative":   func(c *Config) { c.Topology.Adj = [][]int32{{-1}, {0}} },
		"no factory":     func(c *Config) { c.Factory = nil },
		"bad link":       func(c *Config) { c.Link.Loss = 2 },
		"negative delay": func(c *Config) { c.DetectDelay = -1 },
	} {
		c := ok
		change(&c)
		if _, err := New(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := New(ok); err != nil {
		t.Fatal(err)
	}
}

func TestStateTrace(t *testing.T) {
	list := []int{1, 2}
	mk := func(NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			ctx.Set("role", "leader")
			ctx.Set("role", "leader") // unchanged: no event
			ctx.Set("list", list)
			list[0] = 99 // must not rewrite what was recorded
			ctx.Set("list", []int{1, 2})
			ctx.Set("role", nil)
			ctx.Log("x=%d", 3)
		}}
	}
	s, rec := world(t, []NodeID{1}, DefaultLink, mk)
	s.Run(Until{})
	var got []string
	for _, e := range rec.Events {
		switch e.Type {
		case trace.State:
			got = append(got, e.Key+":"+string(trace.AppendJSON(nil, e.Old))+"->"+string(trace.AppendJSON(nil, e.New)))
		case trace.Log:
			got = append(got, "log "+e.Text)
		}
	}
	want := []string{`role:null->"leader"`, `list:null->[1,2]`, `role:"leader"->null`, "log x=3"}
	if !slices.Equal(got, want) {
		t.Fatalf("state events %q, want %q", got, want)
	}
	if v := s.Get(1, "list"); !slices.Equal(v.([]int), []int{1, 2}) {
		t.Fatalf("Get list = %v", v)
	}
}

func TestArgs(t *testing.T) {
	a := Args{"n": 3.0, "id": NodeID(4), "s": "x", "f": 2.5}
	if v, err := a.Int("n", 0); v != 3 || err != nil {
		t.Errorf("Int(n) = %d, %v", v, err)
	}
	if v, err := a.Int("id", 0); v != 4 || err != nil {
		t.Errorf("Int(id) = %d, %v", v, err)
	}
	if v, err := a.Int("missing", 7); v != 7 || err != nil {
		t.Errorf("Int(missing) = %d, %v", v, err)
	}
	for _, k := range []string{"s", "f"} {
		if _, err := a.Int(k, 0); err == nil {
			t.Errorf("Int(%s) accepted a non-integer", k)
		}
	}
	if got := a.String(); got != `f=2.5 id=4 n=3 s="x"` {
		t.Errorf("String() = %s", got)
	}
}

func TestDeterministicPerSeed(t *testing.T) {
	a, b, c := richTrace(t, 7), richTrace(t, 7), richTrace(t, 8)
	if string(a) != string(b) {
		t.Fatal("two runs with one seed differ")
	}
	if string(a) == string(c) {
		t.Fatal("two seeds gave the same run")
	}
}

// TestZeroAllocsPerDelivery checks the hot path allocates nothing per
// delivered message with tracing off, for constant and random FIFO links.
func TestZeroAllocsPerDelivery(t *testing.T) {
	for _, link := range []Link{DefaultLink, {Latency: Dist{Kind: Uniform, A: 1, B: 20}, FIFO: true}} {
		s := tokenRing(t, 64, link)
		s.Run(Until{Events: 10000}) // warm up: queue pool and FIFO table
		allocs := testing.AllocsPerRun(20, func() {
			if res := s.Run(Until{Events: 1000}); res.Events != 1000 {
				t.Fatalf("run %+v", res)
			}
		})
		if allocs != 0 {
			t.Errorf("%v: %.1f allocations per 1000 deliveries", link.Latency, allocs)
		}
	}
}

// Send after Neighbor takes a shortcut for the id Neighbor returned; it
// must never send to the remembered neighbour instead of the one asked for.
func TestSendAfterNeighbor(t *testing.T) {
	mk := func(id NodeID) Node {
		if id != 3 {
			return &fnNode{}
		}
		return &fnNode{start: func(ctx Context) {
			ctx.Neighbor(2)
			ctx.Send(5, msg{1}) // not the neighbour just looked up
			ctx.Send(ctx.Neighbor(-1), msg{2})
			ctx.Send(ctx.Neighbor(1), msg{3})
			ctx.Neighbor(1)
			ctx.Send(99, msg{4})
			ctx.Send(ctx.Neighbor(8), msg{5})
		}}
	}
	s, rec := world(t, []NodeID{3, 5, 0, 1, 4, 6}, DefaultLink, mk)
	s.Run(Until{})
	checkFates(t, rec, []fate{
		{4, trace.Drop, 0, 3, "no-such-process"},
		{1, trace.Deliver, 1, 5, ""},
		{2, trace.Deliver, 1, 6, ""},
		{3, trace.Deliver, 1, 5, ""},
		{5, trace.Deliver, 1, 0, ""},
	})
}

// TestQuiescenceIgnoresDeadTimers is the ring-six symptom: a process arms a
// long timeout and cancels it when the answer comes. Once the last message
// is delivered nothing live is pending, so a run to quiescence must stop
// there and not move the clock on to where the cancelled timer was due.
func TestQuiescenceIgnoresDeadTimers(t *testing.T) {
	mk := func(id NodeID) Node {
		return &fnNode{
			start: func(ctx Context) {
				if id == 1 {
					ctx.SetTimer(199, "timeout")
					ctx.SetTimer(150, "retry")
					ctx.SetTimer(120, "retry") // replaces the one due at 150
					ctx.SetTimer(5000, "far")  // beyond the calendar window
					ctx.Send(2, msg{N: 1})
				}
			},
			receive: func(ctx Context, from NodeID, m Message) {
				if n := m.(msg).N; n < 25 {
					ctx.Send(from, msg{N: n + 1})
				} else if ctx.Self() == 2 {
					ctx.Send(from, msg{N: n + 1}) // the last message, received at t=26
				} else {
					for _, tag := range []string{"timeout", "retry", "far", "never-armed"} {
						ctx.CancelTimer(tag)
					}
				}
			},
			timer: func(ctx Context, tag string) { t.Errorf("timer %q fired at t=%d", tag, ctx.Now()) },
		}
	}
	s, rec := world(t, []NodeID{1, 2}, DefaultLink, mk)
	res := s.Run(Until{})
	last := rec.Events[len(rec.Events)-1]
	if res.Reason != Quiescent || res.Time != 26 || s.Now() != 26 || last.T != 26 || s.Pending() != 0 {
		t.Fatalf("run %+v, now %d, last event %v at %d, %d pending; want quiescent at t=26", res, s.Now(), last.Type, last.T, s.Pending())
	}
	// Running on to a later time neither fires the dead timers nor lets the
	// clock go back when their entries are finally discarded.
	if res := s.Run(Until{Time: 300}); res.Reason != ReachedTime || s.Now() != 300 {
		t.Fatalf("run to 300: %+v", res)
	}
	must(t, s.Inject(2, 1, msg{N: 100}))
	if res := s.Run(Until{}); res.Reason != Quiescent || res.Time != 301 || res.Events != 1 {
		t.Fatalf("after an injected message: %+v, want one delivery at t=301", res)
	}
	if s.Step() {
		t.Fatal("Step found an event in a quiescent run")
	}
}

// TestQuiescenceAfterCrashAndDetector checks the other dead entries: the
// timers a crash discards and the detector transitions that a recovery
// overtakes. A crash at 10 and a recovery at 20, with a detector delay of
// 50, leave nothing that would show in the trace after t=20.
func TestQuiescenceAfterCrashAndDetector(t *testing.T) {
	mk := func(NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			if !ctx.Recovered() {
				ctx.SetTimer(500, "lease")
			}
		}}
	}
	s, rec := world(t, []NodeID{1, 2}, DefaultLink, mk, func(c *Config) { c.DetectDelay = 50 })
	s.At(10, func() { must(t, s.Crash(2)) })
	s.At(20, func() {
		must(t, s.Recover(2))
		s.nodes[s.mustIndexOf(2)].CancelTimer("lease") // the recovered process gave up its lease
	})
	s.At(30, func() { s.nodes[s.mustIndexOf(1)].CancelTimer("lease") })
	res := s.Run(Until{})
	if res.Reason != Quiescent || s.Now() != 30 || s.Pending() != 0 {
		t.Fatalf("run %+v, %d pending; want quiescent at t=30", res, s.Pending())
	}
	if n := len(of(rec, trace.Suspect)) + len(of(rec, trace.Trust)); n != 0 {
		t.Fatalf("%d detector events for a crash shorter than the detector delay", n)
	}
	// A crash that outlasts the delay is suspected, and trusted again a
	// delay after its recovery.
	s.At(40, func() { must(t, s.Crash(1)) })
	s.At(100, func() { must(t, s.Recover(1)) })
	res = s.Run(Until{})
	sus, tru := of(rec, trace.Suspect), of(rec, trace.Trust)
	if res.Reason != Quiescent || s.Now() != 150 || len(sus) != 1 || sus[0].T != 90 || len(tru) != 1 || tru[0].T != 150 {
		t.Fatalf("run %+v; suspect %v, trust %v; want suspect at 90, trust at 150", res, sus, tru)
	}
}

func (s *Sim) mustIndexOf(id NodeID) int32 {
	i, ok := s.index(id)
	if !ok {
		panic("no process")
	}
	return i
}

// TestDeadCountMatchesQueue drives timers, cancellations, crashes and
// recoveries at random and checks after every event that the count of dead
// entries is exactly the number of queued entries that would do nothing.
func TestDeadCountMatchesQueue(t *testing.T) {
	var s *Sim
	r := Stream(9, "test", 0)
	tags := []string{"a", "b", "c"}
	ids := []NodeID{1, 2, 3, 4}
	poke := func(ctx Context) {
		for range r.IntN(3) {
			tag := tags[r.IntN(len(tags))]
			if r.IntN(3) == 0 {
				ctx.CancelTimer(tag)
			} else {
				ctx.SetTimer(Duration(r.IntN(2*nBuckets)), tag)
			}
		}
	}
	mk := func(NodeID) Node { return &fnNode{start: poke, timer: func(ctx Context, _ string) { poke(ctx) }} }
	s, _ = world(t, ids, DefaultLink, mk, func(c *Config) { c.DetectDelay = 40 })
	check := func(when string) {
		n := 0
		s.q.each(func(_ Time, e *event) {
			if s.isDead(e) {
				n++
			}
		})
		if n != s.dead {
			t.Fatalf("%s at t=%d: %d dead entries queued, counted %d", when, s.now, n, s.dead)
		}
	}
	for step := 0; step < 3000; step++ {
		id := ids[r.IntN(len(ids))]
		switch r.IntN(20) {
		case 0:
			if s.Up(id) {
				must(t, s.Crash(id))
			}
		case 1:
			if !s.Up(id) {
				must(t, s.Recover(id))
			}
		}
		check("before a step")
		if !s.Step() {
			for _, id := range ids {
				if !s.Up(id) {
					must(t, s.Recover(id))
				}
			}
		}
		check("after a step")
	}
}

// A node or observer that runs the simulation from inside an event gets a
// clear panic: the entry being processed would be reused under it.
func TestRunInsideAnEventPanics(t *testing.T) {
	for name, nested := range map[string]func(s *Sim){
		"Run":  func(s *Sim) { s.Run(Until{}) },
		"Step": func(s *Sim) { s.Step() },
	} {
		var s *Sim
		var got any
		mk := func(NodeID) Node {
			return &fnNode{start: func(Context) {
				defer func() { got = recover() }()
				nested(s)
			}}
		}
		s, _ = world(t, []NodeID{1}, DefaultLink, mk)
		s.Step()
		if msg, _ := got.(string); !strings.Contains(msg, "called while the simulation is running") {
			t.Errorf("%s inside an event: recovered %v", name, got)
		}
		if s.Running() {
			t.Errorf("%s: still running after the outer Step", name)
		}
	}
}

// TestStateOrderPerProcess: each process lists its keys in the order it set
// them, whatever order others used; a key set to nil stays listed, one never
// set does not appear, and a crash forgets everything.
func TestStateOrderPerProcess(t *testing.T) {
	n := 2*statePage + 5 // state is stored in pages of processes
	ids := make([]NodeID, n)
	for i := range ids {
		ids[i] = NodeID(i + 1)
	}
	mk := func(id NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			if r := id % 3; r == 0 {
				ctx.Set("b", int(id))
				ctx.Set("a", true)
			} else {
				ctx.Set("a", false)
				ctx.Set("gone", nil) // never set: not listed
				ctx.Set("b", int(id))
				if r == 2 {
					ctx.Set("a", nil)
				}
			}
		}}
	}
	s, _ := world(t, ids, DefaultLink, mk)
	s.Run(Until{})
	for _, id := range []NodeID{1, 2, 3, NodeID(statePage), NodeID(n)} {
		var want []KV
		switch id % 3 {
		case 0:
			want = []KV{{"b", int(id)}, {"a", true}}
		case 1:
			want = []KV{{"a", false}, {"b", int(id)}}
		case 2:
			want = []KV{{"a", nil}, {"b", int(id)}}
		}
		if got := s.State(id); !slices.Equal(got, want) {
			t.Errorf("process %d: state %v, want %v", id, got, want)
		}
		if got := s.Get(id, "b"); got != int(id) {
			t.Errorf("process %d: Get(b) = %v", id, got)
		}
	}
	must(t, s.Crash(NodeID(n)))
	if st, v := s.State(NodeID(n)), s.Get(NodeID(n), "b"); st != nil || v != nil {
		t.Errorf("crashed process kept state %v, b=%v", st, v)
	}
	if v := s.Get(1, "never"); v != nil {
		t.Errorf("Get of a key nobody set = %v", v)
	}
}

// TestStateManyKeys: a scenario may give every process keys of its own. The
// store must keep each process's order, and not cost a column's worth of
// memory per key.
func TestStateManyKeys(t *testing.T) {
	const n = 50_000
	ids := make([]NodeID, n)
	for i := range ids {
		ids[i] = NodeID(i)
	}
	mk := func(id NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			if id%2 == 0 {
				ctx.Set("common", true)
			}
			ctx.Set(fmt.Sprintf("own%d", id), int(id))
			ctx.Set("common", false)
		}}
	}
	s, err := New(Config{Seed: 1, Topology: Topology{Name: "ring", IDs: ids}, Factory: mk, Link: DefaultLink})
	must(t, err)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s.Run(Until{})
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("%d processes with a key each allocated %d MB", n, grew>>20)
	}
	for _, id := range []NodeID{0, 1, 2, 4097, n - 1} {
		own := KV{fmt.Sprintf("own%d", id), int(id)}
		want := []KV{{"common", false}, own}
		if id%2 == 1 {
			want = []KV{own, {"common", false}}
		}
		if got := s.State(id); !slices.Equal(got, want) {
			t.Errorf("process %d: state %v, want %v", id, got, want)
		}
		if got := s.Get(id, own.Key); got != int(id) {
			t.Errorf("process %d: Get(%s) = %v", id, own.Key, got)
		}
	}
	if got := s.Get(3, "own4"); got != nil {
		t.Errorf("process 3 has process 4's key: %v", got)
	}
}

// TestStateKeysPastTheMask: keys below 64 are looked up in the shape's bit
// mask, the others along the shape: around that boundary a key set again to
// its value is no change, a new value is one with the old value, and a key
// another process has is not this one's.
func TestStateKeysPastTheMask(t *testing.T) {
	name := func(k int) string { return fmt.Sprintf("k%d", k) }
	mk := func(id NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			if id == 1 {
				for round := range 3 {
					for k := range 70 {
						ctx.Set(name(k), min(round, 1))
					}
				}
				return
			}
			for range 2 {
				for _, k := range []int{64, 63} {
					ctx.Set(name(k), k)
				}
			}
			ctx.Set(name(65), true)
			ctx.Set(name(62), true)
		}}
	}
	s, rec := world(t, []NodeID{1, 2}, DefaultLink, mk)
	s.Run(Until{})
	var want1 []KV
	for k := range 70 {
		want1 = append(want1, KV{name(k), 1})
	}
	if got := s.State(1); !slices.Equal(got, want1) {
		t.Errorf("process 1: state %v, want %v", got, want1)
	}
	want2 := []KV{{"k64", 64}, {"k63", 63}, {"k65", true}, {"k62", true}}
	if got := s.State(2); !slices.Equal(got, want2) {
		t.Errorf("process 2: state %v, want %v", got, want2)
	}
	changes := map[int][]string{}
	for _, e := range of(rec, trace.State) {
		changes[e.Node] = append(changes[e.Node], fmt.Sprintf("%s:%v>%v", e.Key, e.Old, e.New))
	}
	var wantChanges1 []string
	for _, change := range []string{"<nil>>0", "0>1"} {
		for k := range 70 {
			wantChanges1 = append(wantChanges1, name(k)+":"+change)
		}
	}
	if got := changes[1]; !slices.Equal(got, wantChanges1) {
		t.Errorf("process 1 changed state\n%v\nwant\n%v", got, wantChanges1)
	}
	wantChanges2 := []string{"k64:<nil>>64", "k63:<nil>>63", "k65:<nil>>true", "k62:<nil>>true"}
	if got := changes[2]; !slices.Equal(got, wantChanges2) {
		t.Errorf("process 2 changed state %v, want %v", got, wantChanges2)
	}
}
