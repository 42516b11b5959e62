package script

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/sim"
)

// The scenario's side of the processes' physical clocks: it sees true time
// and every process's clock, corrects them as a process would, and reads
// back their corrections and their errors over time.

// maxClockCells bounds the cells of one w:clock_errors table (samples
// times processes).
const maxClockCells = 100_000

func wStepClock(w *world, L *lua.LState) int {
	id := w.id(L, 2, "w:step_clock", "id")
	to := arg(L, 3, "w:step_clock", "to", toInt)
	w.check(L, "w:step_clock", w.s.StepClock(id, sim.Time(to)))
	return 0
}

func wSlewClock(w *world, L *lua.LState) int {
	id := w.id(L, 2, "w:slew_clock", "id")
	delta := arg(L, 3, "w:slew_clock", "delta", toInt)
	over := arg(L, 4, "w:slew_clock", "over", toInt)
	w.check(L, "w:slew_clock", w.s.SlewClock(id, sim.Duration(delta), sim.Duration(over)))
	return 0
}

// nCorrections lists a process's steps and slews, oldest first.
func nCorrections(n node, L *lua.LState) int {
	changes, err := n.w.s.ClockChanges(n.id)
	n.w.check(L, "node:corrections", err)
	out := L.NewTable()
	for _, c := range changes {
		if c.Mode == sim.ClockSet {
			continue
		}
		n.w.r.budget.charge(goCallCost, "listing the corrections")
		row := L.NewTable()
		row.RawSetString("t", lua.LNumber(c.T))
		row.RawSetString("mode", lua.LString(c.Mode.String()))
		row.RawSetString("old", lua.LNumber(c.Old))
		row.RawSetString("new", lua.LNumber(c.New))
		row.RawSetString("delta", lua.LNumber(c.Delta))
		if c.Mode == sim.ClockSlew {
			row.RawSetString("over", lua.LNumber(c.Over))
		}
		out.Append(row)
	}
	L.Push(out)
	return 1
}

// wClockErrors samples every process's clock error, its reading minus true
// time, every `every` ticks: one row per sample, {t=T, P1=error, ...},
// ready for report.
func wClockErrors(w *world, L *lua.LState) int {
	const method = "w:clock_errors"
	t, _ := settings(L, 2, method, "every", "from", "to", "nodes")
	every := int64(0)
	if v := t.RawGetString("every"); v != lua.LNil {
		every = get(L, v, method, "every", toInt)
	}
	if every <= 0 {
		raise(L, "%s: every: want a positive number of ticks", method)
	}
	from, to := int64(w.s.ClockHistoryFrom()), int64(w.s.Now())
	if v := t.RawGetString("from"); v != lua.LNil {
		from = get(L, v, method, "from", toNonNegative)
	}
	if v := t.RawGetString("to"); v != lua.LNil {
		to = get(L, v, method, "to", toNonNegative)
	}
	if to > int64(w.s.Now()) {
		raise(L, "%s: to: time %d is in the future (now is %d)", method, to, w.s.Now())
	}
	nodes := w.nodesOption(L, t, method)
	samples := int64(0)
	if to >= from {
		samples = (to-from)/every + 1
	}
	if samples*int64(len(nodes)) > maxClockCells {
		raise(L, "%s: %d samples of %d processes are more than %d values: sample less often or fewer nodes", method, samples, len(nodes), maxClockCells)
	}
	names := make([]string, len(nodes))
	for k, id := range nodes {
		names[k] = fmt.Sprintf("P%d", id)
	}
	out := L.NewTable()
	for s := from; s <= to; s += every {
		w.r.budget.charge(scanCost*int64(len(nodes)+1), "sampling the clocks")
		row := L.NewTable()
		row.RawSetString("t", lua.LNumber(s))
		for k, id := range nodes {
			if c, ok := w.s.LocalAt(id, sim.Time(s)); ok {
				row.RawSetString(names[k], lua.LNumber(c-sim.Time(s)))
			}
		}
		out.Append(row)
	}
	L.Push(out)
	return 1
}
