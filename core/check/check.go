// Package check judges the properties algorithms promise and measures
// their costs, from the trace events of a run. A Monitor is fed every event
// as it happens (it is a sim.Observer), so it needs no recorded trace and
// works the same with tracing off.
//
// Safety properties are judged at every event and the first violation is
// kept with the event (t, seq) where it happened; liveness is judged at the
// end, when the caller asks.
package check

import (
	"fmt"
	"strings"

	"dsim/core/trace"
)

// property is one property a Monitor can judge.
type property struct {
	name, doc string
	judge     func(m *Monitor, now int64) (bool, string)
}

// properties are the ones check has a checker for, in the order they are
// reported.
var properties = []property{
	{MutexSafety, "at most one process has cs=\"held\" at every event; a crash ends that process's critical section", (*Monitor).safety},
	{MutexLiveness, "at the end, every live process that has not crashed since making its request has cs other than \"wanted\" and an empty backlog", (*Monitor).liveness},
	{MutexOrdering, "critical-section entries happen in increasing (req_ts, id) order, req_ts being the entering process's state value set when it made the request", (*Monitor).ordering},
}

// The property names, as algorithms declare them (the same strings as
// core/algo/mutex's, which check does not import: it reads traces only).
const (
	MutexSafety   = "mutex.safety"
	MutexLiveness = "mutex.liveness"
	MutexOrdering = "mutex.ordering"
)

// Property documents one property check knows.
type Property struct{ Name, Doc string }

// Properties lists the properties check has a checker for.
func Properties() []Property {
	out := make([]Property, len(properties))
	for i, p := range properties {
		out[i] = Property{p.name, p.doc}
	}
	return out
}

// Known reports whether check has a checker for the property.
func Known(name string) bool { return find(name) != nil }

// Names lists the known property names, for error messages.
func Names() string {
	names := make([]string, len(properties))
	for i, p := range properties {
		names[i] = p.name
	}
	return strings.Join(names, ", ")
}

func find(name string) *property {
	for i := range properties {
		if properties[i].name == name {
			return &properties[i]
		}
	}
	return nil
}

// Monitor watches one run. The zero value is not ready: use New.
type Monitor struct {
	mutex mutexState
}

// New returns a monitor of a run that has not started yet.
func New() *Monitor {
	return &Monitor{mutex: mutexState{procs: map[int]*proc{}}}
}

// Observe takes the next event of the run. Its signature is sim.Observer's.
func (m *Monitor) Observe(e *trace.Event) { m.mutex.observe(e) }

// Verdict is the outcome of one property.
type Verdict struct {
	Property string
	Pass     bool
	// Text says what held, or what went wrong and where: it starts with
	// the property's name.
	Text string
}

// Check judges the property as of virtual time now (the end of the run for
// liveness). It fails only for a property check has no checker for.
func (m *Monitor) Check(name string, now int64) (Verdict, error) {
	p := find(name)
	if p == nil {
		return Verdict{}, fmt.Errorf("no checker for %s (known: %s)", trace.Quote(name), Names())
	}
	ok, text := p.judge(m, now)
	return Verdict{Property: name, Pass: ok, Text: name + ": " + text}, nil
}
