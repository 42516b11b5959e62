//go:build js && wasm

package main

import (
	"errors"
	"strconv"
	"syscall/js"

	"dsim/core/script"
	"dsim/wasm/overview"
	"dsim/wasm/replay"
	"dsim/wasm/series"
)

// EngineHandlers receive what the engine reports. They run on the page's
// thread, between browser events.
type EngineHandlers struct {
	Ready    func()                               // a worker has started its engine (after NewEngine, and after each Stop)
	Progress func(id int, events uint64, t int64) // during a long run, every script.ProgressEvery events
	Result   func(RunResult)                      // once per run that was not stopped
}

// Engine is the page's handle on the engine worker (site/worker.js). One run
// at a time: a new run or Stop ends the one in progress.
type Engine struct {
	h       EngineHandlers
	worker  js.Value
	onMsg   js.Func
	next    int
	running int // id of the run in progress, 0 when idle
	pending RunRequest
	// done is the id of the last run that finished: the worker holds its
	// trace until the next run. asked holds the callbacks of the trace
	// requests it has not answered, by request number.
	done  int
	asks  int
	asked map[int]func(answer js.Value, err error)
}

// answerFn gets the answer to a window request: the text and the window's
// span, or why there is none.
type answerFn func(data string, win span, err error)

// span is a window's bounds, positions in its world ([from, to)), and the
// time of the run where it starts.
type span struct {
	from, to int
	start    int64
}

// NewEngine starts the engine worker.
func NewEngine(h EngineHandlers) *Engine {
	e := &Engine{h: h}
	e.onMsg = callback(func(this js.Value, args []js.Value) any {
		e.receive(args[0].Get("data"))
		return nil
	})
	e.spawn()
	return e
}

// spawn starts a worker. It reuses the module the page compiled (boot.js
// puts it in globalThis.dsimModule), so a respawn after Stop costs an
// instantiation, not a download and a compilation.
func (e *Engine) spawn() {
	e.worker = js.Global().Get("Worker").New("worker.js")
	e.worker.Call("addEventListener", "message", e.onMsg)
	e.worker.Call("postMessage", map[string]any{"op": "init", "module": js.Global().Get("dsimModule")})
}

// Run starts a run and returns its id, which Progress and Result report.
// Seeds above 2^53 lose precision on the way through JavaScript.
func (e *Engine) Run(req RunRequest) int {
	if e.running != 0 {
		e.Stop()
	}
	e.next++
	e.running, e.pending, e.done = e.next, req, 0
	e.worker.Call("postMessage", map[string]any{
		"op": "run", "id": e.running, "name": req.Name, "src": req.Src,
		"seed": float64(req.Seed), "seedSet": req.SeedSet,
	})
	return e.running
}

// Trace asks the worker for world (a 0-based index; -1: every world) of
// the last finished run, in format ("jsonl" or "shiviz"); fn gets the text
// or why there is none. A new run or Stop makes the answer an error.
func (e *Engine) Trace(world int, format string, fn func(data string, err error)) {
	e.ask(map[string]any{"world": world, "format": format}, func(m js.Value, err error) {
		if err != nil {
			fn("", err)
			return
		}
		fn(bytesOr(m.Get("data")), nil)
	})
}

// Window asks the worker for a window of world: at most count events
// naming at most procs processes, lying as how ("after", "before",
// "around") says with respect to position at, as the JSONL of one world
// that starts with the earlier events its processes' state comes from (see
// package dsim/wasm/window); fn gets it with its bounds.
func (e *Engine) Window(world, at, count, procs int, how string, fn answerFn) {
	e.ask(map[string]any{"world": world, "window": true, "at": at, "count": count, "procs": procs, "how": how}, func(m js.Value, err error) {
		if err != nil {
			fn("", span{}, err)
			return
		}
		var win span
		if f, t, s := m.Get("from"), m.Get("to"), m.Get("start"); f.Type() == js.TypeNumber && t.Type() == js.TypeNumber && s.Type() == js.TypeNumber {
			win = span{f.Int(), t.Int(), int64(s.Float())}
		}
		fn(bytesOr(m.Get("data")), win, nil)
	})
}

// Overview asks the worker for the overview grid of a whole world (see
// package dsim/wasm/overview): its events counted in at most bands bands
// of processes, in the header's order, and cols columns of time from 0 to
// its end.
func (e *Engine) Overview(world, bands, cols int, fn func(*overview.Grid, error)) {
	e.ask(map[string]any{"world": world, "overview": true, "bands": bands, "cols": cols}, func(m js.Value, err error) {
		if err != nil {
			fn(nil, err)
			return
		}
		g, err := gridOf(m)
		fn(g, err)
	})
}

// Chart asks the worker for the chart of a whole world in cols columns (see
// package dsim/wasm/series): of state key key, or of its clocks' errors for
// key ""; fn gets nil when no event has a value (every clock read true
// time).
func (e *Engine) Chart(world int, key string, cols int, fn func(*series.Chart, error)) {
	e.ask(map[string]any{"world": world, "chart": true, "key": key, "cols": cols}, func(m js.Value, err error) {
		if err != nil || m.Get("empty").Truthy() {
			fn(nil, err)
			return
		}
		ch, err := chartOf(m)
		fn(ch, err)
	})
}

// Find asks the worker for the position of the first event of world that
// f selects from position from on (forward), or of the last before it;
// fn gets -1 when there is none.
func (e *Engine) Find(world int, f replay.Filter, from int, forward bool, fn func(at int, err error)) {
	typ := ""
	if f.Type != 0 {
		typ = f.Type.String()
	}
	e.ask(map[string]any{"world": world, "find": true, "from": from, "forward": forward, "node": f.Node, "type": typ, "kind": f.Kind, "text": f.Text}, func(m js.Value, err error) {
		if err == nil && m.Get("at").Type() != js.TypeNumber {
			err = errors.New("the engine sent a malformed search answer")
		}
		if err != nil {
			fn(-1, err)
			return
		}
		fn(m.Get("at").Int(), nil)
	})
}

// ask posts a trace request m, which gets its op, number and run id here;
// fn gets the answer message.
func (e *Engine) ask(m map[string]any, fn func(js.Value, error)) {
	if e.done == 0 || e.running != 0 {
		fn(js.Undefined(), errors.New("no finished run to read"))
		return
	}
	if e.asked == nil {
		e.asked = map[int]func(js.Value, error){}
	}
	e.asks++
	e.asked[e.asks] = fn
	m["op"], m["ask"], m["id"] = "trace", e.asks, e.done
	e.worker.Call("postMessage", m)
}

// answer hands a trace answer to the callback that asked for it.
func (e *Engine) answer(m js.Value) {
	ask := m.Get("ask").Int()
	fn := e.asked[ask]
	delete(e.asked, ask)
	if fn == nil {
		return
	}
	if msg := m.Get("error"); msg.Type() == js.TypeString {
		fn(m, errors.New(msg.String()))
		return
	}
	fn(m, nil)
}

// dropAsks fails the trace requests a new worker will never answer.
func (e *Engine) dropAsks() {
	asked := e.asked
	e.asked = nil
	for _, fn := range asked {
		fn(js.Undefined(), errors.New("the run was replaced"))
	}
}

// Stop ends the run in progress at once: the worker is terminated, which
// needs no cooperation from a busy engine, and a fresh one takes its place.
func (e *Engine) Stop() {
	if e.running == 0 {
		return
	}
	e.running = 0
	e.worker.Call("terminate")
	e.spawn()
	e.done = 0
	e.dropAsks()
}

// Busy reports whether a run is in progress.
func (e *Engine) Busy() bool { return e.running != 0 }

func (e *Engine) receive(m js.Value) {
	if m.Get("op").String() == "ready" {
		if e.h.Ready != nil {
			e.h.Ready()
		}
		return
	}
	if m.Get("op").String() == "trace" {
		e.answer(m)
		return
	}
	id := m.Get("id")
	if id.Type() != js.TypeNumber || id.Int() != e.running {
		return // a message about a run that was stopped or replaced
	}
	switch m.Get("op").String() {
	case "progress":
		if e.h.Progress != nil {
			e.h.Progress(e.running, uint64(m.Get("events").Float()), int64(m.Get("time").Float()))
		}
	case "result":
		e.running, e.done = 0, e.running
		e.deliver(resultOf(m))
	case "fatal":
		// The engine died (the Go runtime exited): report it as an error
		// of this run and start a fresh worker for the next one.
		e.running, e.done = 0, 0
		e.worker.Call("terminate")
		e.spawn()
		e.dropAsks()
		e.deliver(RunResult{ID: id.Int(), Err: &script.Error{File: e.pending.Name, Line: 1, Msg: "the engine failed: " + m.Get("msg").String()}})
	}
}

func (e *Engine) deliver(r RunResult) {
	if e.h.Result != nil {
		e.h.Result(r)
	}
}

// resultOf reads a result message (RunResult.value on the worker's side).
func resultOf(m js.Value) RunResult {
	r := RunResult{ID: m.Get("id").Int(), Output: stringOr(m.Get("output"))}
	if ws := m.Get("worlds"); ws.Type() == js.TypeObject {
		for i := range ws.Length() {
			w := ws.Index(i)
			seed, _ := strconv.ParseUint(stringOr(w.Get("seed")), 10, 64)
			r.Worlds = append(r.Worlds, WorldSummary{
				World: w.Get("world").Int(), Algorithm: stringOr(w.Get("algorithm")), Seed: seed,
				Processes: w.Get("processes").Int(), Events: w.Get("events").Int(), End: int64(w.Get("end").Float()),
				Sent: w.Get("sent").Int(), Delivered: w.Get("delivered").Int(), Dropped: w.Get("dropped").Int(),
			})
		}
	}
	if cs := m.Get("checks"); cs.Type() == js.TypeObject {
		for i := range cs.Length() {
			c := cs.Index(i)
			r.Checks = append(r.Checks, script.Check{
				World: c.Get("world").Int(), Seq: uint64(c.Get("seq").Float()), Line: c.Get("line").Int(),
				Text: stringOr(c.Get("text")), Pass: c.Get("pass").Truthy(), Property: stringOr(c.Get("property")), At: uint64(c.Get("at").Float()),
			})
		}
	}
	if ws := m.Get("warnings"); ws.Type() == js.TypeObject {
		for i := range ws.Length() {
			w := ws.Index(i)
			r.Warnings = append(r.Warnings, script.Warning{
				World: w.Get("world").Int(), Seq: uint64(w.Get("seq").Float()), Line: w.Get("line").Int(), Text: stringOr(w.Get("text")),
			})
		}
	}
	if ns := m.Get("notes"); ns.Type() == js.TypeObject {
		for i := range ns.Length() {
			r.Notes = append(r.Notes, stringOr(ns.Index(i)))
		}
	}
	if ts := m.Get("reports"); ts.Type() == js.TypeObject {
		for i := range ts.Length() {
			t := ts.Index(i)
			rep := Report{At: t.Get("at").Int(), Len: t.Get("len").Int()}
			rows := t.Get("cells")
			for j := range rows.Length() {
				row := rows.Index(j)
				cells := make([]string, row.Length())
				for k := range cells {
					cells[k] = stringOr(row.Index(k))
				}
				rep.Cells = append(rep.Cells, cells)
			}
			numeric := t.Get("numeric")
			for k := range numeric.Length() {
				rep.Numeric = append(rep.Numeric, numeric.Index(k).Truthy())
			}
			r.Reports = append(r.Reports, rep)
		}
	}
	if err := m.Get("error"); err.Type() == js.TypeObject {
		r.Err = &script.Error{File: stringOr(err.Get("file")), Line: err.Get("line").Int(), Msg: stringOr(err.Get("msg"))}
	}
	return r
}

// gridOf reads the grid of an overview answer (see gridValue).
func gridOf(m js.Value) (*overview.Grid, error) {
	bad := errors.New("the engine sent a malformed overview")
	var f [5]float64
	for i, name := range []string{"rows", "bands", "cols", "max", "end"} {
		v := m.Get(name)
		if v.Type() != js.TypeNumber {
			return nil, bad
		}
		f[i] = v.Float()
	}
	g := &overview.Grid{Rows: int(f[0]), Bands: int(f[1]), Cols: int(f[2]), Max: int32(f[3]), Scale: overview.Linear{T1: int64(f[4])}}
	counts, fails := m.Get("counts"), m.Get("fails")
	if counts.Type() != js.TypeObject || counts.Length() != g.Bands*g.Cols || fails.Type() != js.TypeObject {
		return nil, bad
	}
	g.Counts = make([]int32, g.Bands*g.Cols)
	for i := range g.Counts {
		g.Counts[i] = int32(counts.Index(i).Int())
	}
	for i := 0; i < fails.Length(); i++ {
		g.Fails = append(g.Fails, fails.Index(i).Int())
	}
	return g, nil
}

// chartOf reads the chart of a chart answer (see chartValue).
func chartOf(m js.Value) (*series.Chart, error) {
	bad := errors.New("the engine sent a malformed clock chart")
	end, cols, procs, lines, marks, has := m.Get("end"), m.Get("cols"), m.Get("procs"), m.Get("lines"), m.Get("marks"), m.Get("has")
	if end.Type() != js.TypeNumber || cols.Type() != js.TypeNumber || procs.Type() != js.TypeObject || lines.Type() != js.TypeObject ||
		lines.Length() != procs.Length() || marks.Type() != js.TypeObject || has.Type() != js.TypeObject || has.Length() != cols.Int() {
		return nil, bad
	}
	ch := &series.Chart{End: int64(end.Float()), Cols: cols.Int(), Steps: m.Get("steps").Truthy()}
	ch.Lo, ch.Hi = int64s(m.Get("lo")), int64s(m.Get("hi"))
	if len(ch.Lo) != ch.Cols || len(ch.Hi) != ch.Cols {
		return nil, bad
	}
	ch.Has = make([]bool, ch.Cols)
	for c := range ch.Has {
		ch.Has[c] = has.Index(c).Truthy()
	}
	for i := 0; i < procs.Length(); i++ {
		ch.Procs = append(ch.Procs, procs.Index(i).Int())
		flat := int64s(lines.Index(i))
		line := make([]series.Point, len(flat)/2)
		for k := range line {
			line[k] = series.Point{Col: int(flat[2*k]), Val: flat[2*k+1]}
		}
		ch.Lines = append(ch.Lines, line)
	}
	for i := 0; i < marks.Length(); i++ {
		ch.Marks = append(ch.Marks, marks.Index(i).Int())
	}
	return ch, nil
}

// int64s reads a Float64Array of whole numbers (nil for anything else).
func int64s(v js.Value) []int64 {
	if v.Type() != js.TypeObject || !v.InstanceOf(js.Global().Get("Float64Array")) {
		return nil
	}
	out := make([]int64, v.Length())
	for i := range out {
		out[i] = int64(v.Index(i).Float())
	}
	return out
}

// bytesOr reads a Uint8Array of UTF-8 as a string ("" for anything else).
func bytesOr(v js.Value) string {
	if v.Type() != js.TypeObject || !v.InstanceOf(js.Global().Get("Uint8Array")) {
		return ""
	}
	b := make([]byte, v.Length())
	js.CopyBytesToGo(b, v)
	return string(b)
}
