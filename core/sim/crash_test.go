package sim

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/trace"
)

// sender1 makes process 1 send one M to process 2 at start.
func sender1(id NodeID) Node {
	if id == 1 {
		return &fnNode{start: func(ctx Context) { ctx.Send(2, msg{7}) }}
	}
	return &fnNode{}
}

func TestCrashDropsInFlightEvenAfterRecovery(t *testing.T) {
	s, rec := world(t, []NodeID{1, 2}, Link{Latency: Dist{Kind: Constant, A: 10}}, sender1)
	s.At(3, func() { must(t, s.Crash(2)) })
	s.At(5, func() { must(t, s.Recover(2)) })
	s.Run(Until{})
	if d := of(rec, trace.Deliver); len(d) != 0 {
		t.Fatalf("delivered %v; the message was in flight when 2 crashed", d)
	}
	drops := of(rec, trace.Drop)
	if len(drops) != 1 || drops[0].Reason != "crashed" || drops[0].T != 10 || drops[0].Node != 2 || drops[0].MsgID != 1 {
		t.Fatalf("drops %+v, want one at t=10 on P2 with reason crashed", drops)
	}
	st := s.Stats()
	if st.Sent != 1 || st.Delivered != 0 || st.Dropped != 1 || st.DropReasons["crashed"] != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestCrashedReceiverDropsOnArrival(t *testing.T) {
	s, rec := world(t, []NodeID{1, 2}, Link{Latency: Dist{Kind: Constant, A: 10}}, sender1)
	s.At(3, func() { must(t, s.Crash(2)) })
	s.Run(Until{})
	drops := of(rec, trace.Drop)
	if len(drops) != 1 || drops[0].Reason != "crashed" || drops[0].T != 10 {
		t.Fatalf("drops %+v", drops)
	}
}

func TestSentWhileDownDeliveredAfterRecovery(t *testing.T) {
	s, rec := world(t, []NodeID{1, 2}, Link{Latency: Dist{Kind: Constant, A: 10}}, idle)
	s.At(3, func() { must(t, s.Crash(2)) })
	s.At(4, func() { must(t, s.Inject(1, 2, msg{1})) })
	s.At(5, func() { must(t, s.Recover(2)) })
	s.Run(Until{})
	d := of(rec, trace.Deliver)
	if len(d) != 1 || d[0].T != 14 || d[0].To != 2 {
		t.Fatalf("delivers %+v; a message sent to a down process that arrives after its recovery reaches it", d)
	}
}

func TestCrashLosesTimersAndStateAndRestartsFresh(t *testing.T) {
	made := map[NodeID]int{}
	var nodes []Node
	var fired []Time
	mk := func(id NodeID) Node {
		made[id]++
		inc := made[id]
		n := &fnNode{
			start: func(ctx Context) {
				ctx.Set("incarnation", inc)
				if inc == 1 {
					ctx.SetTimer(10, "T")
				}
			},
			timer: func(ctx Context, tag string) { fired = append(fired, ctx.Now()) },
		}
		nodes = append(nodes, n)
		return n
	}
	s, rec := world(t, []NodeID{1}, DefaultLink, mk)
	s.At(3, func() {
		must(t, s.Crash(1))
		if st := s.State(1); st != nil {
			t.Errorf("state after crash %v, want none", st)
		}
		if s.Up(1) {
			t.Error("Up after crash")
		}
	})
	s.At(5, func() { must(t, s.Recover(1)) })
	s.Run(Until{})
	if len(fired) != 0 {
		t.Fatalf("timers fired at %v; the timer set before the crash is lost", fired)
	}
	if made[1] != 2 || len(nodes) != 2 || nodes[0] == nodes[1] {
		t.Fatalf("factory called %d times; recovery must build a fresh node", made[1])
	}
	if got := s.Get(1, "incarnation"); got != 2 {
		t.Fatalf("incarnation %v, want 2 (Start ran again on the fresh node)", got)
	}
	var kinds []trace.Type
	for _, e := range rec.Events {
		if e.Node == 1 {
			kinds = append(kinds, e.Type)
		}
	}
	// With no detector delay, suspicion and trust follow at once.
	want := []trace.Type{trace.State, trace.Crash, trace.Suspect, trace.Recover, trace.State, trace.Trust}
	if !slices.Equal(kinds, want) {
		t.Fatalf("events at P1 %v, want %v", kinds, want)
	}
}

func TestCrashRecoverErrors(t *testing.T) {
	s, _ := world(t, []NodeID{1, 2}, DefaultLink, idle)
	if err := s.Recover(1); err == nil {
		t.Error("recovering a running process succeeded")
	}
	must(t, s.Crash(1))
	if err := s.Crash(1); err == nil {
		t.Error("crashing a crashed process succeeded")
	}
	if err := s.Crash(9); err == nil {
		t.Error("crashing an unknown process succeeded")
	}
	if err := s.Command(1, "x", nil); err == nil {
		t.Error("a crashed process took a command")
	}
}

// An observer (a scenario hook) may crash the receiver while its delivery
// is being traced: the message must then not reach the dead node.
func TestObserverCrashDuringDeliver(t *testing.T) {
	got := 0
	mk := func(id NodeID) Node {
		if id == 1 {
			return &fnNode{start: func(ctx Context) { ctx.Send(2, msg{}) }}
		}
		return &fnNode{receive: func(Context, NodeID, Message) { got++ }}
	}
	s, _ := world(t, []NodeID{1, 2}, DefaultLink, mk)
	s.Observe(func(e *trace.Event) {
		if e.Type == trace.Deliver {
			must(t, s.Crash(2))
		}
	})
	s.Run(Until{})
	if got != 0 {
		t.Fatal("a node crashed during its deliver trace still received the message")
	}
}

func TestFailureDetector(t *testing.T) {
	type call struct {
		at      Time
		by, who NodeID
	}
	var calls []call
	mk := func(id NodeID) Node {
		n := &suspectNode{}
		n.suspect = func(ctx Context, who NodeID) { calls = append(calls, call{ctx.Now(), ctx.Self(), who}) }
		return n
	}
	s, rec := world(t, []NodeID{1, 2, 3}, DefaultLink, mk, func(c *Config) { c.DetectDelay = 7 })
	view := map[Time]bool{}
	probe := func(at Time) { s.At(at, func() { view[at] = s.Suspected(2) }) }
	s.At(10, func() { must(t, s.Crash(2)) })
	probe(16)
	probe(18) // a probe scheduled for 17 itself would run before the detector's event
	s.At(30, func() { must(t, s.Recover(2)) })
	probe(36)
	probe(38)
	// A crash shorter than the delay goes unnoticed.
	s.At(50, func() { must(t, s.Crash(3)) })
	s.At(52, func() { must(t, s.Recover(3)) })
	// A recovery cut short by a new crash never earns trust.
	s.At(100, func() { must(t, s.Crash(2)) })
	s.At(110, func() { must(t, s.Recover(2)) })
	s.At(112, func() { must(t, s.Crash(2)) })
	probe(200)
	s.Run(Until{})

	type ev struct {
		t    int64
		typ  trace.Type
		node int
	}
	var got []ev
	for _, e := range rec.Events {
		if e.Type == trace.Suspect || e.Type == trace.Trust {
			got = append(got, ev{e.T, e.Type, e.Node})
		}
	}
	want := []ev{{17, trace.Suspect, 2}, {37, trace.Trust, 2}, {107, trace.Suspect, 2}}
	if !slices.Equal(got, want) {
		t.Fatalf("detector events %v, want %v", got, want)
	}
	wantView := map[Time]bool{16: false, 18: true, 36: true, 38: false, 200: true}
	for at, v := range wantView {
		if view[at] != v {
			t.Errorf("Suspected(2) at t=%d is %v, want %v", at, view[at], v)
		}
	}
	// Both live processes hear of each suspicion, in ring order; at t=107
	// process 2 is down and hears nothing.
	wantCalls := []call{{17, 1, 2}, {17, 3, 2}, {107, 1, 2}, {107, 3, 2}}
	if !slices.Equal(calls, wantCalls) {
		t.Fatalf("handler calls %v, want %v", calls, wantCalls)
	}
}

// Crashes are counted run-wide; a crash elsewhere must not touch messages
// and timers of processes that did not crash.
func TestUnrelatedCrashKeepsMessagesAndTimers(t *testing.T) {
	fired := 0
	mk := func(id NodeID) Node {
		switch id {
		case 1:
			return &fnNode{start: func(ctx Context) { ctx.Send(2, msg{1}) }}
		case 2:
			return &fnNode{start: func(ctx Context) { ctx.SetTimer(10, "t") }, timer: func(Context, string) { fired++ }}
		}
		return &fnNode{}
	}
	s, rec := world(t, []NodeID{1, 2, 3}, Link{Latency: Dist{Kind: Constant, A: 10}}, mk)
	s.At(2, func() { must(t, s.Crash(3)) })
	s.At(4, func() { must(t, s.Recover(3)) })
	s.At(5, func() { must(t, s.Crash(1)) }) // the sender's crash does not recall its message
	s.Run(Until{})
	if d := of(rec, trace.Deliver); len(d) != 1 || d[0].To != 2 || fired != 1 {
		t.Fatalf("delivers %+v, timer fired %d times", d, fired)
	}
}

// TestStableLogSurvivesCrash: the stable log keeps every record across a
// crash, a recovered process reads it in Start, and every write is a state
// event of key log, a record repeating the last one included.
func TestStableLogSurvivesCrash(t *testing.T) {
	var read [][]string
	s, rec := world(t, []NodeID{1, 2}, DefaultLink, func(id NodeID) Node {
		return &fnNode{start: func(ctx Context) {
			if id != 1 {
				return
			}
			read = append(read, slices.Clone(ctx.Stable()))
			if !ctx.Recovered() {
				ctx.WriteStable("<ready T1>")
				ctx.WriteStable("<ready T1>")
			} else {
				ctx.WriteStable("<commit T1>")
			}
		}}
	})
	s.At(3, func() { must(t, s.Crash(1)) })
	s.At(5, func() {
		if got := s.Stable(1); !slices.Equal(got, []string{"<ready T1>", "<ready T1>"}) {
			t.Errorf("stable log of the crashed process %q", got)
		}
		must(t, s.Recover(1))
	})
	s.Run(Until{})
	if len(read) != 2 || len(read[0]) != 0 || !slices.Equal(read[1], []string{"<ready T1>", "<ready T1>"}) {
		t.Errorf("Start read %q, want nothing at boot, both records on recovery", read)
	}
	if got := s.Stable(1); !slices.Equal(got, []string{"<ready T1>", "<ready T1>", "<commit T1>"}) {
		t.Errorf("stable log %q", got)
	}
	if s.Stable(2) != nil || s.Stable(9) != nil {
		t.Errorf("a process that wrote nothing, or none, has a log")
	}
	var writes []string
	for _, e := range of(rec, trace.State) {
		if e.Key == "log" {
			writes = append(writes, fmt.Sprintf("t=%d %v->%v", e.T, e.Old, e.New))
		}
	}
	want := []string{"t=0 <nil>-><ready T1>", "t=0 <ready T1>-><ready T1>", "t=5 <nil>-><commit T1>"}
	if !slices.Equal(writes, want) {
		t.Errorf("log state events %q, want %q", writes, want)
	}
}
