package mutex_test

import (
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/mutex"
	"dsim/core/sim"
	"dsim/core/trace"
)

// manual is a protocol for testing CS alone: Want enters at once when the
// world is configured instant, otherwise at the command "grant"; both rules
// count their calls in state keys.
type manual struct {
	mutex.CS
	instant      bool
	wants, exits int
}

func (p *manual) Start(ctx sim.Context) { p.CS.Start(ctx) }

func (p *manual) Want(ctx sim.Context) {
	p.wants++
	ctx.Set("wants", p.wants)
	if p.instant {
		p.CS.Enter(ctx)
	}
}

func (p *manual) Exit(ctx sim.Context) {
	p.exits++
	ctx.Set("exits", p.exits)
}

func (p *manual) Receive(sim.Context, sim.NodeID, sim.Message) {}

func (p *manual) Timer(ctx sim.Context, tag string) {
	if !p.CS.Timer(ctx, p, tag) {
		ctx.Log("a timer that is not CS's: %s", tag)
	}
}

func (p *manual) Command(ctx sim.Context, name string, args sim.Args) error {
	if name == "grant" {
		p.CS.Enter(ctx)
		return nil
	}
	return p.CS.Command(ctx, p, name, args)
}

func init() {
	algo.Register(algo.Spec{
		Name: "testcs.manual", Summary: "test-only: mutex.CS under a hand-driven protocol", Description: "mutex.CS tests.",
		Topology: "complete",
		Config:   []algo.Param{{Name: "instant", Type: algo.Bool, Default: true, Doc: "Want enters at once"}},
		Commands: append(mutex.Commands, algo.CommandSpec{Name: "grant"}),
		New: func(cfg algo.Values) (sim.Factory, error) {
			return func(sim.NodeID) sim.Node { return &manual{instant: cfg.Bool("instant")} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(0)},
	})
}

func newWorld(t *testing.T, instant bool) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "testcs.manual", IDs: algotest.IDs(2), Config: map[string]any{"instant": instant}})
}

// history renders process id's changes of the CS keys as "t:key=value".
func history(w *algotest.World, id sim.NodeID) string {
	var out []string
	for _, e := range w.Rec.Events {
		if e.Type == trace.State && e.Node == int(id) {
			out = append(out, string(trace.AppendJSON([]byte(itoa(e.T)+":"+e.Key+"="), e.New)))
		}
	}
	return strings.Join(out, " ")
}

func itoa(t int64) string { return string(trace.AppendJSON(nil, t)) }

func TestRequestAndRelease(t *testing.T) {
	w := newWorld(t, true)
	w.Command(1, 1, "request")
	w.Command(4, 1, "release")
	w.Run(0)
	if got, want := history(w, 1), `0:cs="released" 1:cs="wanted" 1:wants=1 1:cs="held" 4:cs="released" 4:exits=1`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestDurationArmsTheExitTimer(t *testing.T) {
	w := newWorld(t, true)
	w.CommandArgs(2, 1, "request", sim.Args{"duration": 5})
	w.CommandArgs(3, 2, "request", sim.Args{"duration": 10})
	w.Command(6, 2, "release") // before its exit timer: the timer is cancelled
	w.Run(0)
	if got, want := history(w, 1), `0:cs="released" 2:cs="wanted" 2:wants=1 2:cs="held" 7:cs="released" 7:exits=1`; got != want {
		t.Errorf("process 1: got  %s\nwant %s", got, want)
	}
	if got := w.Timers(1, mutex.TimerExit); len(got) != 1 || got[0] != 7 {
		t.Errorf("process 1's exit timer fired at %v, want [7]", got)
	}
	if got := w.Timers(2, mutex.TimerExit); len(got) != 0 {
		t.Errorf("process 2's exit timer fired at %v after the release", got)
	}
	if w.Get(2, "exits") != 1 {
		t.Errorf("process 2 left %v times", w.Get(2, "exits"))
	}
}

func TestBacklogServedInOrder(t *testing.T) {
	w := newWorld(t, false)
	w.CommandArgs(1, 1, "request", sim.Args{"duration": 3})
	w.CommandArgs(2, 1, "request", sim.Args{"duration": 7})
	w.Command(2, 1, "request")
	w.Command(5, 1, "grant")  // holds 3 ticks, then the backlog's first
	w.Command(10, 1, "grant") // holds 7 ticks, then the last (no duration)
	w.Command(20, 1, "grant")
	w.Command(25, 1, "release")
	w.Run(0)
	want := `0:cs="released" 1:cs="wanted" 1:wants=1 2:backlog=1 2:backlog=2 5:cs="held" ` +
		`8:cs="released" 8:exits=1 8:backlog=1 8:cs="wanted" 8:wants=2 10:cs="held" ` +
		`17:cs="released" 17:exits=2 17:backlog=0 17:cs="wanted" 17:wants=3 20:cs="held" 25:cs="released" 25:exits=3`
	if got := history(w, 1); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestCommandErrors(t *testing.T) {
	w := newWorld(t, false)
	w.Run(1)
	for _, tc := range []struct {
		name string
		args sim.Args
		err  string
	}{
		{"request", sim.Args{"duration": -1}, "request: duration must be positive (or absent: until release), got -1"},
		{"request", sim.Args{"duration": "x"}, "duration"},
		{"request", sim.Args{"time": 3}, `command "request" takes only duration=<ticks>, got time=3`},
		{"release", nil, `process 1 is not in the critical section (cs=released)`},
		{"release", sim.Args{"now": true}, `command "release" takes no arguments, got now=true`},
		{"enter", nil, `unknown command "enter" (known: request, release)`},
	} {
		err := w.Sim.Command(1, tc.name, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s %v: got %v, want %q", tc.name, tc.args, err, tc.err)
		}
	}
	if err := w.Sim.Command(1, "request", nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Sim.Command(1, "release", nil); err == nil || err.Error() != "process 1 is not in the critical section (cs=wanted)" {
		t.Errorf("release while waiting: %v", err)
	}
	if got := history(w, 1); got != `0:cs="released" 1:cs="wanted" 1:wants=1` {
		t.Errorf("rejected commands changed the state: %s", got)
	}
}

func TestRecoveryForgetsRequests(t *testing.T) {
	w := newWorld(t, false)
	w.CommandArgs(1, 1, "request", sim.Args{"duration": 4})
	w.Command(1, 1, "request")
	w.Crash(2, 1)
	w.Recover(3, 1)
	w.Command(4, 1, "request")
	w.Command(5, 1, "grant")
	w.Command(6, 1, "release")
	w.Run(0)
	// After the recovery one Want, one Exit, and nothing left to serve.
	want := `0:cs="released" 1:cs="wanted" 1:wants=1 1:backlog=1 3:cs="released" 4:cs="wanted" 4:wants=1 5:cs="held" 6:cs="released" 6:exits=1`
	if got := history(w, 1); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestClockAndStamps(t *testing.T) {
	var c mutex.Clock
	if c.Tick() != 1 || c.Tick() != 2 {
		t.Error("Tick counts from 1")
	}
	c.Witness(7)
	if c.Tick() != 9 {
		t.Error("Witness(7) then Tick should give 9")
	}
	c.Witness(3)
	if int(c) != 10 {
		t.Errorf("Witness of an older stamp still advances by one, got %d", c)
	}
	a, b, d := mutex.Stamp{TS: 3, ID: 2}, mutex.Stamp{TS: 3, ID: 5}, mutex.Stamp{TS: 4, ID: 1}
	if !a.Less(b) || !b.Less(d) || b.Less(a) || a.Less(a) {
		t.Error("(timestamp, id) order is wrong")
	}
	if a.Compare(b) != -1 || d.Compare(b) != 1 || a.Compare(a) != 0 {
		t.Error("Compare disagrees with Less")
	}
}
