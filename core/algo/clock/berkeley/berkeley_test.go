package berkeley

import (
	"slices"
	"testing"

	"dsim/core/algo/clock"
	"dsim/core/algo/election"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

// TestAdjustments: Tanenbaum and van Steen's Figure 6-7, in minutes: the
// master reads 3:00, the others 3:25 and 2:50; the average offset is
// (0 + 25 − 10)/3 = +5, so the adjustments are +0:05, −0:20 and +0:15. A
// fourth clock at 5:00 (+120) differs from the others by more than the
// cutoff of 50: it is left out of the average but adjusted by −115 like
// the rest.
func TestAdjustments(t *testing.T) {
	tanenbaum := []Estimate{{ID: 1, Offset: 0}, {ID: 2, Offset: 25}, {ID: 3, Offset: -10}}
	if adj, kept := Adjustments(tanenbaum, 50); !slices.Equal(adj, []int{5, -20, 15}) || kept != 3 {
		t.Errorf("figure 6-7: adjustments %v of %d kept, want [5 -20 15] of 3", adj, kept)
	}
	faulty := append(tanenbaum, Estimate{ID: 4, Offset: 120})
	if adj, kept := Adjustments(faulty, 50); !slices.Equal(adj, []int{5, -20, 15, -115}) || kept != 3 {
		t.Errorf("with a faulty clock: adjustments %v of %d kept, want [5 -20 15 -115] of 3", adj, kept)
	}
	// The average rounds down: (0 − 1)/2 is −1, not 0.
	if adj, _ := Adjustments([]Estimate{{Offset: 0}, {Offset: -1}}, 5); !slices.Equal(adj, []int{-1, 0}) {
		t.Errorf("rounding: %v, want [-1 0]", adj)
	}
	// A tie between two subsets of two: the earliest (lowest offsets) wins.
	if adj, kept := Adjustments([]Estimate{{Offset: 0}, {Offset: 10}, {Offset: 100}, {Offset: 110}}, 20); !slices.Equal(adj, []int{5, -5, -95, -105}) || kept != 2 {
		t.Errorf("tie: %v of %d kept, want [5 -5 -95 -105] of 2", adj, kept)
	}
}

// TestRound drives the master through a round with the Fake: it polls at
// 180, the replies 205 and 170 come back 4 ticks later (T_round 4: the
// estimates are 205 + 2 − 184 = +23 and 170 + 2 − 184 = −12, each ±(2 − 1)),
// and at the gather the adjustments go out: the average (0 + 23 − 12)/3 =
// 3, so +3 for the master (slewed over 100 ticks), −20 and +15.
func TestRound(t *testing.T) {
	n := algotest.Process(t, "clock.berkeley", map[string]any{"drift_ppm": 0, "min": 1, "election_leader": 1}, 1)
	f := algotest.NewFake(1, 1, 2, 3)
	f.Time = 180
	n.Start(f)
	if f.State[election.KeyLeader] != proc.NodeID(1) || f.Timers["round"] != 0 {
		t.Fatalf("leader %v, timers %v: want process 1 master with a round due", f.State[election.KeyLeader], f.Timers)
	}
	n.Timer(f, "round")
	sent := f.Take()
	if !slices.Equal(sent, []algotest.Sent{{To: 2, Msg: clock.Request{Seq: 180}}, {To: 3, Msg: clock.Request{Seq: 180}}}) {
		t.Fatalf("poll: %v", sent)
	}
	f.Time = 184
	n.Receive(f, 2, clock.Reply{Seq: 180, T2: 205, T3: 205})
	n.Receive(f, 3, clock.Reply{Seq: 180, T2: 170, T3: 170})
	n.Receive(f, 3, clock.Reply{Seq: 180, T2: 999, T3: 999}) // a duplicate counts once
	n.Receive(f, 2, clock.Reply{Seq: 1, T2: 999, T3: 999})   // an older round's
	n.Timer(f, "gather")
	sent = f.Take()
	want := []algotest.Sent{{To: 2, Msg: Adjust{Round: 180, Delta: -20, Err: 1}}, {To: 3, Msg: Adjust{Round: 180, Delta: 15, Err: 1}}}
	if !slices.Equal(sent, want) || !slices.Equal(f.Slews, [][2]proc.Duration{{3, 100}}) {
		t.Errorf("adjustments %v, slews %v: want %v and the master's own +3 over 100", sent, f.Slews, want)
	}
	if f.State[clock.KeyBound] != 3 || f.State[clock.KeyRef] != "1@180" {
		t.Errorf("master's claim %v against %v, want 3 (its slew to come) against 1@180", f.State[clock.KeyBound], f.State[clock.KeyRef])
	}
	n.Timer(f, clock.TimerSlewed)
	if f.State[clock.KeyBound] != 0 {
		t.Errorf("slewed: claim %v, want 0", f.State[clock.KeyBound])
	}
}

// TestSlave: a process slews the master's adjustment, a loss slowly
// enough never to run back, and ignores one from another process; it
// answers polls once the slew is done.
func TestSlave(t *testing.T) {
	n := algotest.Process(t, "clock.berkeley", map[string]any{"drift_ppm": 0, "election_leader": 3}, 2)
	f := algotest.NewFake(2, 1, 2, 3)
	n.Start(f)
	n.Receive(f, 1, Adjust{Round: 7, Delta: 50, Err: 1})
	n.Receive(f, 3, Adjust{Round: 7, Delta: -150, Err: 2})
	if !slices.Equal(f.Slews, [][2]proc.Duration{{-150, 151}}) || f.State[clock.KeyBound] != 152 || f.State[clock.KeyRef] != "3@7" {
		t.Errorf("slews %v, claim %v against %v: want -150 over 151, claim 152 against 3@7", f.Slews, f.State[clock.KeyBound], f.State[clock.KeyRef])
	}
	f.Time = 33
	n.Receive(f, 1, clock.Request{Seq: 4})
	if s := f.Take(); len(s) != 0 {
		t.Errorf("answered while slewing: %v", s)
	}
	n.Timer(f, clock.TimerSlewed)
	if f.State[clock.KeyBound] != 2 {
		t.Errorf("slewed: claim %v, want 2", f.State[clock.KeyBound])
	}
	n.Receive(f, 1, clock.Request{Seq: 4})
	if s := f.Take(); !slices.Equal(s, []algotest.Sent{{To: 1, Msg: clock.Reply{Seq: 4, T2: 33, T3: 33}}}) {
		t.Errorf("answer %v", s)
	}
}
