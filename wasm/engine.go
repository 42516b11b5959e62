//go:build js && wasm

package main

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"syscall/js"

	"dsim/core/script"
	"dsim/core/trace"
	"dsim/internal/wasmmem"
	"dsim/wasm/overview"
	"dsim/wasm/replay"
	"dsim/wasm/series"
	tracewindow "dsim/wasm/window"
)

// RunRequest is one scenario run asked of the engine.
type RunRequest struct {
	Name    string // file name used in error messages
	Src     string
	Seed    uint64
	SeedSet bool // Seed overrides every world's own seed
}

// RunResult is what a run produced: everything the page shows at once.
// The trace stays in the engine (see kept), which hands the page one world
// at a time, or the whole for a download: a million-process run records
// millions of events, which the page could neither copy nor read whole.
type RunResult struct {
	ID     int
	Worlds []WorldSummary
	Checks []script.Check
	Notes  []string
	// Warnings are the worlds' departures from their algorithms'
	// assumptions.
	Warnings []script.Warning
	Output   string // what print and log wrote
	// Reports are the tables report printed, where they sit in Output.
	Reports []Report
	Err     *script.Error
}

// Report is a table report printed: Output[At:At+Len] is its text, and
// Cells (the header first) and Numeric let the page draw it as a table.
type Report struct {
	At, Len int
	Cells   [][]string
	Numeric []bool
}

// WorldSummary is what the page knows of a world before it asks for its
// trace: enough to list it, to judge whether it can be drawn, and to say
// how the run went when it cannot.
type WorldSummary struct {
	World     int // 1-based, the trace header's number
	Algorithm string
	Seed      uint64
	Processes int
	Events    int
	End       int64 // the time of the last event
	Sent      int
	Delivered int
	Dropped   int
}

func summarize(w *trace.World) WorldSummary {
	return WorldSummary{World: w.Header.World, Algorithm: w.Header.Algorithm, Seed: w.Header.Seed,
		Processes: len(w.Header.IDs), Events: w.Len(), End: w.End(),
		Sent: w.Count(trace.Send), Delivered: w.Count(trace.Deliver), Dropped: w.Count(trace.Drop)}
}

// maxOutput bounds what print and log may send back to the page; a script
// printing in a loop would otherwise make a result of hundreds of megabytes.
const maxOutput = 1 << 20

// cappedWriter keeps the first max bytes written to it and drops the rest.
type cappedWriter struct {
	buf       bytes.Buffer
	max       int
	truncated bool
}

func (w *cappedWriter) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); len(p) > room {
		w.buf.Write(p[:room])
		w.truncated = true
		return len(p), nil
	}
	return w.buf.Write(p)
}

func (w *cappedWriter) String() string {
	if w.truncated {
		return w.buf.String() + "\n… (output truncated)\n"
	}
	return w.buf.String()
}

// execute runs one scenario the way `dsim run --format jsonl` does, so the
// same script and seed give the same bytes natively and here. It returns
// the worlds with the result, their traces included, for the engine to
// keep.
func execute(req RunRequest, progress func(events uint64, t int64)) (RunResult, []trace.World) {
	out := &cappedWriter{max: maxOutput}
	name := req.Name
	if name == "" {
		name = "scenario.lua"
	}
	var r RunResult
	table := func(cells [][]string, numeric []bool, text string) {
		if out.buf.Len()+len(text) <= out.max { // a cut table stays text
			r.Reports = append(r.Reports, Report{At: out.buf.Len(), Len: len(text), Cells: cells, Numeric: numeric})
		}
	}
	res, err := script.Run(name, []byte(req.Src), script.Options{Limits: script.Page, Seed: req.Seed, SeedSet: req.SeedSet, Out: out, Progress: progress, Report: table})
	if err != nil {
		if !errors.As(err, &r.Err) {
			r.Err = &script.Error{File: name, Line: 1, Msg: err.Error()}
		}
	}
	var worlds []trace.World
	if res != nil {
		worlds = res.Worlds
		for i := range worlds {
			r.Worlds = append(r.Worlds, summarize(&worlds[i]))
		}
		r.Checks, r.Notes, r.Warnings = res.Checks, res.Notes, res.Warnings
	}
	r.Output = out.String()
	return r, worlds
}

// Trace formats: the JSONL trace `dsim run --format jsonl` writes, and
// ShiViz's log.
const (
	formatJSONL  = "jsonl"
	formatShiViz = "shiviz"
)

// traceText writes world i of worlds (-1: every world) in format.
func traceText(worlds []trace.World, i int, format string) ([]byte, error) {
	if i >= len(worlds) || i < -1 {
		return nil, fmt.Errorf("the run has no world %d", i+1)
	}
	if i >= 0 {
		worlds = worlds[i : i+1]
	}
	var b bytes.Buffer
	var err error
	switch format {
	case formatJSONL:
		err = trace.WriteJSONL(&b, worlds)
	case formatShiViz:
		err = trace.WriteShiViz(&b, worlds)
	default:
		err = fmt.Errorf("unknown trace format %q", format)
	}
	return b.Bytes(), err
}

// WindowAsk is a request for a window of a world (see package
// dsim/wasm/window): at most Count events naming at most Procs processes,
// lying as How says with respect to position At, or with Time, around the
// first event at time At or later.
type WindowAsk struct {
	World, At, Count, Procs int
	How                     tracewindow.How
	Time                    bool
}

// Window is a window of a world in JSONL, with its bounds and the time of
// the run where it starts.
type Window struct {
	JSONL    []byte
	From, To int
	Start    int64
}

// worldAt is world i of worlds, or why there is none.
func worldAt(worlds []trace.World, i int) (*trace.World, error) {
	if i < 0 || i >= len(worlds) {
		return nil, fmt.Errorf("the run has no world %d", i+1)
	}
	return &worlds[i], nil
}

// windowText writes the window a asks for.
func windowText(worlds []trace.World, a WindowAsk) (Window, error) {
	w, err := worldAt(worlds, a.World)
	if err != nil {
		return Window{}, err
	}
	if a.Time {
		a.At, a.How = min(tracewindow.PositionAt(w, int64(a.At)), w.Len()-1), tracewindow.Around
	}
	from, to := tracewindow.Span(w, a.At, a.Count, a.Procs, a.How)
	cut, err := tracewindow.Cut(w, from, to)
	if err != nil {
		return Window{}, err
	}
	var buf bytes.Buffer
	err = trace.WriteJSONL(&buf, []trace.World{cut})
	return Window{JSONL: buf.Bytes(), From: from, To: to, Start: tracewindow.StartTime(w, from)}, err
}

// serveEngine installs globalThis.dsimEngine.run(request, onProgress) for
// site/worker.js, which does the messaging; the request and the result are
// the objects of the worker protocol (see worker.js).
func serveEngine() {
	// A run builds a model and a trace that stay live to its end, and the
	// collector shares the one thread: collect less often (a million-process
	// Chang-Roberts run takes about 15% less time), but not past 1 GiB, the
	// page's memory ceiling (script.Page).
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(1 << 30)
	// Grown once for runs of a few hundred thousand processes, rather than
	// a few megabytes at a time with a collection of V8's heap after each
	// growth, and the collector waits until runs have filled them (see
	// wasmmem); pages a run does not use cost no RAM.
	wasmmem.Reserve(256 << 20)
	// kept is the last run's worlds: the engine answers trace requests
	// about that run until the next one starts.
	var kept struct {
		id     int
		worlds []trace.World
	}
	run := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		req, id := requestOf(args[0])
		kept.id, kept.worlds = 0, nil // a run's memory is the next run's
		var progress func(uint64, int64)
		if len(args) > 1 && args[1].Type() == js.TypeFunction {
			cb := args[1]
			progress = func(events uint64, t int64) { cb.Invoke(float64(events), float64(t)) }
		}
		r, worlds := execute(req, progress)
		r.ID = id
		kept.id, kept.worlds = id, worlds
		return r.value()
	})
	// trace(request) answers {data: Uint8Array} or {error}, and a
	// window's bounds and start time {from, to, start}; the request is the
	// worker protocol's.
	traceOf := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeObject {
			return map[string]any{"error": "trace wants a request"}
		}
		m := args[0]
		if id := m.Get("id"); id.Type() != js.TypeNumber || id.Int() != kept.id || kept.id == 0 {
			return map[string]any{"error": "the engine no longer holds that run"}
		}
		world := m.Get("world")
		if world.Type() != js.TypeNumber {
			return map[string]any{"error": "trace wants a world index"}
		}
		var b []byte
		var err error
		answer := map[string]any{}
		if m.Get("find").Truthy() {
			f, from, forward, ok := findAsk(m)
			if !ok {
				return map[string]any{"error": "a search wants numbers from and node, a boolean forward, and strings type, kind and text"}
			}
			w, err := worldAt(kept.worlds, world.Int())
			if err != nil {
				return map[string]any{"error": err.Error()}
			}
			return map[string]any{"at": replay.Find(w, f, from, forward)}
		}
		if m.Get("overview").Truthy() {
			bands, cols := m.Get("bands"), m.Get("cols")
			if bands.Type() != js.TypeNumber || cols.Type() != js.TypeNumber {
				return map[string]any{"error": "an overview wants numbers bands and cols"}
			}
			w, err := worldAt(kept.worlds, world.Int())
			if err != nil {
				return map[string]any{"error": err.Error()}
			}
			return gridValue(overviewOf(w, bands.Int(), cols.Int()))
		}
		if m.Get("chart").Truthy() {
			cols, key := m.Get("cols"), m.Get("key")
			if cols.Type() != js.TypeNumber || key.Type() != js.TypeString {
				return map[string]any{"error": "a chart wants a number cols and a string key"}
			}
			w, err := worldAt(kept.worlds, world.Int())
			if err != nil {
				return map[string]any{"error": err.Error()}
			}
			return chartValue(w, key.String(), cols.Int())
		}
		if m.Get("window").Truthy() {
			a, ok := windowAskOf(m)
			if !ok {
				return map[string]any{"error": "a window wants numbers at, count and procs, and how: after, before or around"}
			}
			var win Window
			win, err = windowText(kept.worlds, a)
			b, answer["from"], answer["to"], answer["start"] = win.JSONL, win.From, win.To, float64(win.Start)
		} else {
			b, err = traceText(kept.worlds, world.Int(), stringOr(m.Get("format")))
		}
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		data := js.Global().Get("Uint8Array").New(len(b))
		js.CopyBytesToJS(data, b)
		answer["data"] = data
		return answer
	})
	js.Global().Set("dsimEngine", map[string]any{"run": run, "trace": traceOf})
}

// overviewOf is the overview grid of world w as a whole: its events in at
// most bands bands of processes, in the header's (ring) order, and cols
// columns of time from 0 to its end. It is one pass over the events, for
// the page of a world it reads in windows.
func overviewOf(w *trace.World, bands, cols int) *overview.Grid {
	row := make(map[int]int, len(w.Header.IDs))
	for i, id := range w.Header.IDs {
		row[id] = i
	}
	rowOf := func(id int) int {
		if r, ok := row[id]; ok {
			return r
		}
		return -1
	}
	bands, cols = min(max(bands, 1), 1000), min(max(cols, 1), 10_000) // a page asks for a strip, not a trace's worth
	return overview.BuildEach(w.Each, rowOf, len(w.Header.IDs), overview.Linear{T1: w.End()}, bands, cols)
}

// chartValue is the answer of the worker protocol carrying the chart of
// world w in cols columns (package series): of state key key, or of its
// clocks' errors for key "", or {empty: true} when no event has a value
// (every clock read true time); chartOf reads it back.
func chartValue(w *trace.World, key string, cols int) map[string]any {
	values, steps, has := series.ClockError, false, series.Clocked(w.Each)
	if key != "" {
		values, steps = series.StateKey(key), true
		has = series.Has(w.Each, values)
	}
	if !has {
		return map[string]any{"empty": true}
	}
	ch := series.Build(w.Each, w.Header.IDs, w.End(), cols, values, steps)
	lines := make([]any, len(ch.Lines))
	for i, l := range ch.Lines {
		flat := make([]float64, 0, 2*len(l))
		for _, p := range l {
			flat = append(flat, float64(p.Col), float64(p.Val))
		}
		lines[i] = float64Array(flat)
	}
	procs, marks := make([]any, len(ch.Procs)), make([]any, len(ch.Marks))
	for i, id := range ch.Procs {
		procs[i] = id
	}
	for i, c := range ch.Marks {
		marks[i] = c
	}
	lo, hi := make([]float64, ch.Cols), make([]float64, ch.Cols)
	filled := make([]any, ch.Cols)
	for c := range filled {
		lo[c], hi[c], filled[c] = float64(ch.Lo[c]), float64(ch.Hi[c]), ch.Has[c]
	}
	return map[string]any{"end": float64(ch.End), "cols": ch.Cols, "steps": ch.Steps, "procs": procs, "lines": lines,
		"lo": float64Array(lo), "hi": float64Array(hi), "has": filled, "marks": marks}
}

func float64Array(xs []float64) js.Value {
	a := js.Global().Get("Float64Array").New(len(xs))
	for i, x := range xs {
		a.SetIndex(i, x)
	}
	return a
}

// gridValue is the answer of the worker protocol carrying grid g, whose
// scale is linear from 0; gridOf reads it back.
func gridValue(g *overview.Grid) map[string]any {
	counts := js.Global().Get("Int32Array").New(len(g.Counts))
	for i, c := range g.Counts {
		counts.SetIndex(i, c)
	}
	fails := make([]any, len(g.Fails))
	for i, c := range g.Fails {
		fails[i] = c
	}
	return map[string]any{"counts": counts, "rows": g.Rows, "bands": g.Bands, "cols": g.Cols,
		"max": g.Max, "end": float64(g.Scale.(overview.Linear).T1), "fails": fails}
}

// findAsk reads the search of a trace message: the log's filter (node
// trace.NoNode for any, type "" for any), where to start, which way.
func findAsk(m js.Value) (f replay.Filter, from int, forward, ok bool) {
	n, fr, fw := m.Get("node"), m.Get("from"), m.Get("forward")
	ty, kind, text := m.Get("type"), m.Get("kind"), m.Get("text")
	if n.Type() != js.TypeNumber || fr.Type() != js.TypeNumber || fw.Type() != js.TypeBoolean ||
		ty.Type() != js.TypeString || kind.Type() != js.TypeString || text.Type() != js.TypeString {
		return f, 0, false, false
	}
	f = replay.Filter{Node: n.Int(), Kind: kind.String(), Text: text.String()}
	if ty.String() != "" {
		if f.Type, ok = trace.ParseType(ty.String()); !ok {
			return f, 0, false, false
		}
	}
	return f, fr.Int(), fw.Bool(), true
}

// hows are the names of the window positions in the worker protocol.
var hows = map[string]tracewindow.How{"after": tracewindow.After, "before": tracewindow.Before, "around": tracewindow.Around}

// windowAskOf reads the window request of a trace message.
func windowAskOf(m js.Value) (WindowAsk, bool) {
	a := WindowAsk{World: m.Get("world").Int()}
	for _, f := range []struct {
		p    *int
		name string
	}{{&a.At, "at"}, {&a.Count, "count"}, {&a.Procs, "procs"}} {
		v := m.Get(f.name)
		if v.Type() != js.TypeNumber {
			return a, false
		}
		*f.p = v.Int()
	}
	name := stringOr(m.Get("how"))
	if name == "time" {
		a.Time = true
		name = "around"
	}
	how, ok := hows[name]
	a.How = how
	return a, ok
}

func requestOf(v js.Value) (RunRequest, int) {
	req := RunRequest{Name: stringOr(v.Get("name")), Src: stringOr(v.Get("src")), SeedSet: v.Get("seedSet").Truthy()}
	if s := v.Get("seed"); s.Type() == js.TypeNumber && s.Float() >= 0 {
		req.Seed = uint64(s.Float())
	} else {
		req.Seed = 1
	}
	id := 0
	if i := v.Get("id"); i.Type() == js.TypeNumber {
		id = i.Int()
	}
	return req, id
}

func stringOr(v js.Value) string {
	if v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// value is the result message of the worker protocol.
func (r RunResult) value() map[string]any {
	checks := make([]any, len(r.Checks))
	for i, c := range r.Checks {
		checks[i] = map[string]any{"world": c.World, "seq": float64(c.Seq), "line": c.Line, "text": c.Text, "pass": c.Pass, "property": c.Property, "at": float64(c.At)}
	}
	notes := make([]any, len(r.Notes))
	for i, n := range r.Notes {
		notes[i] = n
	}
	warnings := make([]any, len(r.Warnings))
	for i, w := range r.Warnings {
		warnings[i] = map[string]any{"world": w.World, "seq": float64(w.Seq), "line": w.Line, "text": w.Text}
	}
	worlds := make([]any, len(r.Worlds))
	for i, w := range r.Worlds {
		worlds[i] = map[string]any{"world": w.World, "algorithm": w.Algorithm, "seed": strconv.FormatUint(w.Seed, 10), // exact beyond 2^53
			"processes": w.Processes, "events": w.Events, "end": float64(w.End),
			"sent": w.Sent, "delivered": w.Delivered, "dropped": w.Dropped}
	}
	reports := make([]any, len(r.Reports))
	for i, t := range r.Reports {
		rows := make([]any, len(t.Cells))
		for j, row := range t.Cells {
			cells := make([]any, len(row))
			for k, c := range row {
				cells[k] = c
			}
			rows[j] = cells
		}
		numeric := make([]any, len(t.Numeric))
		for k, n := range t.Numeric {
			numeric[k] = n
		}
		reports[i] = map[string]any{"at": t.At, "len": t.Len, "cells": rows, "numeric": numeric}
	}
	var err any
	if r.Err != nil {
		err = map[string]any{"file": r.Err.File, "line": r.Err.Line, "msg": r.Err.Msg}
	}
	return map[string]any{"op": "result", "id": r.ID, "worlds": worlds, "checks": checks, "notes": notes, "warnings": warnings, "output": r.Output, "reports": reports, "error": err}
}
