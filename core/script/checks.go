package script

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/algo"
	"dsim/core/check"
	"dsim/core/sim"
	"dsim/core/trace"
)

// The properties of core/check as scenarios meet them: recorded at the end
// of the script for every world, asked for with w:check, and the costs in
// w:stats().cs; plus the request workload that exercises them.

// worldChecks picks the properties a world records at the end: those of
// the `checks` key, or else those its algorithm declares (each has a
// checker: core/check's tests hold every registered algorithm to that).
func worldChecks(spec *algo.Spec, c worldConf) ([]string, error) {
	if !c.checksSet {
		return algo.PropertyNames(spec.Properties), nil
	}
	for i, p := range c.checks {
		if !check.Known(p) {
			return nil, fmt.Errorf("checks: no checker for %s (known: %s)", trace.Quote(p), check.Names())
		}
		if !applies(spec, p) {
			return nil, fmt.Errorf("checks: %s does not apply to %s, which declares %s", trace.Quote(p), spec.Name, declared(spec))
		}
		if slices.Contains(c.checks[:i], p) {
			return nil, fmt.Errorf("checks: %s is listed twice", trace.Quote(p))
		}
	}
	return c.checks, nil
}

// applies reports whether a property fits an algorithm: the algorithm
// declares a property of the same family (mutex.ordering fits every
// algorithm declaring mutex.safety, whether or not it promises ordering).
func applies(spec *algo.Spec, property string) bool {
	fam := algo.Property(property).Family()
	return slices.ContainsFunc(spec.Properties, func(p algo.Property) bool { return p.Family() == fam })
}

func declared(spec *algo.Spec) string {
	if len(spec.Properties) == 0 {
		return "no properties"
	}
	return strings.Join(algo.PropertyNames(spec.Properties), ", ")
}

// verdict judges a property of the world now.
func (w *world) verdict(name string) (check.Verdict, error) {
	if w.mon == nil {
		return check.Verdict{}, fmt.Errorf("%s declares no property, so nothing watched this world (known: %s)", w.spec.Name, check.Names())
	}
	if check.Known(name) && !applies(w.spec, name) {
		return check.Verdict{}, fmt.Errorf("%s does not apply to %s, which declares %s", trace.Quote(name), w.spec.Name, declared(w.spec))
	}
	return w.mon.Check(name, int64(w.s.Now()))
}

func wCheck(w *world, L *lua.LState) int {
	v, err := w.verdict(arg(L, 2, "w:check", "name", toString))
	if err != nil {
		raise(L, "w:check: %v", err)
	}
	L.Push(lua.LBool(v.Pass))
	L.Push(lua.LString(v.Text))
	return 2
}

// recordChecks records every world's properties as checks, at the end of
// the script (also one that stopped on an error). Hooks do not see these
// events: the script is over.
func (r *runner) recordChecks() {
	for _, w := range r.worlds {
		w.hooked = 0
		for _, p := range w.props {
			v, err := w.verdict(p)
			if err != nil {
				panic(err) // props were checked when the world was built
			}
			c := Check{World: w.index, Line: w.line, Text: v.Text, Pass: v.Pass, Property: p, At: v.At}
			c.Seq = w.emit(trace.Event{Type: trace.Check, Node: trace.NoNode, Text: c.Text, Pass: c.Pass, Line: c.Line})
			r.checks = append(r.checks, c)
		}
	}
}

// csMetrics are the fields of w:stats().cs; the same table fills them and
// documents them in the reference.
var csMetrics = []struct {
	name, doc string
	get       func(c check.Costs, L *lua.LState) lua.LValue
}{
	{"requests", "requests made: times a process's `cs` became `\"wanted\"`. A request made while the process is waiting or in the critical section waits in its backlog and counts when its turn comes", func(c check.Costs, _ *lua.LState) lua.LValue { return lua.LNumber(c.Requests) }},
	{"entries", "critical-section entries: times a process's `cs` became `\"held\"`", func(c check.Costs, _ *lua.LState) lua.LValue { return lua.LNumber(c.Entries) }},
	{"messages", "messages sent in the whole run, of every kind (an idle token's rounds and another layer's messages included)", func(c check.Costs, _ *lua.LState) lua.LValue { return lua.LNumber(c.Messages) }},
	{"per_entry", "messages / entries", func(c check.Costs, _ *lua.LState) lua.LValue { return ratio(c.PerEntry(c.Messages)) }},
	{"by_kind", "`{KIND = messages of that kind sent / entries}`", func(c check.Costs, L *lua.LState) lua.LValue {
		t := L.CreateTable(0, len(c.ByKind))
		for _, k := range c.ByKind {
			t.RawSetString(k.Kind, ratio(c.PerEntry(k.Sent)))
		}
		return t
	}},
	{"sync_delay", "synchronization delay: the mean time from a process leaving the critical section to the next entry, over the entries whose process was already waiting when the other left (a holder's crash is not a leaving)", func(c check.Costs, _ *lua.LState) lua.LValue { return ratio(c.SyncDelay) }},
	{"response", "response time: the mean time from a request to leaving the critical section (waiting plus the time in it), over the requests that left it", func(c check.Costs, _ *lua.LState) lua.LValue { return ratio(c.Response) }},
	{"waiting", "the mean time from a request to entering the critical section", func(c check.Costs, _ *lua.LState) lua.LValue { return ratio(c.Waiting) }},
	{"throughput", "entries per 1000 ticks, over the span from the first request to the last exit", func(c check.Costs, _ *lua.LState) lua.LValue { return ratio(c.Throughput) }},
}

// ratio is an exact ratio as a Lua number (one IEEE division, the same on
// every platform), nil when it is a mean of no samples.
func ratio(x check.Ratio) lua.LValue {
	if !x.Defined() {
		return lua.LNil
	}
	return lua.LNumber(x.Float())
}

// csStats is w:stats().cs: the mutual exclusion costs so far.
func (w *world) csStats(L *lua.LState) *lua.LTable {
	c := w.mon.Costs()
	t := L.CreateTable(0, len(csMetrics))
	for _, m := range csMetrics {
		t.RawSetString(m.name, m.get(c, L))
	}
	return t
}

// csDoc documents w:stats().cs in the reference.
const csDoc = " Mutual exclusion worlds also have `cs`, their costs so far (see *Checks and costs*)."

// maxRate bounds w:workload's rate: more requests per tick than this only
// fill backlogs.
const maxRate = 1000

// maxWorkload bounds the requests one w:workload call may ask for: a tenth
// of the default event limit, as each request costs several events.
const maxWorkload = 1_000_000

// arrivals are one process's requests of a workload: Poisson times, each
// drawn when the previous request is made.
type arrivals struct {
	w     *world
	id    sim.NodeID
	rng   *rand.Rand
	at    float64 // the last arrival time, unrounded
	mean  float64 // ticks between requests
	until sim.Time
	cs    int
	line  int
}

func (a *arrivals) next() {
	a.at += sim.Exp(a.rng, a.mean)
	if t := sim.Time(a.at); t < a.until {
		a.w.s.At(t, a.fire)
	}
}

func (a *arrivals) fire() {
	w := a.w
	if w.r.fatal != nil {
		return
	}
	if !w.s.Up(a.id) {
		w.emit(trace.Event{Type: trace.Log, Node: trace.NoNode, Line: a.line,
			Text: fmt.Sprintf("workload: process %d is down, its request is skipped", a.id)})
	} else {
		saved := w.cmdLine
		w.cmdLine = a.line
		err := w.s.Command(a.id, "request", sim.Args{"duration": a.cs})
		w.cmdLine = saved
		if err != nil {
			w.r.fail(&Error{File: w.r.name, Line: a.line, Msg: fmt.Sprintf("w:workload: process %d rejected the request at t=%d: %v", a.id, w.s.Now(), err)})
			w.s.Stop()
			return
		}
	}
	a.next()
}

func wWorkload(w *world, L *lua.LState) int {
	const method = "w:workload"
	t, _ := settings(L, 2, method, "rate", "cs", "until_time", "nodes", "start")
	need := func(k string) lua.LValue {
		v := t.RawGetString(k)
		if v == lua.LNil {
			raise(L, "%s: the key %s is required", method, k)
		}
		return v
	}
	if !slices.ContainsFunc(w.spec.Commands, func(c algo.CommandSpec) bool { return c.Name == "request" }) {
		raise(L, "%s: %s has no request command", method, w.spec.Name)
	}
	rate := get(L, need("rate"), method, "rate", toNumber)
	if !(rate > 0 && rate <= maxRate) {
		raise(L, "%s: rate: want requests per tick per process, more than 0 and at most %d, got %g", method, maxRate, rate)
	}
	cs := get(L, need("cs"), method, "cs", toNonNegative)
	if cs < 1 {
		raise(L, "%s: cs: want the ticks each request holds the critical section, at least 1, got %d", method, cs)
	}
	start := w.s.Now()
	if v := t.RawGetString("start"); v != lua.LNil {
		if start = sim.Time(get(L, v, method, "start", toNonNegative)); start < w.s.Now() {
			raise(L, "%s: start: time %d is in the past (now is %d)", method, start, w.s.Now())
		}
	}
	until := sim.Time(get(L, need("until_time"), method, "until_time", toNonNegative))
	if until <= start {
		raise(L, "%s: until_time %d is not after the start %d", method, until, start)
	}
	nodes := w.nodesOption(L, t, method)
	// Every request costs a few events: a workload asking for more than a
	// run's event limit could serve only grows backlogs until memory runs out.
	if expect := rate * float64(until-start) * float64(len(nodes)); expect > maxWorkload {
		raise(L, "%s: rate %g for %d ticks on %d processes asks for about %.0f requests, more than the %d a run can serve; lower rate, until_time or nodes",
			method, rate, until-start, len(nodes), expect, maxWorkload)
	}
	w.workloads++
	line := w.r.currentLine(L, 0)
	for k, id := range nodes {
		a := &arrivals{
			w: w, id: id, at: float64(start), mean: 1 / rate, until: until, cs: int(cs), line: line,
			rng: sim.Stream(w.header.Seed, "workload", uint64(w.workloads)<<32|uint64(k)),
		}
		a.next()
	}
	return 0
}
