// Package proc is the algorithm contract: what a process of an algorithm is
// (a Node), what processes exchange (Messages), and the process's only
// window on the world (its Context). Algorithm packages import this package
// and never the kernel, so that an algorithm reads as the rules the texts
// give, a test can drive it through a fake Context, and whatever speed the
// kernel needs stays behind these interfaces.
//
// Algorithms are pure, I/O-free state machines: they react to events
// (Start, Receive, Timer, Command) and ask for effects through the Context.
package proc

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// NodeID is a process id. It doubles as the process's priority number, so
// that textbook examples can be written with the ids they print. Ids have
// 32 bits, which every world needs and which keeps a process's record
// small: the ids a ring process keeps (its own, its successor's, its
// coordinator's) make up much of it, and a million-process world runs at
// the speed of its records' memory.
type NodeID int32

// FormatIDs lists ids for a message, "1, 2, 3", the first dozen of a
// longer list followed by how many there are in all.
func FormatIDs(ids []NodeID) string {
	var b strings.Builder
	for i, id := range ids {
		if i == 12 {
			fmt.Fprintf(&b, ", ... (%d in all)", len(ids))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, int(id))
	}
	return b.String()
}

// MinID and MaxID bound process ids: they must survive a round trip through
// the trace (where the lowest int32 marks "no process") and JSON readers
// that hold numbers as float64.
const (
	MinID NodeID = -(1<<31 - 1)
	MaxID NodeID = 1<<31 - 1
)

// Time is virtual time in ticks. A process never sees true time: it reads
// its local clock through Context.Now.
type Time int64

// Duration is a span of ticks.
type Duration = Time

// MaxDelay bounds a timer's duration (about 35 years of milliseconds);
// longer timers are shortened to it.
const MaxDelay Duration = 1 << 40

// Message is what processes exchange. Each algorithm defines its own message
// structs; exported fields (named by their json tag when present) appear in
// the trace. A sent message is a value: neither its sender nor a receiver
// may change it (a duplicated message reaches its receiver twice, and a
// message passed on as received keeps its kind), and its Kind must depend
// on nothing but the value.
type Message interface{ Kind() string }

// Node is an algorithm's process: a pure state machine that reacts to events
// and asks for effects through the Context. A crash discards the Node; on
// recovery the factory makes a fresh one and Start runs again.
type Node interface {
	// Start runs at boot and on recovery (Context.Recovered tells which).
	Start(ctx Context)
	Receive(ctx Context, from NodeID, m Message)
	Timer(ctx Context, tag string)
	// Command is an order from the scenario (request the critical section,
	// start an election); an error rejects it and is shown to the user.
	Command(ctx Context, name string, args Args) error
}

// SuspectHandler is implemented by nodes that want to hear from the failure
// detector as soon as it starts suspecting a process.
type SuspectHandler interface {
	Suspect(ctx Context, id NodeID)
}

// Factory makes the Node for a process id, at boot and at every recovery.
type Factory func(id NodeID) Node

// Context is a node's only window on the world. Everything an algorithm may
// ask is a method here: nothing outside the kernel looks behind it.
type Context interface {
	Self() NodeID
	// N is the number of processes in the system, crashed ones included.
	N() int
	// Index is this process's position in ring order: 0 for the first
	// process, the one texts start from ("initially the token is given to
	// the first process", the root of a tree).
	Index() int
	// IsProcess reports whether id is a process of the system: a
	// hand-made message can carry any id.
	IsProcess(id NodeID) bool
	// Peers lists every other process in ring order, starting with the
	// successor. The slice is shared: do not modify it.
	Peers() []NodeID
	// Neighbors lists the processes adjacent to this one in the topology
	// (the Peers on a complete graph). The slice is shared: do not modify it.
	Neighbors() []NodeID
	// Neighbor walks the topology's ring order: +1 is the successor (the
	// right neighbour on a ring), -1 the predecessor, +2 the one after.
	Neighbor(dir int) NodeID
	// Successor is the first process after this one in ring order that the
	// failure detector does not suspect: the one a ring algorithm sends to.
	// It is this process itself when it suspects every other one, so that
	// a lone survivor still completes what it started.
	Successor() NodeID
	// Now is the node's local clock: the software clock its process
	// reads, which the scenario's offset and drift make differ from true
	// time and which the process may correct with StepClock and SlewClock.
	Now() Time
	// StepClock sets the local clock to read to from now on, forward or
	// back (Cristian's algorithm; NTP for a large offset). It abandons
	// the rest of a slew in progress.
	StepClock(to Time)
	// SlewClock corrects the local clock gradually: over the next `over`
	// ticks of its hardware clock it gains delta ticks (loses -delta when
	// delta is negative) evenly, as a clock whose interrupt handler adds
	// a little more or less per tick, so it never runs backwards
	// (Berkeley's algorithm; NTP for a small offset). over must be
	// positive and a slew may lose less than one tick per tick: -over <
	// delta; both are at most MaxDelay. It replaces the rest of a slew
	// in progress.
	SlewClock(delta, over Duration)
	Send(to NodeID, m Message)
	// Broadcast sends m to every neighbour.
	Broadcast(m Message)
	// SetTimer arms (or re-arms) the timer tag to fire after d ticks of the
	// node's local clock: at the first true time its local clock reads at
	// least d more than now, not counting the corrections made meanwhile.
	// A timer counts the ticks of the hardware clock, as a timer
	// interrupt does, and measures an interval, not a reading: stepping or
	// slewing the clock changes what Now reads when it fires, not when it
	// fires (as POSIX has it for relative timers), so that a correction
	// neither fires a pending timeout early nor holds it back. d <= 0
	// fires at the current time, after the events already due then; d is
	// capped at MaxDelay.
	SetTimer(d Duration, tag string)
	CancelTimer(tag string)
	// Suspected reports what the failure detector says of id: true once id
	// has been down for the detector's delay, false again a delay after it
	// recovers. It is the only way a node learns of crashes besides timeouts.
	Suspected(id NodeID) bool
	// Recovered reports whether this process has crashed and recovered at
	// least once. The election texts assume that "a process that has
	// failed knows on recovery that it has indeed failed", as if it kept a
	// note in stable storage; this is that note.
	Recovered() bool
	// Rand is this node's own random stream, derived from the run seed.
	Rand() *rand.Rand
	// Set records an observable state value (role, leader, in_cs, ...).
	// Values are ints, strings, bools, NodeIDs or slices of ints and NodeIDs.
	Set(key string, v any)
	Get(key string) any
	Log(format string, args ...any)
	// WriteStable appends record to this process's stable log: the
	// stable storage of the atomicity texts, whose records ("<ready T1>")
	// survive a crash. Each write also sets the state key KeyStable to
	// the record, with a state event even when it repeats the last one,
	// so the trace shows every record written.
	WriteStable(record string)
	// Stable reads this process's stable log, oldest record first: every
	// record written in any of its lives, so that a fresh Node reads it
	// in Start when Recovered. The slice is shared: do not modify it.
	Stable() []string
}

// KeyStable is the state key that shows a process's stable log in the
// trace: each WriteStable sets it to the record written.
const KeyStable = "log"
