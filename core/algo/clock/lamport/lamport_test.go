package lamport

import (
	"math"
	"slices"
	"testing"

	"dsim/core/algo/clock"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
	"dsim/core/sim"
)

// start makes process self of 1..3 with the given configuration, booted.
func start(t *testing.T, self proc.NodeID, cfg map[string]any) (proc.Node, *algotest.Fake) {
	t.Helper()
	return algotest.Booted(t, "clock.lamport", cfg, self, 1, 2, 3)
}

// TestRules drives one process through each kind of event and reads its
// clock after each.
func TestRules(t *testing.T) {
	tiny := map[string]any{"d": 6, "d_step": 2}
	tests := []struct {
		name  string
		self  proc.NodeID
		cfg   map[string]any
		clock int // before the event
		event func(n proc.Node, f *algotest.Fake) error
		want  int
		sent  []algotest.Sent
	}{
		{"IR1: an internal event ticks by d", 1, nil, 0,
			func(n proc.Node, f *algotest.Fake) error { return n.Command(f, "internal", nil) }, 1, nil},
		{"IR1: the tick of the process at index i is d + i*d_step", 3, tiny, 0,
			func(n proc.Node, f *algotest.Fake) error { return n.Command(f, "internal", nil) }, 10, nil},
		{"IR2(a): a send ticks, and m carries the new C", 2, tiny, 24,
			func(n proc.Node, f *algotest.Fake) error { return n.Command(f, "send", proc.Args{"to": 3}) }, 32,
			[]algotest.Sent{{To: 3, Msg: Msg{TS: 32}}}},
		{"IR2(b): a receive past the stamp: 48 ticks to 56, then 61", 2, tiny, 48,
			func(n proc.Node, f *algotest.Fake) error { n.Receive(f, 3, Msg{TS: 60}); return nil }, 61, nil},
		{"IR2(b): a stamp below the ticked clock leaves it", 2, tiny, 8,
			func(n proc.Node, f *algotest.Fake) error { n.Receive(f, 1, Msg{TS: 6}); return nil }, 16, nil},
		{"IR2(b): a stamp equal to the ticked clock moves it one past", 1, nil, 4,
			func(n proc.Node, f *algotest.Fake) error { n.Receive(f, 2, Msg{TS: 5}); return nil }, 6, nil},
		{"ir2=false: the clock only ticks", 2, map[string]any{"d": 6, "d_step": 2, "ir2": false}, 48,
			func(n proc.Node, f *algotest.Fake) error { n.Receive(f, 3, Msg{TS: 60}); return nil }, 56, nil},
		{"a hand-made stamp at the top of int's range: the clock stays there", 1, nil, 0,
			func(n proc.Node, f *algotest.Fake) error { n.Receive(f, 2, Msg{TS: math.MaxInt}); return nil }, math.MaxInt, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, f := start(t, tc.self, tc.cfg)
			n.(*node).c = tc.clock
			if err := tc.event(n, f); err != nil {
				t.Fatal(err)
			}
			if got := f.State[clock.KeyLamport]; got != tc.want {
				t.Errorf("clock %v, want %d", got, tc.want)
			}
			if got := f.Take(); !slices.Equal(got, tc.sent) {
				t.Errorf("sent %v, want %v", got, tc.sent)
			}
		})
	}
}

func TestCommandErrors(t *testing.T) {
	n, f := start(t, 1, nil)
	for _, tc := range []struct {
		name string
		args proc.Args
		want string
	}{
		{"send", nil, `command "send" needs to=<id>`},
		{"send", proc.Args{"to": 9}, "send: 9 is not a process"},
		{"send", proc.Args{"to": 2, "at": 3}, `command "send" takes only to=<id>, got at=3 to=2`},
		{"internal", proc.Args{"to": 2}, `command "internal" takes no arguments, got to=2`},
		{"request", nil, `unknown command "request" (known: internal, send)`},
	} {
		if err := n.Command(f, tc.name, tc.args); err == nil || err.Error() != tc.want {
			t.Errorf("%s %v: got %v, want %q", tc.name, tc.args, err, tc.want)
		}
	}
	if f.State[clock.KeyLamport] != 0 || len(f.Sent) > 0 {
		t.Errorf("a rejected command changed the clock to %v or sent %v", f.State[clock.KeyLamport], f.Sent)
	}
}

// TestWorkload: with events set, each process arms a timer and makes that
// many random events, sends to peers and internal ones, then stops.
func TestWorkload(t *testing.T) {
	n, f := start(t, 1, map[string]any{"events": 20, "rate": 0.5, "sends": 0.5})
	for i := range 20 {
		d, ok := f.Timers[clock.TimerEvent]
		if !ok || d < 1 || d > 3 {
			t.Fatalf("event %d: timer %v armed=%v, want 1..3 ticks (rate 0.5)", i, d, ok)
		}
		delete(f.Timers, clock.TimerEvent)
		n.Timer(f, clock.TimerEvent)
	}
	if _, ok := f.Timers[clock.TimerEvent]; ok {
		t.Error("a 21st event armed")
	}
	sends := f.Take()
	if got := f.State[clock.KeyLamport]; got != 20 {
		t.Errorf("clock %v after 20 events, want 20", got)
	}
	if len(sends) == 0 || len(sends) == 20 {
		t.Errorf("%d sends of 20 events at sends=0.5", len(sends))
	}
	for i, s := range sends {
		if s.To == 1 || s.Msg.(Msg).TS < 1 || i > 0 && s.Msg.(Msg).TS <= sends[i-1].Msg.(Msg).TS {
			t.Errorf("send %d: %v", i, s)
		}
	}
}

// TestTanenbaumFigure runs Figure 6-9 of Tanenbaum and van Steen: P2's
// clock becomes 61 on m3 and P1's 70 on m4, which P2 sent at 69.
func TestTanenbaumFigure(t *testing.T) {
	for _, ir2 := range []bool{true, false} {
		w := algotest.New(t, algotest.Setup{Algo: "clock.lamport", IDs: algotest.IDs(3),
			Config: map[string]any{"d": 6, "d_step": 2, "ir2": ir2},
			Link:   sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: 10}, FIFO: true}})
		sends := map[int][2]sim.NodeID{1: {1, 2}, 3: {2, 3}, 6: {3, 2}, 8: {2, 1}}
		receives := map[int]sim.NodeID{2: 2, 4: 3, 7: 2, 9: 1}
		for step := 1; step <= 10; step++ {
			for id := sim.NodeID(1); id <= 3; id++ {
				at := sim.Time(10 * step)
				if s, ok := sends[step]; ok && s[0] == id {
					w.CommandArgs(at, id, "send", sim.Args{"to": int(s[1])})
				} else if receives[step] != id {
					w.Command(at, id, "internal")
				}
			}
		}
		w.Run(75)
		want := map[bool][2]int{true: {61, 70}, false: {56, 54}}[ir2]
		if got := w.Get(2, clock.KeyLamport); got != want[0] {
			t.Errorf("ir2=%v: P2 reads %v after m3, want %d", ir2, got, want[0])
		}
		w.Run(95)
		if got := w.Get(1, clock.KeyLamport); got != want[1] {
			t.Errorf("ir2=%v: P1 reads %v after m4, want %d", ir2, got, want[1])
		}
		var stamps []int
		for _, m := range w.Sends("MSG") {
			stamps = append(stamps, m.Msg.(Msg).TS)
		}
		m4 := map[bool]int{true: 69, false: 64}[ir2]
		if !slices.Equal(stamps, []int{6, 24, 60, m4}) {
			t.Errorf("ir2=%v: m1..m4 stamped %v, want 6 24 60 %d", ir2, stamps, m4)
		}
		if err := w.Judge(clock.Lamport); (err == nil) != ir2 {
			t.Errorf("ir2=%v: clock.lamport: %v", ir2, err)
		}
	}
}
