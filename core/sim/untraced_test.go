package sim

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/trace"
)

// dyn is a message whose kind is in its value, as a hand-made message from
// a scenario is.
type dyn struct{ K string }

func (d dyn) Kind() string { return d.K }

// ping is a zero-size message: every value of it is the same interface
// value.
type ping struct{}

func (ping) Kind() string { return "PING" }

// chatter sends every kind of message the kernel has a shortcut for: to the
// neighbour it just looked up, passed on as received, fresh, zero-size and
// of a kind held in the value. It logs what it receives and when, outside
// the trace.
func chatter(log map[NodeID][]string) Factory {
	return func(id NodeID) Node {
		note := func(ctx Context, format string, args ...any) {
			log[id] = append(log[id], fmt.Sprintf("t=%d ", ctx.Now())+fmt.Sprintf(format, args...))
		}
		passed := map[Message]bool{} // each message is passed on as received once at most
		passOn := func(ctx Context, m Message) {
			if !passed[m] {
				passed[m] = true
				ctx.Send(ctx.Neighbor(1), m)
			}
		}
		return &fnNode{
			start: func(ctx Context) {
				note(ctx, "start")
				ctx.Send(ctx.Neighbor(1), msg{N: int(id)})
				ctx.SetTimer(5+Duration(ctx.Rand().IntN(10)), "tick")
			},
			receive: func(ctx Context, from NodeID, m Message) {
				note(ctx, "%s from %d: %v", m.Kind(), from, m)
				peers := ctx.Peers()
				switch m := m.(type) {
				case msg:
					ctx.Set("last", m.N)
					switch {
					case m.N > 300:
					case m.N%3 == 0:
						passOn(ctx, m)
						ctx.Send(ctx.Neighbor(1), msg{N: m.N + 7})
					case m.N%3 == 1:
						ctx.Send(peers[ctx.Rand().IntN(len(peers))], msg{N: m.N + 5})
						ctx.Send(ctx.Neighbor(-1), dyn{K: "X"})
					default:
						ctx.Send(ctx.Neighbor(1), ping{})
						ctx.Send(ctx.Neighbor(2), dyn{K: fmt.Sprintf("K%d", m.N%4)})
						ctx.Send(ctx.Neighbor(1), msg{N: m.N + 11})
					}
				case dyn:
					if m.K != "Y" {
						ctx.Send(ctx.Neighbor(1), dyn{K: "Y"})
						passOn(ctx, m)
					}
				case ping:
				}
			},
			timer: func(ctx Context, tag string) {
				note(ctx, "timer %s", tag)
				if ctx.Now() < 120 {
					ctx.Broadcast(ping{})
					ctx.SetTimer(15, "tick")
				}
			},
		}
	}
}

// TestTracingChangesNothing runs worlds with and without an observer: the
// kernel takes shortcuts when nothing traces, and they must not change what
// happens. Faults and network changes switch the shortcuts on and off
// during the runs. The traced run also checks that every message carries
// its own kind, which the kind shortcut must not get wrong.
func TestTracingChangesNothing(t *testing.T) {
	links := []Link{
		DefaultLink,
		{Latency: Dist{Kind: Constant, A: 3}},
		{Latency: Dist{Kind: Uniform, A: 1, B: 9}, FIFO: true},
		{Latency: Dist{Kind: Constant, A: 2}, Loss: 0.1, Dup: 0.1},
	}
	for seed := uint64(1); seed <= 24; seed++ {
		link := links[seed%uint64(len(links))]
		run := func(traced bool) (map[NodeID][]string, string) {
			log := map[NodeID][]string{}
			ids := []NodeID{3, 5, 0, 1, 4, 6, 9}
			s, err := New(Config{Seed: seed, Topology: Topology{Name: "ring", IDs: ids}, Factory: chatter(log), Link: link, DetectDelay: 4})
			must(t, err)
			if traced {
				s.Observe(func(e *trace.Event) {
					if m, ok := e.Msg.(Message); ok && e.Kind != m.Kind() {
						t.Fatalf("seed %d: %s event of a %s message says kind %s", seed, e.Type, m.Kind(), e.Kind)
					}
				})
			}
			fault := ids[seed%7]
			s.At(Time(10+seed), func() { must(t, s.Crash(fault)) })
			s.At(Time(30+seed), func() { must(t, s.Recover(fault)) })
			s.At(40, func() { must(t, s.Partition([][]NodeID{{3, 5, 0}})) })
			s.At(55, func() { must(t, s.Partition(nil)) })
			if seed%2 == 0 {
				s.At(70, func() { must(t, s.SetLink(0, 1, Link{Latency: Dist{Kind: Constant, A: 4}})) })
			}
			res := s.Run(Until{Time: 400})
			out := fmt.Sprintf("%s\n%+v\n", res, s.Stats())
			for _, id := range ids {
				out += fmt.Sprintf("%d up=%v %v\n", id, s.Up(id), s.State(id))
			}
			return log, out
		}
		logA, endA := run(true)
		logB, endB := run(false)
		if endA != endB {
			t.Fatalf("seed %d: traced run ended\n%s\nuntraced\n%s", seed, endA, endB)
		}
		for id, l := range logA {
			if !slices.Equal(l, logB[id]) {
				t.Fatalf("seed %d: process %d received differently\ntraced:   %q\nuntraced: %q", seed, id, l, logB[id])
			}
		}
		if len(logA) != len(logB) {
			t.Fatalf("seed %d: %d processes logged traced, %d untraced", seed, len(logA), len(logB))
		}
	}
}

// TestUntracedCrashDropsMessagesInFlight: a message still in flight when its
// receiver crashes is dropped even if the receiver has recovered by the time
// it arrives, with tracing off too (the delivery shortcut checks the crash
// counter).
func TestUntracedCrashDropsMessagesInFlight(t *testing.T) {
	got := 0
	mk := func(id NodeID) Node {
		return &fnNode{
			start: func(ctx Context) {
				if id == 1 && !ctx.Recovered() {
					ctx.Send(2, ping{})
				}
			},
			receive: func(Context, NodeID, Message) { got++ },
		}
	}
	s, err := New(Config{Seed: 1, Topology: Topology{Name: "ring", IDs: []NodeID{1, 2}}, Factory: mk,
		Link: Link{Latency: Dist{Kind: Constant, A: 50}}})
	must(t, err)
	s.At(5, func() { must(t, s.Crash(2)) })
	s.At(10, func() { must(t, s.Recover(2)) })
	s.Run(Until{})
	if st := s.Stats(); got != 0 || st.DropReasons["crashed"] != 1 {
		t.Fatalf("received %d, dropped %v", got, st.DropReasons)
	}
}

func TestSendNilMessagePanics(t *testing.T) {
	s, err := New(Config{Seed: 1, Topology: Topology{Name: "ring", IDs: []NodeID{1, 2}}, Link: DefaultLink,
		Factory: func(NodeID) Node {
			return &fnNode{start: func(ctx Context) { ctx.Send(ctx.Neighbor(1), nil) }}
		}})
	must(t, err)
	defer func() {
		if r := recover(); r != errNilMessage {
			t.Fatalf("recovered %v, want %v", r, errNilMessage)
		}
	}()
	s.Run(Until{})
}
