package script

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/trace"
)

// wConsistent judges a cut of the world's trace: w:consistent{[id]=seq,
// ...} gives each process a seq, the cut holding its events up to it (-1
// or missing: none), and returns whether it is consistent, the
// messages that cross it backwards and those in flight across it (see
// trace.JudgeCut).
func wConsistent(w *world, L *lua.LState) int {
	const method = "w:consistent"
	if w.rec == nil {
		raise(L, "%s: this world records no trace (trace=false or tracing is off for the run)", method)
	}
	t, ok := L.Get(2).(*lua.LTable)
	if !ok {
		raise(L, "%s: cut: want a table of process id = seq, got %s", method, describe(L.Get(2)))
	}
	cut := trace.Cut{}
	each(t, func(k, v lua.LValue) {
		w.r.budget.charge(goCallCost, "reading the cut of "+method)
		id := get(L, k, method, "cut", toID)
		if !w.s.Has(id) {
			raise(L, "%s: cut: no process %d (ids: %s)", method, id, w.idList())
		}
		seq := get(L, v, method, fmt.Sprintf("cut[%d]", id), toInt)
		if seq < -1 {
			raise(L, "%s: cut[%d]: want a seq (the cut holds process %d's events up to it), or -1 for none, got %d", method, id, id, seq)
		}
		cut[int(id)] = seq
	})
	w.r.budget.charge(scanCost*int64(w.rec.Len()), "scanning the trace in "+method)
	v := trace.JudgeCut(w.rec.Each, cut)
	L.Push(lua.LBool(v.Consistent()))
	L.Push(w.crossings(v.Backward))
	L.Push(w.crossings(v.InFlight))
	return 3
}

// crossings is a Lua list of messages across a cut: {send=, deliver=
// (nil when not delivered), from=, to=, kind=, id=}.
func (w *world) crossings(xs []trace.Crossing) *lua.LTable {
	t := w.r.L.CreateTable(len(xs), 0)
	for _, x := range xs {
		w.r.budget.charge(goCallCost, "listing the messages across a cut")
		m := w.r.L.CreateTable(0, 6)
		m.RawSetString("send", lua.LNumber(x.Send))
		if x.Deliver >= 0 {
			m.RawSetString("deliver", lua.LNumber(x.Deliver))
		}
		m.RawSetString("from", lua.LNumber(x.From))
		m.RawSetString("to", lua.LNumber(x.To))
		m.RawSetString("kind", lua.LString(x.Kind))
		m.RawSetString("id", lua.LNumber(x.MsgID))
		t.Append(m)
	}
	return t
}

// maxVectorEntries bounds the vector entries one w:timestamps table holds.
const maxVectorEntries = 1_000_000

// wTimestamps lists the Lamport and vector timestamps of the recorded
// events a filter selects, computed from the trace (trace.Stamper).
func wTimestamps(w *world, L *lua.LState) int {
	const method = "w:timestamps"
	match := w.filter(L, method)
	ids := w.s.IDs()
	pos := make(map[int]int, len(ids))
	for k, id := range ids {
		pos[int(id)] = k
	}
	// A vector per event of a large world would be a table of tables of
	// millions of entries: past that, Lamport timestamps only.
	vector := int64(len(ids))*int64(w.rec.Len()) <= maxVectorEntries
	st := trace.NewStamper(len(ids), vector)
	out := L.NewTable()
	w.rec.Each(func(e *trace.Event) {
		p, ok := pos[e.Node]
		if !ok {
			p = -1
		}
		l, v, ok := st.Stamp(e, p)
		if !ok {
			return
		}
		if seq, ok := st.Absorbed(); ok && out.Len() > 0 && out.RawGetInt(out.Len()).(*lua.LTable).RawGetString("seq") == lua.LNumber(seq) {
			// its send stands for it: it was no event of its own
			out.Remove(out.Len())
		}
		if !match(e) {
			return
		}
		w.r.budget.charge(goCallCost, "building the timestamps of "+method)
		row := L.CreateTable(0, 5)
		row.RawSetString("seq", lua.LNumber(e.Seq))
		row.RawSetString("node", lua.LNumber(e.Node))
		row.RawSetString("type", lua.LString(e.Type.String()))
		row.RawSetString("lamport", lua.LNumber(l))
		if v != nil {
			vt := L.CreateTable(len(v), 0)
			for _, x := range v {
				vt.Append(lua.LNumber(x))
			}
			row.RawSetString("vector", vt)
		}
		out.Append(row)
	})
	L.Push(out)
	return 1
}
