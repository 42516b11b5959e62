package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestLocalClockFormula(t *testing.T) {
	s, _ := world(t, []NodeID{1, 2}, DefaultLink, idle)
	must(t, s.SetClock(1, 100, 0.1))
	must(t, s.SetClock(2, -5, -0.25))
	for _, at := range []Time{0, 1, 9, 10, 11, 99, 1234} {
		s.Run(Until{Time: at})
		l1, _ := s.LocalTime(1)
		l2, _ := s.LocalTime(2)
		if want := 100 + at + Time(math.Floor(float64(at)*0.1)); l1 != want {
			t.Errorf("t=%d: P1 local %d, want %d", at, l1, want)
		}
		if want := -5 + at + Time(math.Floor(float64(at)*-0.25)); l2 != want {
			t.Errorf("t=%d: P2 local %d, want %d", at, l2, want)
		}
	}
	for _, d := range []float64{0.5, -0.5, math.NaN()} {
		if s.SetClock(1, 0, d) == nil {
			t.Errorf("drift %g accepted", d)
		}
	}
	if s.SetClock(7, 0, 0) == nil {
		t.Error("SetClock on an unknown process succeeded")
	}
}

// TestTimerDurationsAreLocal checks, for many drifts, offsets, start times
// and durations, that a timer of d local ticks fires at the first true time
// at which the node's clock has advanced by at least d, and that the node
// reads its local clock through Now.
func TestTimerDurationsAreLocal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, drift := range []float64{-0.4, -0.25, -0.1, -0.01, 0, 0.01, 0.1, 0.3, 0.49} {
		offset := Time(r.IntN(1000) - 500)
		local := func(at Time) Time { return offset + at + Time(math.Floor(float64(at)*drift)) }
		var s *Sim
		var setAt, want Time
		var d Duration
		checked := 0
		arm := func(ctx Context) {
			setAt = s.Now()
			if ctx.Now() != local(setAt) {
				t.Fatalf("drift %g: Now %d at t=%d, want %d", drift, ctx.Now(), setAt, local(setAt))
			}
			d = Duration(r.IntN(80))
			if r.IntN(10) == 0 {
				d = Duration(5000 + r.IntN(5000)) // beyond the calendar window
			}
			want = setAt
			for local(want)-local(setAt) < d {
				want++
			}
			ctx.SetTimer(d, "t")
		}
		mk := func(NodeID) Node {
			return &fnNode{
				start: arm,
				timer: func(ctx Context, _ string) {
					if s.Now() != want {
						t.Fatalf("drift %g, offset %d: timer of %d set at t=%d fired at t=%d, want t=%d",
							drift, offset, d, setAt, s.Now(), want)
					}
					checked++
					if checked < 400 {
						arm(ctx)
					}
				},
			}
		}
		s, _ = world(t, []NodeID{1}, DefaultLink, mk)
		must(t, s.SetClock(1, offset, drift))
		s.Run(Until{})
		if checked != 400 {
			t.Fatalf("drift %g: %d timers checked", drift, checked)
		}
	}
}

// TestTimerOrderMatchesReference arms, re-arms and cancels timers at random
// (zero delays, delays beyond the calendar window, far-future ones) on
// three processes, and checks every firing against a model: the pending
// timer with the least (time, arming order) fires next, cancelled and
// re-armed ones never.
func TestTimerOrderMatchesReference(t *testing.T) {
	type key struct {
		node NodeID
		tag  string
	}
	type pend struct {
		at    Time
		order int
	}
	r := rand.New(rand.NewPCG(5, 6))
	model := map[key]pend{}
	order, fires := 0, 0
	var s *Sim
	tags := []string{"a", "b", "c", "d"}
	arm := func(ctx Context, tag string) {
		var d Duration
		switch r.IntN(4) {
		case 0:
			d = 0 // same time, while processing
		case 1:
			d = Duration(r.IntN(10))
		case 2:
			d = Duration(r.IntN(3 * nBuckets)) // around the calendar window
		default:
			d = Duration(r.IntN(1 << 16)) // far future
		}
		order++
		ctx.SetTimer(d, tag)
		model[key{ctx.Self(), tag}] = pend{s.Now() + d, order}
	}
	// act re-arms the timer that fired (usually), then arms, re-arms or
	// cancels a few at random, until enough have fired.
	act := func(ctx Context, fired string) {
		if fires >= 3000 {
			return
		}
		if fired != "" && r.IntN(8) != 0 {
			arm(ctx, fired)
		}
		for range r.IntN(3) {
			tag := tags[r.IntN(len(tags))]
			if r.IntN(4) == 0 {
				ctx.CancelTimer(tag)
				delete(model, key{ctx.Self(), tag})
			} else {
				arm(ctx, tag)
			}
		}
		for _, tag := range tags {
			if _, ok := model[key{ctx.Self(), tag}]; ok {
				return
			}
		}
		arm(ctx, tags[r.IntN(len(tags))]) // keep every process busy
	}
	mk := func(NodeID) Node {
		return &fnNode{start: func(ctx Context) { act(ctx, "a") }, timer: func(ctx Context, tag string) {
			var best key
			found := false
			for k, p := range model {
				if b := model[best]; !found || p.at < b.at || (p.at == b.at && p.order < b.order) {
					best, found = k, true
				}
			}
			got := key{ctx.Self(), tag}
			if !found || got != best || model[best].at != s.Now() {
				t.Fatalf("fire %d: %v at t=%d, model expects %v at t=%d", fires, got, s.Now(), best, model[best].at)
			}
			delete(model, got)
			fires++
			act(ctx, tag)
		}}
	}
	s, _ = world(t, []NodeID{1, 2, 3}, DefaultLink, mk)
	s.Run(Until{})
	if len(model) != 0 || fires < 3000 {
		t.Fatalf("%d fires, %d timers never fired", fires, len(model))
	}
}

func TestTimerHugeDurationIsCapped(t *testing.T) {
	var firedAt Time = -1
	var s *Sim
	mk := func(NodeID) Node {
		return &fnNode{
			start: func(ctx Context) { ctx.SetTimer(math.MaxInt64, "t") },
			timer: func(Context, string) { firedAt = s.Now() },
		}
	}
	s, _ = world(t, []NodeID{1}, DefaultLink, mk)
	must(t, s.SetClock(1, 0, 0.2))
	s.Run(Until{})
	if firedAt <= 0 || firedAt > MaxDelay {
		t.Fatalf("timer fired at %d, want within (0, MaxDelay]", firedAt)
	}
}
