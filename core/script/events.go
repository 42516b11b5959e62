package script

import (
	lua "github.com/yuin/gopher-lua"

	"dsim/core/trace"
)

// typeSet is a set of trace event types, one bit each.
type typeSet uint32

func types(ts ...trace.Type) typeSet {
	var s typeSet
	for _, t := range ts {
		s |= 1 << t
	}
	return s
}

func (s typeSet) has(t trace.Type) bool { return s&(1<<t) != 0 }

var (
	anyType = ^typeSet(0)
	msgType = types(trace.Send, trace.Deliver, trace.Drop)
)

// eventField is one field of the event tables hooks and w:events get. The
// table both builds the Lua tables and documents them in the reference.
type eventField struct {
	name, doc string
	types     typeSet
	get       func(r *runner, e *trace.Event) lua.LValue // nil result: field absent
}

var eventFields = []eventField{
	{"t", "true virtual time", anyType, func(_ *runner, e *trace.Event) lua.LValue { return lua.LNumber(e.T) }},
	{"seq", "position in the world's trace, from 0", anyType, func(_ *runner, e *trace.Event) lua.LValue { return lua.LNumber(e.Seq) }},
	{"type", "the event type (see the list above)", anyType, func(r *runner, e *trace.Event) lua.LValue { return r.typeNames[e.Type] }},
	{"node", "the process it happened at; absent for scenario-level events", anyType, func(_ *runner, e *trace.Event) lua.LValue {
		if e.Node == trace.NoNode {
			return lua.LNil
		}
		return lua.LNumber(e.Node)
	}},
	{"local", "that process's local clock reading", anyType, func(_ *runner, e *trace.Event) lua.LValue {
		if e.Node == trace.NoNode {
			return lua.LNil
		}
		return lua.LNumber(e.Local)
	}},
	{"from", "sender", msgType, func(_ *runner, e *trace.Event) lua.LValue { return lua.LNumber(e.From) }},
	{"to", "addressee", msgType, func(_ *runner, e *trace.Event) lua.LValue { return lua.LNumber(e.To) }},
	{"kind", "message kind, or the command name", msgType | types(trace.Command), func(_ *runner, e *trace.Event) lua.LValue { return lua.LString(e.Kind) }},
	{"id", "message id: pairs a send with its deliver or drop (duplicates share it)", msgType, func(_ *runner, e *trace.Event) lua.LValue { return lua.LNumber(e.MsgID) }},
	{"msg", "the message's fields by their trace names", msgType, func(r *runner, e *trace.Event) lua.LValue { return r.toLua(e.Msg) }},
	{"reason", `why it was dropped: "loss", "crashed", "partition", "no-such-process"`, types(trace.Drop), func(_ *runner, e *trace.Event) lua.LValue { return lua.LString(e.Reason) }},
	{"tag", "the timer's tag", types(trace.Timer), func(_ *runner, e *trace.Event) lua.LValue { return lua.LString(e.Tag) }},
	{"key", "state key", types(trace.State), func(_ *runner, e *trace.Event) lua.LValue { return lua.LString(e.Key) }},
	{"old", "state: previous value (nil when unset); clock: the reading before the correction", types(trace.State, trace.Clock), func(r *runner, e *trace.Event) lua.LValue {
		if e.Type == trace.Clock {
			return lua.LNumber(e.Local)
		}
		return r.toLua(e.Old)
	}},
	{"value", "new value (nil when cleared)", types(trace.State), func(r *runner, e *trace.Event) lua.LValue { return r.toLua(e.New) }},
	{"mode", `clock correction: "step" or "slew"`, types(trace.Clock), func(_ *runner, e *trace.Event) lua.LValue { return lua.LString(e.Kind) }},
	{"new", "the reading right after the correction (a slew's starts unchanged)", types(trace.Clock), func(_ *runner, e *trace.Event) lua.LValue { return lua.LNumber(e.ClockAfter()) }},
	{"delta", "what a step moved the clock by, or what a slew gains over `over`", types(trace.Clock), func(_ *runner, e *trace.Event) lua.LValue { return lua.LNumber(e.Delta) }},
	{"over", "the hardware-clock ticks a slew takes", types(trace.Clock), func(_ *runner, e *trace.Event) lua.LValue {
		if e.Over == 0 {
			return lua.LNil
		}
		return lua.LNumber(e.Over)
	}},
	{"name", "command name (as in the JSONL trace)", types(trace.Command), func(_ *runner, e *trace.Event) lua.LValue { return lua.LString(e.Kind) }},
	{"args", "command arguments as text (as in the JSONL trace)", types(trace.Command), func(_ *runner, e *trace.Event) lua.LValue { return lua.LString(e.Text) }},
	{"text", "log line, check message, partition or heal description, command arguments, warning", types(trace.Log, trace.Check, trace.Partition, trace.Heal, trace.Command, trace.Warning), func(_ *runner, e *trace.Event) lua.LValue { return lua.LString(e.Text) }},
	{"pass", "check outcome", types(trace.Check), func(_ *runner, e *trace.Event) lua.LValue { return lua.LBool(e.Pass) }},
	{"line", "script line of a log, check or command the script made; absent otherwise", anyType, func(_ *runner, e *trace.Event) lua.LValue {
		if e.Line <= 0 {
			return lua.LNil
		}
		return lua.LNumber(e.Line)
	}},
}

// parseType reads a hook or filter event type; "*" (when allowed) is 0.
func parseType(s string, star bool) (trace.Type, bool) {
	if star && s == "*" {
		return 0, true
	}
	return trace.ParseType(s)
}

func typeList() string {
	out := ""
	for i, t := range trace.Types() {
		if i > 0 {
			out += ", "
		}
		out += `"` + t.String() + `"`
	}
	return out
}

// typeNameValues precomputes the Lua strings of the event types, so event
// tables do not allocate them per event.
func typeNameValues() []lua.LValue {
	out := make([]lua.LValue, len(trace.Types())+1)
	out[0] = lua.LString("*")
	for _, t := range trace.Types() {
		out[t] = lua.LString(t.String())
	}
	return out
}
