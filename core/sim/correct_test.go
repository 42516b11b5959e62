package sim

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"dsim/core/trace"
)

// TestStepClock steps a clock forward and back, from the process and from
// the scenario: the reading jumps to the value asked and runs on at the
// hardware clock's rate, and each step is a clock event with the readings
// before and after.
func TestStepClock(t *testing.T) {
	var ctx1 Context
	mk := func(id NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			if id == 1 {
				ctx1 = ctx
			}
		}}
	}
	s, rec := world(t, []NodeID{1, 2}, DefaultLink, mk)
	must(t, s.SetClock(1, 100, 0.1))
	s.Run(Until{Time: 10})
	if got := ctx1.Now(); got != 111 {
		t.Fatalf("P1 reads %d at t=10, want 111", got)
	}
	ctx1.StepClock(500)
	if got := ctx1.Now(); got != 500 {
		t.Fatalf("after the step P1 reads %d, want 500", got)
	}
	s.Run(Until{Time: 20}) // H goes from 111 to 122
	if got := ctx1.Now(); got != 511 {
		t.Fatalf("P1 reads %d at t=20, want 511", got)
	}
	must(t, s.StepClock(1, 300)) // back
	s.Run(Until{Time: 30})
	if got, _ := s.LocalTime(1); got != 311 {
		t.Fatalf("P1 reads %d at t=30 after stepping back, want 311", got)
	}
	if got, _ := s.LocalTime(2); got != 30 {
		t.Fatalf("P2 reads %d, want 30: only P1's clock moved", got)
	}
	ev := of(rec, trace.Clock)
	if len(ev) != 2 {
		t.Fatalf("%d clock events, want 2", len(ev))
	}
	for k, want := range []struct{ t, old, new int64 }{{10, 111, 500}, {20, 511, 300}} {
		e := ev[k]
		if e.T != want.t || e.Node != 1 || e.Kind != "step" || e.Local != want.old || e.ClockAfter() != want.new || e.Over != 0 {
			t.Errorf("clock event %d: %+v, want a step at t=%d from %d to %d", k, e, want.t, want.old, want.new)
		}
	}
	if s.StepClock(9, 0) == nil {
		t.Error("StepClock of an unknown process succeeded")
	}
}

// reference reads a clock from its definition, in exact rationals: the
// hardware clock, plus adj, plus the slew's share of delta for the
// hardware ticks since it began.
func reference(c clock, t Time) Time {
	h := c.offset + t + Time(math.Floor(float64(t)*c.drift))
	r := h + c.adj
	if c.slew.over > 0 && h > c.slew.from {
		k := min(h-c.slew.from, c.slew.over)
		q := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(int64(c.slew.delta)), big.NewInt(int64(k))), big.NewInt(int64(c.slew.over)))
		f := new(big.Int).Div(q.Num(), q.Denom()) // Euclidean: floor for a positive denominator
		r += Time(f.Int64())
	}
	return r
}

// TestSlewNeverRunsBackwards slews drifting clocks by random amounts, some
// of them huge, some interrupted by a new slew or a step, and checks at
// every tick that the reading follows the definition, never goes down
// while only slews happen, and ends exactly delta above where the
// uncorrected clock would be.
func TestSlewNeverRunsBackwards(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 300 {
		drift := []float64{0, 0.1, -0.3, 0.49, -0.49, 0.01}[round%6]
		over := Duration(1 + r.IntN(200))
		delta := Duration(r.IntN(int(3*over))) - over + 1 // > -over
		if round%25 == 0 {
			over, delta = MaxDelay, -MaxDelay+1
		}
		s, _ := world(t, []NodeID{1}, DefaultLink, idle)
		must(t, s.SetClock(1, Time(r.IntN(1000)-500), drift))
		s.Run(Until{Time: Time(1 + r.IntN(50))})
		c := s.clocks[0]
		model := clock{offset: c.offset, drift: c.drift}
		start, _ := s.LocalTime(1)
		must(t, s.SlewClock(1, delta, over))
		model.slew = slew{from: model.hardware(s.Now()), delta: delta, over: over}
		if got, _ := s.LocalTime(1); got != start {
			t.Fatalf("round %d: a slew moved the reading at once, %d -> %d", round, start, got)
		}
		prev := start
		end := s.Now() + 2*min(over, 300) + 5
		for tick := s.Now() + 1; tick < end; tick++ {
			s.Run(Until{Time: tick})
			got, _ := s.LocalTime(1)
			if want := reference(model, tick); got != want {
				t.Fatalf("round %d (drift %g, slew %d over %d): reads %d at t=%d, want %d", round, drift, delta, over, got, tick, want)
			}
			if got < prev {
				t.Fatalf("round %d (drift %g, slew %d over %d): went back from %d to %d at t=%d", round, drift, delta, over, prev, got, tick)
			}
			prev = got
		}
		if over < 300 {
			if got, want := prev, model.hardware(s.Now())+delta; got != want {
				t.Fatalf("round %d: after the slew reads %d, want the hardware clock %d plus %d", round, got, want-delta, delta)
			}
		}
	}
}

// TestSlewReplaced checks that a new correction keeps what a slew in
// progress gained and drops the rest.
func TestSlewReplaced(t *testing.T) {
	s, rec := world(t, []NodeID{1}, DefaultLink, idle)
	must(t, s.SlewClock(1, 100, 100)) // double speed
	s.Run(Until{Time: 30})
	if got, _ := s.LocalTime(1); got != 60 {
		t.Fatalf("reads %d halfway into a slew, want 60", got)
	}
	must(t, s.SlewClock(1, -10, 20))
	s.Run(Until{Time: 100})
	if got, _ := s.LocalTime(1); got != 100+30-10 {
		t.Fatalf("reads %d, want %d: the first slew's 30 and the second's -10", got, 100+30-10)
	}
	must(t, s.StepClock(1, 0))
	s.Run(Until{Time: 110})
	if got, _ := s.LocalTime(1); got != 10 {
		t.Fatalf("reads %d after a step to 0 and 10 ticks, want 10", got)
	}
	ev := of(rec, trace.Clock)
	if len(ev) != 3 || ev[1].Kind != "slew" || ev[1].Local != 60 || ev[1].Delta != -10 || ev[1].Over != 20 || ev[1].ClockAfter() != 60 {
		t.Fatalf("clock events %+v", ev)
	}
}

func TestSlewRejected(t *testing.T) {
	s, _ := world(t, []NodeID{1}, DefaultLink, idle)
	for _, c := range []struct {
		delta, over Duration
		want        string
	}{
		{-10, 10, "backwards"}, {-11, 10, "backwards"}, {5, 0, "over 0"}, {5, -3, "over -3"},
		{5, MaxDelay + 1, "want 1 to"}, {MaxDelay + 1, 10, "at most"},
	} {
		if err := s.SlewClock(1, c.delta, c.over); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("slew %d over %d: error %v, want %q", c.delta, c.over, err, c.want)
		}
	}
	if s.clocks != nil {
		t.Error("a rejected slew set the clocks up")
	}
	var p any
	mk := func(NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			defer func() { p = recover() }()
			ctx.SlewClock(-5, 5)
		}}
	}
	s, _ = world(t, []NodeID{1}, DefaultLink, mk)
	s.Run(Until{})
	if err, ok := p.(error); !ok || !strings.Contains(err.Error(), "SlewClock") {
		t.Fatalf("an algorithm's impossible slew: recovered %v, want a SlewClock panic", p)
	}
}

// TestTimersIgnoreCorrections arms timers, then steps or slews the clock
// while they are pending, and checks that they fire at the true time they
// would have without the correction: a timer counts hardware ticks.
func TestTimersIgnoreCorrections(t *testing.T) {
	for _, correct := range []func(ctx Context){
		func(ctx Context) { ctx.StepClock(ctx.Now() + 1000) },
		func(ctx Context) { ctx.StepClock(ctx.Now() - 1000) },
		func(ctx Context) { ctx.SlewClock(50, 10) },
		func(ctx Context) { ctx.SlewClock(-9, 10) },
	} {
		fired := map[string]Time{}
		var s *Sim
		mk := func(NodeID) Node {
			return &fnNode{
				start: func(ctx Context) {
					ctx.SetTimer(40, "before")
					correct(ctx)
					ctx.SetTimer(40, "after")
					ctx.SetTimer(3, "soon")
				},
				timer: func(ctx Context, tag string) { fired[tag] = s.Now() },
			}
		}
		s, _ = world(t, []NodeID{1}, DefaultLink, mk)
		must(t, s.SetClock(1, 7, 0.25))
		s.Run(Until{})
		// H(t) = 7 + t + floor(t/4): 40 hardware ticks from t=0 take 32 true ticks, 3 take 3.
		if fired["before"] != 32 || fired["after"] != 32 || fired["soon"] != 3 {
			t.Errorf("timers fired at %v, want before and after at t=32, soon at t=3", fired)
		}
	}
}

// TestClockSurvivesCrash: the clock is the machine's, corrections
// included: a crash loses the process's state, not its clock, and a slew
// in progress runs its course. A crashed process cannot correct it.
func TestClockSurvivesCrash(t *testing.T) {
	var ctx1 Context
	mk := func(NodeID) Node { return &fnNode{start: func(ctx Context) { ctx1 = ctx }} }
	s, rec := world(t, []NodeID{1}, DefaultLink, mk)
	s.Run(Until{Time: 5})
	ctx1.StepClock(100)
	ctx1.SlewClock(20, 10)
	must(t, s.Crash(1))
	ctx1.StepClock(0)
	s.Run(Until{Time: 30})
	must(t, s.Recover(1))
	if got := ctx1.Now(); got != 100+25+20 {
		t.Fatalf("after the crash P1 reads %d, want %d", got, 100+25+20)
	}
	if n := len(of(rec, trace.Clock)); n != 2 {
		t.Fatalf("%d clock events, want 2: a crashed process's step does nothing", n)
	}
}

// TestClockHistory reads past readings and the correction list back after
// the run, and checks them against readings taken at the time.
func TestClockHistory(t *testing.T) {
	s, _ := world(t, []NodeID{1, 2}, DefaultLink, idle)
	seen := map[Time]Time{}
	r := rand.New(rand.NewPCG(1, 2))
	must(t, s.SetClock(1, 3, -0.2))
	for tick := Time(1); tick <= 400; tick++ {
		s.Run(Until{Time: tick})
		switch r.IntN(20) {
		case 0:
			must(t, s.StepClock(1, Time(r.IntN(1000))))
		case 1:
			must(t, s.SlewClock(1, Time(r.IntN(40)-9), 10))
		case 2:
			must(t, s.SetClock(1, Time(r.IntN(50)), 0.1))
		}
		seen[tick], _ = s.LocalTime(1)
	}
	for tick, want := range seen {
		if got, ok := s.LocalAt(1, tick); !ok || got != want {
			t.Fatalf("LocalAt(1, %d) = %d, %v; it read %d then", tick, got, ok, want)
		}
	}
	if got, ok := s.LocalAt(2, 77); !ok || got != 77 {
		t.Fatalf("LocalAt of an uncorrected clock: %d, %v", got, ok)
	}
	if _, ok := s.LocalAt(1, 401); ok {
		t.Fatal("LocalAt reads the future")
	}
	ch, err := s.ClockChanges(1)
	must(t, err)
	steps, slews := 0, 0
	for _, c := range ch {
		switch c.Mode {
		case ClockStep:
			steps++
			if c.New-c.Old != c.Delta || seen[c.T] != c.New {
				t.Errorf("step %+v: it read %d then", c, seen[c.T])
			}
		case ClockSlew:
			slews++
			if c.New != c.Old || c.Over != 10 || seen[c.T] != c.New {
				t.Errorf("slew %+v: it read %d then", c, seen[c.T])
			}
		}
	}
	if steps == 0 || slews == 0 || ch[0].Mode != ClockSet || ch[0].T != 0 {
		t.Fatalf("%d steps and %d slews in %d changes, first %+v", steps, slews, len(ch), ch[0])
	}
}

// TestClockHistoryBounded corrects a clock more often than the history
// keeps: it starts again, and what it still knows is right.
func TestClockHistoryBounded(t *testing.T) {
	s, _ := world(t, []NodeID{1}, DefaultLink, idle)
	for tick := Time(1); tick <= maxClockHistory+10; tick++ {
		s.Run(Until{Time: tick})
		must(t, s.StepClock(1, 2*tick))
	}
	from := s.ClockHistoryFrom()
	if from != maxClockHistory+1 {
		t.Fatalf("history from t=%d, want %d", from, maxClockHistory+1)
	}
	if _, ok := s.LocalAt(1, from-1); ok {
		t.Fatal("LocalAt reads before the history")
	}
	if got, ok := s.LocalAt(1, from+3); !ok || got != 2*(from+3) {
		t.Fatalf("LocalAt(%d) = %d, %v, want %d", from+3, got, ok, 2*(from+3))
	}
	if ch, _ := s.ClockChanges(1); len(ch) != 10 {
		t.Fatalf("%d changes kept, want 10", len(ch))
	}
}
