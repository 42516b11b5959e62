// Package sim is the deterministic kernel: integer virtual time, an event
// queue ordered by (time, seq), seeded random streams, the node runtime with
// crash and recovery, per-node drifting clocks, the network model and the
// failure detector.
//
// Nothing here reads the wall clock, starts a goroutine or ranges over a map
// where the order could reach the schedule or the trace: one seed gives one
// run, natively and in WebAssembly alike.
package sim

import (
	"math/rand/v2"
	"sort"

	"dsim/core/trace"
)

// NodeID is a process id. It doubles as the process's priority number, so
// that textbook examples can be written with the ids they print.
type NodeID int

// Time is true virtual time in ticks. Nodes never see it: they read their
// local clock through Context.Now.
type Time int64

// Duration is a span of ticks.
type Duration = Time

// Message is what nodes exchange. Each algorithm defines its own message
// structs; exported fields (named by their json tag when present) appear in
// the trace. A sent message is a value: neither its sender nor a receiver
// may change it (a duplicated message reaches its receiver twice, and the
// kernel keeps the kind of a message passed on as received), and its Kind
// must depend on nothing but the value.
type Message interface{ Kind() string }

// Node is an algorithm's process: a pure state machine that reacts to events
// and asks for effects through the Context. A crash discards the Node; on
// recovery the factory makes a fresh one and Start runs again.
type Node interface {
	Start(ctx Context)
	Receive(ctx Context, from NodeID, m Message)
	Timer(ctx Context, tag string)
	Command(ctx Context, name string, args Args) error
}

// SuspectHandler is implemented by nodes that want to hear from the failure
// detector as soon as it starts suspecting a process.
type SuspectHandler interface {
	Suspect(ctx Context, id NodeID)
}

// Factory makes the Node for a process id, at boot and at every recovery.
type Factory func(id NodeID) Node

// Context is a node's only window on the world.
type Context interface {
	Self() NodeID
	// N is the number of processes in the system, crashed ones included.
	N() int
	// Peers lists every other process in ring order, starting with the
	// successor. The slice is shared: do not modify it.
	Peers() []NodeID
	// Neighbors lists the processes adjacent to this one in the topology
	// (the Peers on a complete graph). The slice is shared: do not modify it.
	Neighbors() []NodeID
	// Neighbor walks the topology's ring order: +1 is the successor (the
	// right neighbour on a ring), -1 the predecessor, +2 the one after.
	Neighbor(dir int) NodeID
	// Now is the node's local clock: offset and drift applied.
	Now() Time
	Send(to NodeID, m Message)
	// Broadcast sends m to every neighbour.
	Broadcast(m Message)
	// SetTimer arms (or re-arms) the timer tag to fire after d ticks of the
	// node's local clock: at the first true time its local clock reads at
	// least d more than now. d <= 0 fires at the current time, after the
	// events already due then; d is capped at MaxDelay.
	SetTimer(d Duration, tag string)
	CancelTimer(tag string)
	// Suspected reports what the failure detector says of id: true once id
	// has been down for the detector's delay, false again a delay after it
	// recovers. It is the only way a node learns of crashes besides timeouts.
	Suspected(id NodeID) bool
	// Rand is this node's own random stream, derived from the run seed.
	Rand() *rand.Rand
	// Set records an observable state value (role, leader, in_cs, ...).
	// Values are ints, strings, bools, NodeIDs or slices of ints and NodeIDs.
	Set(key string, v any)
	Get(key string) any
	Log(format string, args ...any)
}

// Args are a command's named arguments.
type Args map[string]any

// Int returns the integer argument key, or def when it is absent.
func (a Args) Int(key string, def int) (int, error) {
	v, ok := a[key]
	if !ok || v == nil {
		return def, nil
	}
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case NodeID:
		return int(x), nil
	case float64:
		if x == float64(int(x)) {
			return int(x), nil
		}
	}
	return 0, &ArgError{Key: key, Want: "an integer", Got: v}
}

// String renders the arguments sorted by key, for traces, in at most
// maxText bytes (see eventText).
func (a Args) String() string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var t eventText
	for _, k := range keys {
		if !t.add(" ", trace.Truncate(k, trace.MaxQuoted)+"="+formatValue(a[k])) {
			break
		}
	}
	return t.String()
}

// ArgError reports a command argument of the wrong type.
type ArgError struct {
	Key  string
	Want string
	Got  any
}

func (e *ArgError) Error() string {
	return "argument " + trace.Quote(e.Key) + " must be " + e.Want + ", got " + formatValue(e.Got)
}
