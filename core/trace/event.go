// Package trace defines the typed events a run records and their encoders:
// the stable JSONL interchange schema, a readable text form, and a JSONL reader.
//
// trace sits at the bottom of the core: it imports nothing else from dsim, so
// the kernel, the algorithms, the checkers and the encoders can all share it.
package trace

import "fmt"

// Schema is the JSONL schema version, written in the header line of every
// JSONL trace. Bump it when a field changes meaning or disappears.
const Schema = 1

// Type is the kind of a trace event.
type Type uint8

const (
	Send      Type = iota + 1 // a node handed a message to the network
	Deliver                   // the network handed a message to a node
	Drop                      // the network discarded a message (see Reason)
	Timer                     // a node's timer fired
	Crash                     // a node crashed; its state is lost
	Recover                   // a node restarted with fresh state
	State                     // an observable state key changed
	Log                       // a node or the scenario logged a line
	Command                   // the scenario gave a node a command
	Check                     // an expectation was evaluated (Pass says how)
	Suspect                   // the failure detector started suspecting a node
	Trust                     // the failure detector stopped suspecting a node
	Partition                 // the network was partitioned or a link cut
	Heal                      // a partition or cut link was healed
	Warning                   // the run left its algorithm's assumptions (Text says how)
	Clock                     // a process stepped or slewed its clock (Kind says which)
)

var typeNames = [...]string{
	Send: "send", Deliver: "deliver", Drop: "drop", Timer: "timer",
	Crash: "crash", Recover: "recover", State: "state", Log: "log",
	Command: "command", Check: "check", Suspect: "suspect", Trust: "trust",
	Partition: "partition", Heal: "heal", Warning: "warning", Clock: "clock",
}

func (t Type) String() string {
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	return fmt.Sprintf("type(%d)", uint8(t))
}

// ParseType is the inverse of Type.String.
func ParseType(s string) (Type, bool) {
	for i, n := range typeNames {
		if n == s && n != "" {
			return Type(i), true
		}
	}
	return 0, false
}

// Types lists every event type in schema order.
func Types() []Type {
	out := make([]Type, 0, len(typeNames)-1)
	for i := 1; i < len(typeNames); i++ {
		out = append(out, Type(i))
	}
	return out
}

// NoNode marks an event that belongs to no process (a scenario log line, a
// check, a partition, a warning).
const NoNode = -1 << 31

// Event is one recorded happening. Only the fields that belong to its Type
// are meaningful; the encoders write only those.
//
// T is true time, which only the kernel, the checkers, the scenario and
// the page see; Local is the process's own clock.
//
// Msg holds the message value for send, deliver and drop. Algorithms must
// treat sent messages as immutable values, so a recorded event may keep the
// very value that was sent.
type Event struct {
	T    int64  // true virtual time
	Seq  uint64 // position in the trace, from 0
	Type Type
	Node int // the process the event happened at, or NoNode

	From, To int    // send, deliver, drop
	Kind     string // message kind (send, deliver, drop), command name, or clock: "step" or "slew"
	MsgID    uint64 // pairs a send with its deliver or drop; duplicates share it
	Msg      any    // message value; fields are encoded in declaration order

	Reason string // drop: "loss", "crashed", "partition" or "no-such-process"
	Tag    string // timer tag
	Key    string // state key
	Old    any    // state: previous value (nil when unset)
	New    any    // state: new value (nil when cleared)
	Text   string // log line, check message, command arguments, warning
	Pass   bool   // check outcome
	Local  int64  // the node's local clock reading, where the event has a node (clock: before the correction)
	// clock: a step moves the reading by Delta at once; a slew leaves it
	// and gains Delta over the next Over ticks of the hardware clock.
	Delta, Over int64
	Line        int // script line for log, check and command events (0 if none)
}

// ClockAfter is what a clock event's process reads right after the
// correction: a step's new reading; a slew's, which starts unchanged.
func (e *Event) ClockAfter() int64 {
	if e.Over != 0 {
		return e.Local
	}
	return e.Local + e.Delta
}

// Recorder keeps a copy of every event it is given.
type Recorder struct {
	Events []Event
}

// Record appends a copy of e.
func (r *Recorder) Record(e *Event) { r.Events = append(r.Events, *e) }
