// Package clock holds what the logical clocks share: the properties they
// promise, the state keys their checkers read, and the workload that gives
// a clock something to timestamp: internal events and messages between
// processes, ordered one by one by the scenario (the internal and send
// commands) or drawn at random from each process's own stream (the events
// configuration key). The clocks themselves live in the sub-packages lamport
// and vector. The physical clock synchronizations (cristian, berkeley, ntp)
// share their properties, claims and messages in physical.go.
package clock

import (
	"fmt"
	"math"
	"strings"

	"dsim/core/algo"
	"dsim/core/proc"
)

// The properties of logical clocks (see init for what each holds), judged
// at every event by core/check, which computes happened-before from the
// events alone (process order and send/deliver pairs), not from the clocks.
const (
	Lamport = "clock.lamport"
	Vector  = "clock.vector"
)

// State keys: the clock of each kind. A clock changes at every event of its
// process (internal, send, receive), before the messages the event sends
// leave, so that the checkers read each state change as the timestamp of
// one event. The value a process starts with (the key's first value, or its
// first after a recovery) timestamps no event.
const (
	KeyLamport = "clock"
	KeyVector  = "vclock"
)

func init() {
	algo.DeclareFamily("clock", "logical clocks (happened-before) and physical clock synchronization")
	algo.DeclareProperty(Lamport, "for every two events a and b where a happened before b (a → b, from process order and send/deliver pairs), C(a) < C(b); an event's C is the value its process's clock key took at it")
	algo.DeclareProperty(Vector, "for every two events a and b, V(a) < V(b) (every entry ≤, at least one <) if and only if a → b; an event's V is the value its process's vclock key took at it")
}

// Commands are the events a scenario orders one by one, to script a
// textbook's figure exactly.
var Commands = []algo.CommandSpec{
	{Name: "internal", Doc: "an internal event: the process's clock ticks, nothing is sent"},
	{Name: "send", Args: "to=<id>", Doc: "a send event: the clock ticks and a message stamped with it leaves for process to"},
}

// TimerEvent is the tag of the workload's timer.
const TimerEvent = "event"

// WorkloadParams are the configuration keys of the random workload: off by
// default, so that a scenario's commands are the only events.
func WorkloadParams() []algo.Param {
	return []algo.Param{
		{Name: "events", Type: algo.Int, Default: 0, Doc: "random events each process makes by itself, one at a time from its boot (0: none, only the commands)", Min: 0, Max: 1e6},
		{Name: "rate", Type: algo.Float, Default: 0.1, Doc: "random events per tick of local time at each process, on average: the gap before each is uniform in 1..2/rate-1 ticks", Min: 0.001, Max: 1},
		{Name: "sends", Type: algo.Float, Default: 0.5, Doc: "the share of random events that are sends to a peer drawn at random; the others are internal events", Min: 0, Max: 1},
	}
}

// Process is the clock side of a process: what its clock does at an
// internal event and at a send event. Receive events reach it through
// Node.Receive.
type Process interface {
	Internal(ctx proc.Context)
	Send(ctx proc.Context, to proc.NodeID)
}

// Workload is the user side of a process: it turns commands and the random
// workload's timer into events of the Process. Clocks embed it and route
// their Command and Timer calls through it.
type Workload struct {
	events int     // random events per process
	gaps   int     // the gap before each is uniform in 1..gaps ticks
	sends  float64 // the share of sends among them
	left   int     // random events still to make
}

// NewWorkload reads the configuration WorkloadParams describes.
func NewWorkload(v algo.Values) Workload {
	// 2/rate is one IEEE division, the same on every platform; rate <= 1
	// keeps at least a gap of one tick.
	return Workload{events: v.Int("events"), gaps: max(int(2/v.Float("rate"))-1, 1), sends: v.Float("sends")}
}

// Start arms the first random event. Call it from the clock's Start: a
// recovered process starts its random events afresh.
func (w *Workload) Start(ctx proc.Context) {
	w.left = w.events
	w.next(ctx)
}

func (w *Workload) next(ctx proc.Context) {
	if w.left > 0 {
		ctx.SetTimer(proc.Duration(1+ctx.Rand().IntN(w.gaps)), TimerEvent)
	}
}

// Timer makes a random event when tag is the workload's, and reports
// whether it was.
func (w *Workload) Timer(ctx proc.Context, p Process, tag string) bool {
	if tag != TimerEvent {
		return false
	}
	if w.left > 0 {
		w.left--
		peers := ctx.Peers()
		if r := ctx.Rand(); len(peers) > 0 && r.Float64() < w.sends {
			p.Send(ctx, peers[r.IntN(len(peers))])
		} else {
			p.Internal(ctx)
		}
		w.next(ctx)
	}
	return true
}

// Command handles internal and send.
func (w *Workload) Command(ctx proc.Context, p Process, name string, args proc.Args) error {
	switch name {
	case "internal":
		if len(args) > 0 {
			return fmt.Errorf("command \"internal\" takes no arguments, got %s", args)
		}
		p.Internal(ctx)
		return nil
	case "send":
		for k := range args {
			if k != "to" {
				return fmt.Errorf("command \"send\" takes only to=<id>, got %s", args)
			}
		}
		to, err := args.Int("to", math.MinInt)
		switch {
		case err != nil:
			return err
		case to == math.MinInt:
			return fmt.Errorf("command \"send\" needs to=<id>")
		case to < int(proc.MinID) || to > int(proc.MaxID) || !ctx.IsProcess(proc.NodeID(to)):
			return fmt.Errorf("send: %d is not a process", to)
		}
		p.Send(ctx, proc.NodeID(to))
		return nil
	}
	names := make([]string, len(Commands))
	for i, c := range Commands {
		names[i] = c.Name
	}
	return fmt.Errorf("unknown command %q (known: %s)", name, strings.Join(names, ", "))
}

// Add is a + b for b >= 0, staying at the top of int's range rather than
// wrapping round to the lowest value: only a hand-made timestamp can take a
// clock there, and a wrapped clock would order every later event first.
func Add(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
