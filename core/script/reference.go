package script

import (
	"fmt"
	"reflect"
	"strings"

	"dsim/core/algo"
	"dsim/core/check"
	"dsim/core/sim"
	"dsim/core/topo"
	"dsim/core/trace"
)

// Reference renders the Markdown reference of the Lua API from the tables
// that also register it (globals, world keys, methods, event fields) and
// from the algorithm registry.
func Reference() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	p("# dsim scenario API\n\n")
	p("A scenario is a Lua 5.1 file. It builds worlds with `sim.world{...}`, schedules faults and commands, runs them, and checks the outcome with `expect`. Every error names the script file and line: `FILE:LINE: message`.\n\n")

	p("## Sandbox\n\n")
	libs := make([]string, len(libraries))
	for i, l := range libraries {
		libs[i] = "`" + l.name + "`"
	}
	libs[0] = "the base library"
	p("Scenarios get %s. There is no `io`, `os`, `debug`, `coroutine` or `package`, and these are removed: %s.\n\n", strings.Join(libs, ", "), codeList(removed))
	p("Replaced for determinism and safety:\n\n")
	for _, f := range replaced {
		p("- `%s`: %s.\n", f.name, f.doc)
	}
	p("\n### Limits\n\n")
	p("Every run has budgets, so a script nobody checked cannot take the host down; each ends the script with one error at the line being run, and pcall cannot catch it.\n\n")
	p("- **Instructions.** The budget counts Lua instructions, not time, so it stops at the same place on every platform. Work done in Go for the script counts too: a hook, callback or `w:when` predicate called from Go, or a table or function named by `tostring`, costs %d instructions, a call of a Go function from Lua (a library function, `pcall`, the API) %d, each recorded event `w:count` or `w:events` scans %d, %d step of a pattern match 1, and every %d bytes (or table slots) a library function compares, copies or walks (long strings, big tables, caught errors) 1.\n", callbackCost, goCallCost, scanCost, stepsPerCost, bytesPerCost)
	p("- **Memory.** A run may hold its memory budget: Lua values, the worlds' pending events and callbacks, and the traces. Every world is kept until the script ends, so `sim.world` refuses a world whose estimate, with those of the worlds built before it, passes the budget. The error says what holds it, e.g. `memory budget of 384 MiB exceeded: the run holds 390 MiB (traces: 0 events; pending events: 2569012; the rest is the processes' state and Lua values)`. The world key `memory` raises or lowers the budget for the rest of the run, up to the host's ceiling; `dsim run --memory MiB` sets it for a run. The process itself stays within about one and a half times the budget plus 64 MiB.\n")
	p("- **Output.** What `print`, `log` and `report` write and the `expect` messages count together up to %d MiB, or a quarter of the memory budget when that is less; the call that would pass the limit stops the script, and everything written before it stays. `report` cuts a cell at %d bytes, with `...`. The texts a trace records for a script's values (a command's arguments, a partition's groups) quote at most %d bytes of a string and %d ids of a list.\n", maxOutput>>20, maxCell, trace.MaxQuoted, trace.MaxListed)
	p("- **Strings.** No string is longer than %d MiB, whether made by `..`, `string.rep`, `gsub`, `format`, `table.concat` or any other function: the error comes before the string is built.\n", MaxString>>20)
	p("- **Events.** A world runs at most its `max_events`; 0 means the host's ceiling. Events that keep coming at one instant without the clock moving (more than 2^18, or 8n² for n processes) stop the run as a livelock. The state lists processes publish (a queue, the requests deferred) count too: once the values they copy pass %d per event of the ceiling, the run stops at the work limit, which a note reports.\n", sim.WorkPerEvent)
	p("- **Nesting.** Statements and expressions nest at most %d levels deep, as in Lua 5.1, checked before the script runs.\n", maxNesting)
	p("- **Numbers.** Wherever a library function needs an integer, a number is truncated toward zero; NaN, the infinities and numbers outside [-2^63, 2^63) are an error, `number has no integer representation`. The same script prints the same on every platform.\n\n")
	p("| host | instructions | memory | memory ceiling | events ceiling |\n| --- | --- | --- | --- | --- |\n")
	for _, h := range []struct {
		name string
		l    Limits
	}{{"CLI (`dsim run`, `dsim check`)", CLI}, {"playground", Page}, {"Worker", Worker}} {
		p("| %s | %d | %d MiB | %d MiB | %d |\n", h.name, h.l.Instructions, h.l.Memory>>20, h.l.MaxMemory>>20, h.l.MaxEvents)
	}
	p("\n")

	p("## Globals\n\n")
	for _, e := range globals {
		entryDoc(&b, e.name, e.args, e.ret, e.doc)
	}
	for _, v := range values {
		p("### `%s`\n\n%s\n\n", v.name, v.doc)
	}

	p("## World keys\n\nThe keys of `sim.world{...}`:\n\n| key | default | meaning |\n| --- | --- | --- |\n")
	for _, k := range worldKeys {
		p("| `%s` | %s | %s |\n", k.name, cell(k.def), cell(k.doc))
	}
	p("\n### Topologies\n\n| topology | shape |\n| --- | --- |\n")
	for _, k := range topo.Kinds {
		p("| `%s` | %s |\n", k.Name, cell(k.Doc))
	}
	p("\n### Latency distributions\n\nA number is a constant latency. A distribution is a list whose first element names it (%s):\n\n", distNames())
	for k := sim.Constant; k <= sim.Pareto; k++ {
		p("- %s\n", distDocs[k])
	}
	p("\n")

	p("## World methods\n\n")
	for _, e := range worldMethods {
		entryDoc(&b, "w:"+e.name, e.args, e.ret, e.doc)
	}
	p("## Node methods\n\n`w:node(id)` returns a node:\n\n")
	for _, e := range nodeMethods {
		entryDoc(&b, "node:"+e.name, e.args, e.ret, e.doc)
	}

	p("## Hook events\n\n`w:on(type, fn)` and `w:events{...}` give events as read-only objects that read like tables: `ev.kind`, `ev.msg.id` (a message reads the same way, its fields named as in the trace; lists are tables), `pairs(ev)`, `print(ev)`. Absent fields are nil. The types: %s.\n\n", typeList())
	p("| field | events | meaning |\n| --- | --- | --- |\n")
	for _, f := range eventFields {
		p("| `%s` | %s | %s |\n", f.name, typeNames(f.types), cell(f.doc))
	}
	p("\n")

	checksDoc(&b)

	p("## Algorithms\n\n")
	specs := algo.All()
	if len(specs) == 0 {
		p("No algorithm is registered in this build.\n")
	}
	for _, s := range specs {
		algorithmDoc(&b, s)
	}
	return b.String()
}

func entryDoc(b *strings.Builder, name, args, ret, doc string) {
	fmt.Fprintf(b, "### `%s%s`", name, args)
	if ret != "" {
		fmt.Fprintf(b, " → %s", ret)
	}
	fmt.Fprintf(b, "\n\n%s\n\n", doc)
}

func algorithmDoc(b *strings.Builder, s *algo.Spec) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	// A Description's lines are paragraphs; Markdown needs a blank line
	// between them or it runs them together.
	p("### `%s`\n\n%s\n\n%s\n\n", s.Name, s.Summary, strings.ReplaceAll(strings.TrimSpace(s.Description), "\n", "\n\n"))
	if s.Topology != "" {
		p("Default topology: `%s`.\n\n", s.Topology)
	}
	p("Assumes (a world outside them warns, once per kind):\n\n")
	for _, l := range s.Assumptions.Lines() {
		p("- %s\n", l)
	}
	p("\n")
	if len(s.Config) > 0 {
		p("| config | type | default | range | meaning |\n| --- | --- | --- | --- | --- |\n")
		for _, c := range s.Config {
			rng := ""
			if c.Min != c.Max {
				rng = fmt.Sprintf("%g .. %g", c.Min, c.Max)
			}
			p("| `%s` | %s | `%s` | %s | %s |\n", c.Name, c.Type, trace.AppendJSON(nil, c.Default), rng, cell(c.Doc))
		}
		p("\n")
	}
	if len(s.Commands) > 0 {
		p("| command | args | meaning |\n| --- | --- | --- |\n")
		for _, c := range s.Commands {
			args := ""
			if c.Args != "" {
				args = "`" + cell(c.Args) + "`"
			}
			p("| `%s` | %s | %s |\n", c.Name, args, cell(c.Doc))
		}
		p("\n")
	}
	if len(s.State) > 0 {
		p("| state | meaning |\n| --- | --- |\n")
		for _, k := range s.State {
			p("| `%s` | %s |\n", k.Key, cell(k.Doc))
		}
		p("\n")
	}
	if len(s.Messages) > 0 {
		p("| message | fields |\n| --- | --- |\n")
		for _, m := range s.Messages {
			p("| `%s` | %s |\n", m.Kind(), messageFields(reflect.TypeOf(m)))
		}
		p("\n")
	}
	if len(s.Properties) > 0 {
		p("Properties: %s.\n\n", codeList(algo.PropertyNames(s.Properties)))
	}
}

func messageFields(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return "none"
	}
	var out []string
	for _, f := range trace.Fields(t) {
		out = append(out, "`"+f.Name+"` "+typeName(t.Field(f.Index).Type))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

func typeNames(s typeSet) string {
	if s == anyType {
		return "all"
	}
	var out []string
	for _, t := range trace.Types() {
		if s.has(t) {
			out = append(out, t.String())
		}
	}
	return strings.Join(out, ", ")
}

func codeList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return strings.Join(out, ", ")
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

func checksDoc(b *strings.Builder) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("## Checks and costs\n\n")
	p("A world watches the properties below when its algorithm declares them (see *Properties* under each algorithm) or its `checks` key names them. At the end of the script (also one stopped by an error) it records one check per property, pass or fail, in its trace and in the results, as `expect` does, at the line of its `sim.world` call; `checks = {...}` picks which, `checks = {}` none. `w:check(name)` judges one at any time without recording it. Safety properties hold at every event: a violation names the event (t, seq) and the processes. Liveness and the election properties, which hold once the election is over, are judged when asked (at the end for the recorded check).\n\n")
	p("| property | meaning | state read |\n| --- | --- | --- |\n")
	for _, c := range check.Checkers() {
		p("| `%s` | %s | %s |\n", c.Property, cell(c.Property.Doc()), codeList(c.Reads))
	}
	p("\n`w:stats().cs` holds a mutual exclusion world's costs so far; times are true virtual times, and a mean of no samples is nil:\n\n")
	p("| field | meaning |\n| --- | --- |\n")
	for _, m := range csMetrics {
		p("| `%s` | %s |\n", m.name, cell(m.doc))
	}
	p("\n`w:workload{rate=, cs=, until_time=}` makes every process request the critical section at Poisson times (see *World methods*).\n\n")
}
