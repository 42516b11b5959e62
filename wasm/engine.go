//go:build js && wasm

package main

import (
	"bytes"
	"errors"
	"runtime/debug"
	"syscall/js"

	"dsim/core/script"
	"dsim/core/trace"
	"dsim/internal/wasmmem"
)

// RunRequest is one scenario run asked of the engine.
type RunRequest struct {
	Name    string // file name used in error messages
	Src     string
	Seed    uint64
	SeedSet bool // Seed overrides every world's own seed
}

// RunResult is what a run produced. On a script error it still holds the
// trace up to the failure, as the CLI prints it.
type RunResult struct {
	ID     int
	JSONL  string // trace.WriteJSONL of every world
	Checks []script.Check
	Notes  []string
	// Warnings are the worlds' departures from their algorithms'
	// assumptions.
	Warnings []script.Warning
	Output   string // what print and log wrote
	Err      *script.Error
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
// same script and seed give the same bytes natively and here.
func execute(req RunRequest, progress func(events uint64, t int64)) RunResult {
	out := &cappedWriter{max: maxOutput}
	name := req.Name
	if name == "" {
		name = "scenario.lua"
	}
	res, err := script.Run(name, []byte(req.Src), script.Options{Limits: script.Page, Seed: req.Seed, SeedSet: req.SeedSet, Out: out, Progress: progress})
	var r RunResult
	if err != nil {
		if !errors.As(err, &r.Err) {
			r.Err = &script.Error{File: name, Line: 1, Msg: err.Error()}
		}
	}
	if res != nil {
		var b bytes.Buffer
		if werr := trace.WriteJSONL(&b, res.Worlds); werr != nil && r.Err == nil {
			r.Err = &script.Error{File: name, Line: 1, Msg: "writing the trace: " + werr.Error()}
		}
		r.JSONL = b.String()
		r.Checks, r.Notes, r.Warnings = res.Checks, res.Notes, res.Warnings
	}
	r.Output = out.String()
	return r
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
	run := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		req, id := requestOf(args[0])
		var progress func(uint64, int64)
		if len(args) > 1 && args[1].Type() == js.TypeFunction {
			cb := args[1]
			progress = func(events uint64, t int64) { cb.Invoke(float64(events), float64(t)) }
		}
		r := execute(req, progress)
		r.ID = id
		return r.value()
	})
	js.Global().Set("dsimEngine", map[string]any{"run": run})
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

// value is the result message of the worker protocol. The trace goes as
// UTF-8 bytes, which the worker hands over without a copy and the page
// reads with one memory copy: as a string, a trace of megabytes took the
// page's thread tens of milliseconds to decode.
func (r RunResult) value() map[string]any {
	checks := make([]any, len(r.Checks))
	for i, c := range r.Checks {
		checks[i] = map[string]any{"world": c.World, "seq": float64(c.Seq), "line": c.Line, "text": c.Text, "pass": c.Pass, "property": c.Property}
	}
	notes := make([]any, len(r.Notes))
	for i, n := range r.Notes {
		notes[i] = n
	}
	warnings := make([]any, len(r.Warnings))
	for i, w := range r.Warnings {
		warnings[i] = map[string]any{"world": w.World, "seq": float64(w.Seq), "line": w.Line, "text": w.Text}
	}
	var err any
	if r.Err != nil {
		err = map[string]any{"file": r.Err.File, "line": r.Err.Line, "msg": r.Err.Msg}
	}
	jsonl := js.Global().Get("Uint8Array").New(len(r.JSONL))
	js.CopyBytesToJS(jsonl, []byte(r.JSONL))
	return map[string]any{"op": "result", "id": r.ID, "jsonl": jsonl, "checks": checks, "notes": notes, "warnings": warnings, "output": r.Output, "error": err}
}
