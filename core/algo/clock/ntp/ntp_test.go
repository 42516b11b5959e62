package ntp

import (
	"slices"
	"testing"

	"dsim/core/algo/clock"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

// TestFilter: the clock filter keeps the sample of least δ, the latest of
// equals.
func TestFilter(t *testing.T) {
	ss := []clock.Sample{
		{T1: 0, T2: 5, T3: 5, T4: 12},    // δ 12
		{T1: 20, T2: 30, T3: 30, T4: 28}, // δ 8
		{T1: 40, T2: 50, T3: 50, T4: 50}, // δ 10
		{T1: 60, T2: 70, T3: 70, T4: 68}, // δ 8, later
	}
	if got := Filter(ss); got != ss[3] {
		t.Errorf("filter picked %+v, want the last δ=8 sample", got)
	}
}

// TestRound: process 2 polls its neighbours at 100; the reference 1
// (stratum 1) answers T2 = T3 = 125, arriving at 110: δ = 10, θ = (25 +
// 15)/2 = 20; process 3, not synchronized (stratum 0), is not a source.
// θ is below the step threshold: the clock slews 20 over period − timeout
// = 50 ticks, and claims ceil(10/2) − 1 + 20 = 24 (no drift) at stratum 2.
func TestRound(t *testing.T) {
	n := algotest.Process(t, "clock.ntp", map[string]any{"drift_ppm": 0, "period": 100, "timeout": 50}, 2)
	f := algotest.NewFake(2, 1, 2, 3)
	f.Time = 100
	n.Start(f)
	if f.State[keyStratum] != nil || f.Timers[timerPoll] != 0 {
		t.Fatalf("at boot: stratum %v, timers %v", f.State[keyStratum], f.Timers)
	}
	n.Timer(f, timerPoll)
	if s := f.Take(); !slices.Equal(s, []algotest.Sent{{To: 3, Msg: clock.Request{Seq: 100}}, {To: 1, Msg: clock.Request{Seq: 100}}}) {
		t.Fatalf("poll: %v", s)
	}
	f.Time = 110
	n.Receive(f, 1, clock.Reply{Seq: 100, T2: 125, T3: 125, Stratum: 1})
	n.Receive(f, 3, clock.Reply{Seq: 100, T2: 500, T3: 500, Stratum: 0})
	n.Timer(f, timerGather)
	if !slices.Equal(f.Slews, [][2]proc.Duration{{20, 50}}) || f.State[clock.KeyBound] != 24 || f.State[keyStratum] != 2 {
		t.Errorf("slews %v, claim %v, stratum %v: want 20 over 50, 24, 2", f.Slews, f.State[clock.KeyBound], f.State[keyStratum])
	}
	// The next round's sample has δ 14, worse than the filtered one, whose
	// θ, taken against the clock before the +20, is now 0: nothing to
	// correct but a claim from the old sample, 5 − 1 = 4.
	n.Timer(f, timerPoll) // at 150, still slewing: no poll
	if s := f.Take(); len(s) != 0 {
		t.Errorf("polled while slewing: %v", s)
	}
	n.Timer(f, clock.TimerSlewed)
	f.Time = 200
	n.Timer(f, timerPoll)
	f.Take()
	f.Time = 214
	n.Receive(f, 1, clock.Reply{Seq: 200, T2: 207, T3: 207, Stratum: 1})
	n.Timer(f, timerGather)
	if len(f.Slews) != 1 || len(f.Steps) != 0 || f.State[clock.KeyBound] != 4 {
		t.Errorf("slews %v, claim %v: want no correction and claim 4", f.Slews, f.State[clock.KeyBound])
	}
	// A server answers with its stratum; the reference with 1 and claim 0.
	r := algotest.Process(t, "clock.ntp", map[string]any{"reference": 1}, 1)
	g := algotest.NewFake(1, 1, 2, 3)
	g.Time = 7
	r.Start(g)
	r.Receive(g, 2, clock.Request{Seq: 3})
	if s := g.Take(); !slices.Equal(s, []algotest.Sent{{To: 2, Msg: clock.Reply{Seq: 3, T2: 7, T3: 7, Stratum: 1}}}) || len(g.Timers) != 0 {
		t.Errorf("reference: sent %v, timers %v: want a stratum-1 reply and no polling", s, g.Timers)
	}
	// Its claim stays 0 however long the run, under the default 1% drift
	// bound: its receiver keeps it on true time.
	g.Time = 100_007
	r.Receive(g, 2, clock.Request{Seq: 4})
	if s := g.Take(); len(s) != 1 || s[0].Msg.(clock.Reply).Bound != 0 {
		t.Errorf("reference at t=100007: sent %v, want a reply of bound 0", s)
	}
}
