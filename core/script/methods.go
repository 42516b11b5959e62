package script

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/algo/mutex"
	"dsim/core/proc"
	"dsim/core/sim"
	"dsim/core/trace"
)

// worldMethods are the methods of a world (w:name(...)).
var worldMethods = []entry[*world]{
	{"at", "(t, fn)", "", "Calls fn() at virtual time t (not in the past).", wAt},
	{"after", "(d, fn)", "", "Calls fn() d ticks from now.", wAfter},
	{"when", "(pred, fn)", "", "Calls fn() once, after the first event at which pred() is true. Conditions are checked after every event of w:run and w:step.", wWhen},
	{"on", "(type, fn)", "", "Calls fn(ev) for every event of the type, or of every type with \"*\". ev is a read-only event: read its fields (under *Hook events*) like a table's, e.g. ev.kind or ev.msg.id, walk them with pairs, print it. Hooks may call any world method except run and step.", wOn},
	{"run", "([{until_time=T, events=N, predicate=fn}])", "{reason=, events=, time=}", "Runs the world: without options to quiescence; until_time runs every event up to T and sets the clock to T; events stops after N events; predicate stops after the first event at which fn() is true (the key cannot be `until`, a Lua keyword). Options combine. reason is one of \"quiescent\", \"time\", \"events\", \"predicate\", \"stopped\", \"event-limit\", \"time-limit\"; hitting max_events or max_time also adds a note to the results.", wRun},
	{"step", "()", "boolean", "Runs the next event; false when there is none.", wStep},
	{"stop", "()", "", "From a hook or callback: ends the current w:run after this event (reason \"stopped\").", wStop},
	{"crash", "(id)", "", "Crashes process id now: its state, timers and messages in flight to it are lost.", wCrash},
	{"recover", "(id)", "", "Restarts crashed process id with fresh state; it starts again at once.", wRecover},
	{"partition", "(ids, ids, ...)", "", "Splits the network into groups (lists of ids); processes in no group form one more group. Messages between groups are dropped.", wPartition},
	{"heal", "()", "", "Removes every partition and cut link.", wHeal},
	{"cut", "(a, b)", "", "Disconnects the link between a and b, both ways.", wCut},
	{"mend", "(a, b)", "", "Reconnects a link that cut disconnected.", wMend},
	{"link", "(a, b, {latency=, loss=, dup=, fifo=, both=})", "", "Overrides the model of the link from a to b (and b to a with both=true); keys not given keep their current value. latency is a number or a distribution.", wLink},
	{"network", "{latency=, loss=, dup=, fifo=}", "", "Changes the model of every link without an override; keys not given keep their current value.", wNetwork},
	{"clock", "(id, {offset=, drift=})", "", "Sets process id's hardware clock to offset + t + floor(t*drift) at true time t (missing keys are 0); drift is a rate in (-0.5, 0.5). It discards the process's corrections: its clock reads that from now on.", wClock},
	{"step_clock", "(id, to)", "", "Sets process id's clock to read to now, as the process's StepClock would: a `clock` event in the trace.", wStepClock},
	{"slew_clock", "(id, delta, over)", "", "Makes process id's clock gain delta ticks (lose, when negative) evenly over the next `over` ticks of its hardware clock, never running backwards (-over < delta), as the process's SlewClock would: a `clock` event in the trace. It replaces the rest of a slew in progress.", wSlewClock},
	{"clock_errors", "{every=, from=, to=, nodes=}", "list of rows", "Every process's clock error (its reading minus true time) every `every` ticks from `from` (default 0) to `to` (default now), as rows {t=T, P1=error, P2=...} for report or a plot; nodes (default all) picks the processes. At most 100,000 values.", wClockErrors},
	{"inject", "{from=id, to=id, kind=KIND, field=value, ..., msg={field=value, ...}}", "", "Sends a hand-made message of the algorithm's kind KIND from `from` to `to` through the network, as if `from` had sent it. Fields are set by their trace names, beside from/to/kind or in the msg table (needed for fields named from, to, kind or msg); the others keep the algorithm's prototype values.", wInject},
	{"command", "(id, name[, args])", "", "Gives process id the command name (see the algorithm's commands) with args, a table of named values.", wCommand},
	{"node", "(id)", "node", "The process id, as an object with the node methods below.", wNode},
	{"now", "()", "integer", "The true virtual time.", wNow},
	{"ids", "()", "list of ids", "Every process id, in ring order.", wIDs},
	{"alive", "()", "list of ids", "The ids of the processes that are up, in ring order.", wAlive},
	{"agreed", "(key)", "value or nil", "The value of state key that every live process holds, or nil when they differ or one lacks it.", wAgreed},
	{"state", "(id)", "table", "Process id's observable state, key -> value (empty when crashed).", wState},
	{"stats", "()", "table", "Counters so far: {events, time, sent, delivered, dropped, messages={KIND=sent}, delivered_by_kind={...}, dropped_by_kind={...}, drops={reason=n}}." + csDoc, wStats},
	{"check", "(name)", "ok, message", "Judges the property name (e.g. \"mutex.safety\", see *Checks and costs*) now, without recording it: `expect(w:check(\"mutex.safety\"))` records it with the checker's message. An error when check has no checker for name or the algorithm declares no property of its family (`mutex.`).", wCheck},
	{"workload", "{rate=, cs=, until_time=, nodes=, start=}", "", "Makes each process of nodes (default: all) request the critical section at Poisson times: rate requests per tick on average, from start (default now) until before until_time, each holding it cs ticks (`request{duration=cs}`). The times come from a stream of the world's seed, one per process and call. A request falling when the process is down is skipped, with a log event.", wWorkload},
	{"count", "([{type=, kind=, node=}])", "integer", "The number of recorded trace events matching the filter (all keys optional). It scans the trace, so inside a hook or a `when` condition, which run at every event, count in a hook instead.", wCount},
	{"events", "([{type=, kind=, node=}])", "list of events", "The recorded trace events matching the filter, as hook events.", wEvents},
	{"consistent", "{[id]=seq, ...}", "ok, backward, in_flight", "Judges a cut of the trace: for each process, a seq: the cut holds the process's events up to it (its own event's seq, or any seq between that and its next event's; -1 or missing: none). ok is whether the cut is consistent: no message crosses it backwards (delivered inside, sent outside). backward lists those messages and in_flight the messages sent inside and neither delivered nor dropped inside (the channels' states at the cut), each as {send=seq, deliver=seq or nil, from=, to=, kind=, id=}.", wConsistent},
	{"timestamps", "([{type=, kind=, node=}])", "list of rows", "The logical timestamps of the recorded events the filter selects (keys as w:events), computed from the trace whatever the algorithm keeps: sends, deliveries, timers, commands, crashes and recoveries, each as {seq=, node=, type=, lamport=, vector={...}}. A timer or a command whose handler sends is no event of its own: its first send is, as in the texts (p1 sending m1 is one event) and in the algorithms that keep logical clocks. lamport is one more than the larger of its process's previous event's and, for a delivery, its send's; vector holds one entry per process in the order of w:ids(), by the vector clock's rule, and is left out where a vector per event would pass a million entries (processes times events).", wTimestamps},
}

// node is the object w:node(id) returns.
type node struct {
	w  *world
	id sim.NodeID
}

// nodeMethods are the methods of a node (node:name(...)).
var nodeMethods = []entry[node]{
	{"id", "()", "integer", "The process id.", func(n node, L *lua.LState) int { L.Push(lua.LNumber(n.id)); return 1 }},
	{"up", "()", "boolean", "Whether the process is running (not crashed).", func(n node, L *lua.LState) int { L.Push(lua.LBool(n.w.s.Up(n.id))); return 1 }},
	{"get", "(key)", "value or nil", "One observable state value.", nGet},
	{"state", "()", "table", "The observable state, key -> value.", func(n node, L *lua.LState) int { L.Push(n.w.stateTable(n.id)); return 1 }},
	{"command", "(name[, args])", "", "As w:command(id, name, args).", func(n node, L *lua.LState) int { n.w.command(L, "node:command", n.id, 1); return 0 }},
	{"crash", "()", "", "As w:crash(id).", func(n node, L *lua.LState) int {
		n.w.check(L, "node:crash", n.w.crash(n.id, n.w.r.currentLine(L, 0)))
		return 0
	}},
	{"recover", "()", "", "As w:recover(id).", func(n node, L *lua.LState) int {
		n.w.check(L, "node:recover", n.w.recover(n.id, n.w.r.currentLine(L, 0)))
		return 0
	}},
	{"stable", "()", "list", "The process's stable log, oldest record first (strings such as \"<ready T1>\"): what it wrote to stable storage in all its lives, which a crash does not erase (each write also sets its state key `log`).", nStable},
	{"corrections", "()", "list", "The steps and slews of the process's clock, oldest first: {t=, mode=\"step\" or \"slew\", old=, new=, delta=, over=} (t is true time; old and new the readings just before and after; a slew's over is in hardware ticks).", nCorrections},
	{"clock", "()", "integer", "The process's local clock reading (w:now() is true time).", func(n node, L *lua.LState) int {
		t, err := n.w.s.LocalTime(n.id)
		n.w.check(L, "node:clock", err)
		L.Push(lua.LNumber(t))
		return 1
	}},
}

func (r *runner) checkWorld(L *lua.LState, method string) (*world, *world) {
	if ud, ok := L.Get(1).(*lua.LUserData); ok {
		if w, ok := ud.Value.(*world); ok {
			return w, w
		}
	}
	raise(L, "w:%s: call it with a colon, as w:%s(...)", method, method)
	return nil, nil
}

func (r *runner) checkNode(L *lua.LState, method string) (node, *world) {
	if ud, ok := L.Get(1).(*lua.LUserData); ok {
		if n, ok := ud.Value.(node); ok {
			return n, n.w
		}
	}
	raise(L, "node:%s: call it with a colon, as node:%s(...)", method, method)
	return node{}, nil
}

// check raises err, if any, as the error of method.
func (w *world) check(L *lua.LState, method string, err error) {
	if err != nil {
		raise(L, "%s: %v", method, err)
	}
}

// arg reads argument n (counting self as 1) with conv, raising a message
// that names the method and the parameter.
func arg[T any](L *lua.LState, n int, method, param string, conv func(lua.LValue) (T, error)) T {
	return get(L, L.Get(n), method, param, conv)
}

// get converts v, the value of the setting or parameter param, with conv.
func get[T any](L *lua.LState, v lua.LValue, method, param string, conv func(lua.LValue) (T, error)) T {
	x, err := conv(v)
	if err != nil {
		raise(L, "%s: %s: %v", method, param, err)
	}
	return x
}

func toFunction(v lua.LValue) (*lua.LFunction, error) {
	fn, ok := v.(*lua.LFunction)
	if !ok {
		return nil, fmt.Errorf("want a function, got %s", describe(v))
	}
	return fn, nil
}

// id reads a process id argument and checks the process exists.
func (w *world) id(L *lua.LState, n int, method, param string) sim.NodeID {
	id := arg(L, n, method, param, toID)
	if !w.s.Has(id) {
		raise(L, "%s: no process %d (ids: %s)", method, id, w.idList())
	}
	return id
}

// nodesOption reads the nodes key of an options table t: distinct ids of
// processes, every process when it is missing.
func (w *world) nodesOption(L *lua.LState, t *lua.LTable, method string) []sim.NodeID {
	v := t.RawGetString("nodes")
	if v == lua.LNil {
		return w.s.IDs()
	}
	nodes := get(L, v, method, "nodes", toIDs)
	for i, id := range nodes {
		switch {
		case !w.s.Has(id):
			raise(L, "%s: nodes: no process %d (ids: %s)", method, id, w.idList())
		case slices.Contains(nodes[:i], id):
			raise(L, "%s: nodes: process %d is listed twice", method, id)
		}
	}
	return nodes
}

func (w *world) idList() string { return proc.FormatIDs(w.s.IDs()) }

// settings reads an optional table of named settings, rejecting unknown
// names.
func settings(L *lua.LState, n int, method string, known ...string) (*lua.LTable, []string) {
	v := L.Get(n)
	if v == lua.LNil {
		return L.NewTable(), nil
	}
	keys, t, err := fields(v)
	if err != nil {
		raise(L, "%s: %v", method, err)
	}
	for _, k := range keys {
		found := false
		for _, kn := range known {
			found = found || k == kn
		}
		if !found {
			raise(L, "%s: unknown key %s (known: %s)", method, trace.Quote(k), strings.Join(known, ", "))
		}
	}
	return t, keys
}

func (w *world) schedule(L *lua.LState, method string, at sim.Time, fn *lua.LFunction) {
	if at < w.s.Now() {
		raise(L, "%s: time %d is in the past (now is %d)", method, at, w.s.Now())
	}
	w.scripted = true
	w.s.At(at, func() { w.r.callback(w, fn) })
}

func wAt(w *world, L *lua.LState) int {
	t := arg(L, 2, "w:at", "t", toNonNegative)
	w.schedule(L, "w:at", sim.Time(t), arg(L, 3, "w:at", "fn", toFunction))
	return 0
}

func wAfter(w *world, L *lua.LState) int {
	d := arg(L, 2, "w:after", "d", toNonNegative)
	w.schedule(L, "w:after", w.s.Now()+sim.Time(d), arg(L, 3, "w:after", "fn", toFunction))
	return 0
}

func wWhen(w *world, L *lua.LState) int {
	pred := arg(L, 2, "w:when", "pred", toFunction)
	fn := arg(L, 3, "w:when", "fn", toFunction)
	w.scripted = true
	w.whens = append(w.whens, when{pred, fn})
	return 0
}

func wOn(w *world, L *lua.LState) int {
	name := arg(L, 2, "w:on", "type", toString)
	typ, ok := parseType(name, true)
	if !ok {
		raise(L, "w:on: unknown event type %s (known: %s, or \"*\" for all)", trace.Quote(name), typeList())
	}
	w.hooks = append(w.hooks, hook{typ, arg(L, 3, "w:on", "fn", toFunction)})
	w.hooked |= 1 << typ
	w.scripted = true
	w.observe()
	return 0
}

func (w *world) noCallback(L *lua.LState, method string) {
	if w.r.inCallback > 0 {
		raise(L, "%s: cannot run a world from inside a hook or callback (use w:stop() to end the run)", method)
	}
}

func wRun(w *world, L *lua.LState) int {
	w.noCallback(L, "w:run")
	t, keys := settings(L, 2, "w:run", "until_time", "events", "predicate")
	var u sim.Until
	var until *lua.LFunction
	for _, k := range keys {
		v := t.RawGetString(k)
		switch k {
		case "until_time":
			at := get(L, v, "w:run", k, toNonNegative)
			if sim.Time(at) < w.s.Now() || at == 0 {
				raise(L, "w:run: until_time %d is not after the current time %d", at, w.s.Now())
			}
			u.Time = sim.Time(at)
		case "events":
			n := get(L, v, "w:run", k, toNonNegative)
			if n == 0 {
				raise(L, "w:run: events must be at least 1")
			}
			u.Events = uint64(n)
		case "predicate":
			until = get(L, v, "w:run", k, toFunction)
		}
	}
	if until != nil || w.scripted {
		u.Pred = func() bool { return w.afterEvent(until) }
	}
	res := w.run(u)
	if res.Limited() {
		w.r.notes = append(w.r.notes, fmt.Sprintf("world %d: %s", w.index, res))
	}
	out := L.CreateTable(0, 3)
	out.RawSetString("reason", lua.LString(res.Reason))
	out.RawSetString("events", lua.LNumber(res.Events))
	out.RawSetString("time", lua.LNumber(res.Time))
	L.Push(out)
	return 1
}

// runChunk is how many events a run takes between two looks at the memory
// and at the clock.
const runChunk = 1 << 16

// livelockEvents is how many events may run at one instant before the run
// is called a livelock. A burst is finite: n boots at t=0, or several times n² messages
// of a broadcast on links of constant latency (the bully algorithm's
// elections), while a callback that reschedules itself at the same tick, or
// a message bounced on links of latency 0, never ends.
func livelockEvents(n int) uint64 { return max(1<<18, 8*uint64(n)*uint64(n)) }

// run is w.s.Run(u) in chunks of runChunk events, between which the memory
// guard looks at the heap (an untraced run grows its queue in Go, with no
// Lua instruction to count) and a clock that has not moved for
// livelockEvents events stops the run as a zero-time livelock.
func (w *world) run(u sim.Until) sim.Result {
	var total sim.Result
	still, since := uint64(0), w.s.Now()
	for {
		part := u
		if left := u.Events - total.Events; u.Events == 0 || left > runChunk {
			part.Events = runChunk
		} else {
			part.Events = left
		}
		res := w.s.Run(part)
		total.Events += res.Events
		total.Time, total.Reason = res.Time, res.Reason
		if res.Reason != sim.EventCount || total.Events == u.Events {
			return total
		}
		if w.r.budget.checkMemory(); w.r.fatal != nil {
			return total
		}
		if res.Time != since {
			still, since = 0, res.Time
		} else if still += res.Events; still >= livelockEvents(len(w.s.IDs())) {
			w.r.fail(w.r.errorHere(fmt.Sprintf("world %d: livelock: %d events at t=%d without the clock moving (a callback or a message loop with no delay?)", w.index, still, since)))
			return total
		}
	}
}

func wStep(w *world, L *lua.LState) int {
	w.noCallback(L, "w:step")
	ok := w.s.Step()
	if ok {
		w.afterEvent(nil)
	}
	L.Push(lua.LBool(ok))
	return 1
}

func wStop(w *world, L *lua.LState) int {
	w.s.Stop()
	return 0
}

func wCrash(w *world, L *lua.LState) int {
	w.check(L, "w:crash", w.crash(w.id(L, 2, "w:crash", "id"), w.r.currentLine(L, 0)))
	return 0
}

func wRecover(w *world, L *lua.LState) int {
	w.check(L, "w:recover", w.recover(w.id(L, 2, "w:recover", "id"), w.r.currentLine(L, 0)))
	return 0
}

func wPartition(w *world, L *lua.LState) int {
	if L.GetTop() < 2 {
		raise(L, "w:partition: give at least one group, e.g. w:partition({1, 2}, {3, 4})")
	}
	groups := make([][]sim.NodeID, L.GetTop()-1)
	work := len(w.s.IDs()) // the kernel regroups every process
	for i := range groups {
		groups[i] = arg(L, i+2, "w:partition", fmt.Sprintf("group %d", i+1), toIDs)
		work += len(groups[i])
	}
	if w.r.budget.charge(elementCost*int64(work), "in w:partition"); w.r.fatal != nil {
		return 0 // the guard raises it
	}
	w.check(L, "w:partition", w.split(w.s.Partition(groups), w.r.currentLine(L, 0), "the network is partitioned"))
	return 0
}

func wHeal(w *world, L *lua.LState) int {
	w.s.Heal()
	return 0
}

func wCut(w *world, L *lua.LState) int {
	a, b := w.id(L, 2, "w:cut", "a"), w.id(L, 3, "w:cut", "b")
	w.check(L, "w:cut", w.split(w.s.Cut(a, b), w.r.currentLine(L, 0), fmt.Sprintf("the link %d-%d is cut", a, b)))
	return 0
}

func wMend(w *world, L *lua.LState) int {
	w.check(L, "w:mend", w.s.Mend(w.id(L, 2, "w:mend", "a"), w.id(L, 3, "w:mend", "b")))
	return 0
}

// applyLink changes the keys of a link model that t sets.
func applyLink(L *lua.LState, method string, l sim.Link, t *lua.LTable, keys []string) sim.Link {
	for _, k := range keys {
		v := t.RawGetString(k)
		var err error
		switch k {
		case "latency":
			l.Latency, err = toDist(v)
		case "loss":
			l.Loss, err = toNumber(v)
		case "dup":
			l.Dup, err = toNumber(v)
		case "fifo":
			l.FIFO, err = toBool(v)
		}
		if err != nil {
			raise(L, "%s: %s: %v", method, k, err)
		}
	}
	if err := l.Validate(); err != nil {
		raise(L, "%s: %v", method, err)
	}
	return l
}

func wLink(w *world, L *lua.LState) int {
	a, b := w.id(L, 2, "w:link", "a"), w.id(L, 3, "w:link", "b")
	t, keys := settings(L, 4, "w:link", "latency", "loss", "dup", "fifo", "both")
	both := false
	if v := t.RawGetString("both"); v != lua.LNil {
		both = get(L, v, "w:link", "both", toBool)
	}
	pairs := [][2]sim.NodeID{{a, b}}
	if both {
		pairs = append(pairs, [2]sim.NodeID{b, a})
	}
	for _, p := range pairs {
		cur, err := w.s.Link(p[0], p[1])
		w.check(L, "w:link", err)
		l := applyLink(L, "w:link", cur, t, keys)
		w.check(L, "w:link", w.s.SetLink(p[0], p[1], l))
		w.checkLink(l, w.r.currentLine(L, 0), fmt.Sprintf("the link %d->%d", p[0], p[1]))
	}
	return 0
}

func wNetwork(w *world, L *lua.LState) int {
	t, keys := settings(L, 2, "w:network", "latency", "loss", "dup", "fifo")
	l := applyLink(L, "w:network", w.link, t, keys)
	w.check(L, "w:network", w.s.SetDefaultLink(l))
	w.link = l
	w.checkLink(l, w.r.currentLine(L, 0), "the links")
	return 0
}

func wClock(w *world, L *lua.LState) int {
	id := w.id(L, 2, "w:clock", "id")
	t, _ := settings(L, 3, "w:clock", "offset", "drift")
	var offset int64
	var drift float64
	if v := t.RawGetString("offset"); v != lua.LNil {
		offset = get(L, v, "w:clock", "offset", toInt)
	}
	if v := t.RawGetString("drift"); v != lua.LNil {
		drift = get(L, v, "w:clock", "drift", toNumber)
	}
	w.check(L, "w:clock", w.s.SetClock(id, sim.Time(offset), drift))
	w.checkClock(id, offset, drift, w.r.currentLine(L, 0))
	return 0
}

func wInject(w *world, L *lua.LState) int {
	keys, t, err := fields(L.Get(2))
	if err != nil {
		raise(L, "w:inject: %v", err)
	}
	var from, to sim.NodeID
	var kind string
	msg := map[string]lua.LValue{}
	for _, k := range keys {
		v := t.RawGetString(k)
		switch k {
		case "from", "to":
			id, err := toID(v)
			if err == nil && !w.s.Has(id) {
				err = fmt.Errorf("no process %d (ids: %s)", id, w.idList())
			}
			if err != nil {
				raise(L, "w:inject: %s: %v", k, err)
			}
			if k == "from" {
				from = id
			} else {
				to = id
			}
		case "kind":
			kind = get(L, v, "w:inject", k, toString)
		case "msg":
			mkeys, mt, err := fields(v)
			if err != nil {
				raise(L, "w:inject: msg: %v", err)
			}
			for _, mk := range mkeys {
				if _, dup := msg[mk]; dup {
					raise(L, "w:inject: field %s is given twice", trace.Quote(mk))
				}
				msg[mk] = mt.RawGetString(mk)
			}
		default:
			if _, dup := msg[k]; dup {
				raise(L, "w:inject: field %s is given twice", trace.Quote(k))
			}
			msg[k] = v
		}
	}
	for _, k := range []string{"from", "to", "kind"} {
		if t.RawGetString(k) == lua.LNil {
			raise(L, "w:inject: the key %s is required", k)
		}
	}
	var proto sim.Message
	var kinds []string
	for _, m := range w.spec.Messages {
		kinds = append(kinds, m.Kind())
		if m.Kind() == kind {
			proto = m
		}
	}
	if proto == nil {
		sort.Strings(kinds)
		raise(L, "w:inject: %s has no message kind %s (kinds: %s)", w.spec.Name, trace.Quote(kind), strings.Join(kinds, ", "))
	}
	m, err := w.r.buildMessage(proto, msg)
	if err != nil {
		raise(L, "w:inject: %v", err)
	}
	w.check(L, "w:inject", w.s.Inject(from, to, m))
	return 0
}

func wCommand(w *world, L *lua.LState) int {
	w.command(L, "w:command", w.id(L, 2, "w:command", "id"), 2)
	return 0
}

// command gives process id the command whose name is argument n+1 and
// whose arguments are argument n+2.
func (w *world) command(L *lua.LState, method string, id sim.NodeID, n int) {
	name := arg(L, n+1, method, "name", toString)
	known := make([]string, len(w.spec.Commands))
	found := false
	for i, c := range w.spec.Commands {
		known[i] = c.Name
		found = found || c.Name == name
	}
	if !found {
		raise(L, "%s: %s has no command %s (commands: %s)", method, w.spec.Name, trace.Quote(name), strings.Join(known, ", "))
	}
	args := sim.Args{}
	if v := L.Get(n + 2); v != lua.LNil {
		keys, t, err := fields(v)
		if err != nil {
			raise(L, "%s: args: %v", method, err)
		}
		for _, k := range keys {
			if args[k], err = plainValue(t.RawGetString(k)); err != nil {
				raise(L, "%s: args.%s: %v", method, trace.Truncate(k, trace.MaxQuoted), err)
			}
		}
	}
	if !w.s.Up(id) {
		raise(L, "%s: process %d is crashed", method, id)
	}
	saved := w.cmdLine
	w.cmdLine = w.r.currentLine(L, 0)
	err := w.s.Command(id, name, args)
	w.cmdLine = saved
	if err != nil {
		raise(L, "%s: process %d rejected %s: %v", method, id, name, err)
	}
}

func wNode(w *world, L *lua.LState) int {
	ud := L.NewUserData()
	ud.Value = node{w, w.id(L, 2, "w:node", "id")}
	ud.Metatable = w.r.nodeMT
	L.Push(ud)
	return 1
}

func wNow(w *world, L *lua.LState) int {
	L.Push(lua.LNumber(w.s.Now()))
	return 1
}

// idTable lists the ids keep accepts, a scan of every process charged to
// the script: a loop of w:ids() on a large world is quadratic Go work.
func (w *world) idTable(keep func(sim.NodeID) bool) *lua.LTable {
	w.r.budget.charge(scanCost*int64(len(w.s.IDs())), "listing the processes")
	t := w.r.L.NewTable()
	for _, id := range w.s.IDs() {
		if keep(id) {
			t.Append(lua.LNumber(id))
		}
	}
	return t
}

func wIDs(w *world, L *lua.LState) int {
	L.Push(w.idTable(func(sim.NodeID) bool { return true }))
	return 1
}

func wAlive(w *world, L *lua.LState) int {
	L.Push(w.idTable(w.s.Up))
	return 1
}

func wAgreed(w *world, L *lua.LState) int {
	L.Push(w.r.toLua(w.agreed(arg(L, 2, "w:agreed", "key", toString))))
	return 1
}

func (w *world) stateTable(id sim.NodeID) *lua.LTable {
	kvs := w.s.State(id)
	t := w.r.L.CreateTable(0, len(kvs))
	for _, kv := range kvs {
		t.RawSetString(kv.Key, w.r.toLua(kv.Value))
	}
	return t
}

func wState(w *world, L *lua.LState) int {
	L.Push(w.stateTable(w.id(L, 2, "w:state", "id")))
	return 1
}

func nStable(n node, L *lua.LState) int {
	log := n.w.s.Stable(n.id)
	out := L.CreateTable(len(log), 0)
	for _, r := range log {
		n.w.r.budget.charge(goCallCost, "listing the stable log")
		out.Append(lua.LString(r))
	}
	L.Push(out)
	return 1
}

func nGet(n node, L *lua.LState) int {
	L.Push(n.w.r.toLua(n.w.s.Get(n.id, arg(L, 2, "node:get", "key", toString))))
	return 1
}

func wStats(w *world, L *lua.LState) int {
	// The statistics walk the message kinds and, for the critical-section
	// figures, every process: charged like a scan of the processes.
	w.r.budget.charge(scanCost*int64(len(w.s.IDs())), "gathering the statistics")
	st := w.s.Stats()
	t := L.CreateTable(0, 9)
	t.RawSetString("events", lua.LNumber(st.Events))
	t.RawSetString("time", lua.LNumber(st.Time))
	t.RawSetString("sent", lua.LNumber(st.Sent))
	t.RawSetString("delivered", lua.LNumber(st.Delivered))
	t.RawSetString("dropped", lua.LNumber(st.Dropped))
	byKind := func(get func(sim.KindStats) uint64) *lua.LTable {
		k := L.CreateTable(0, len(st.Kinds))
		for _, ks := range st.Kinds {
			k.RawSetString(ks.Kind, lua.LNumber(get(ks)))
		}
		return k
	}
	t.RawSetString("messages", byKind(func(k sim.KindStats) uint64 { return k.Sent }))
	t.RawSetString("delivered_by_kind", byKind(func(k sim.KindStats) uint64 { return k.Delivered }))
	t.RawSetString("dropped_by_kind", byKind(func(k sim.KindStats) uint64 { return k.Dropped }))
	reasons := make([]string, 0, len(st.DropReasons))
	for r := range st.DropReasons {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	drops := L.CreateTable(0, len(reasons))
	for _, r := range reasons {
		drops.RawSetString(r, lua.LNumber(st.DropReasons[r]))
	}
	t.RawSetString("drops", drops)
	if w.mon != nil && applies(w.spec, mutex.Safety) {
		t.RawSetString("cs", w.csStats(L))
	}
	L.Push(t)
	return 1
}

// filter selects recorded events for w:count and w:events.
func (w *world) filter(L *lua.LState, method string) func(*trace.Event) bool {
	if w.rec == nil {
		raise(L, "%s: this world records no trace (trace=false or tracing is off for the run)", method)
	}
	// A scan of the whole trace is Go work for the script: in a w:when
	// predicate it runs after every event, quadratic in the run's length.
	w.r.budget.charge(scanCost*int64(w.rec.Len()), "scanning the trace in "+method)
	t, keys := settings(L, 2, method, "type", "kind", "node")
	var typ trace.Type
	var kind *string
	node := trace.NoNode
	for _, k := range keys {
		v := t.RawGetString(k)
		switch k {
		case "type":
			name := get(L, v, method, k, toString)
			var ok bool
			if typ, ok = parseType(name, false); !ok {
				raise(L, "%s: unknown event type %s (known: %s)", method, trace.Quote(name), typeList())
			}
		case "kind":
			s := get(L, v, method, k, toString)
			kind = &s
		case "node":
			id := get(L, v, method, k, toID)
			if !w.s.Has(id) {
				raise(L, "%s: node: no process %d (ids: %s)", method, id, w.idList())
			}
			node = int(id)
		}
	}
	return func(e *trace.Event) bool {
		return (typ == 0 || e.Type == typ) && (kind == nil || e.Kind == *kind) && (node == trace.NoNode || e.Node == node)
	}
}

func wCount(w *world, L *lua.LState) int {
	match := w.filter(L, "w:count")
	n := 0
	w.rec.Each(func(e *trace.Event) {
		if match(e) {
			n++
		}
	})
	L.Push(lua.LNumber(n))
	return 1
}

func wEvents(w *world, L *lua.LState) int {
	match := w.filter(L, "w:events")
	t := L.NewTable()
	w.rec.Each(func(e *trace.Event) {
		if match(e) {
			// Each event returned is a Lua table built in Go, a dozen
			// fields: charged as a call more than the scan.
			w.r.budget.charge(goCallCost, "building the events of w:events")
			t.Append(w.r.eventObject(e))
		}
	})
	L.Push(t)
	return 1
}
