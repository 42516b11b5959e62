//go:build js && wasm

package main

// Reading a result's JSONL trace in slices that yield to the browser: a
// trace of tens of thousands of events takes long enough to parse in
// WebAssembly that doing it in one go would freeze the page.

import (
	"strings"
	"syscall/js"

	"dsim/core/trace"
)

// sliceMillis is how long one slice of reading may run before the page
// gets the thread back.
const sliceMillis = 25

func now() float64 { return js.Global().Get("performance").Call("now").Float() }

// afterFrame runs fn in a task after the browser has drawn the next frame,
// so that work split into slices lets every frame through; a hidden page
// draws no frames, so it does not wait longer than 100 ms for one.
func afterFrame(fn func()) {
	done := false
	run := func() {
		if !done {
			done = true
			fn()
		}
	}
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		window.SetTimeout(run, 0)
		return nil
	})
	js.Global().Call("requestAnimationFrame", f)
	window.SetTimeout(run, 100)
}

// measure records the time since start as the performance measure
// "dsim: what".
func measure(what string, start float64) {
	js.Global().Get("performance").Call("measure", "dsim: "+what, map[string]any{"start": start, "end": now()})
}

// traceReader reads one JSONL text with trace.ReadJSONL, a few hundred
// lines at a time: each piece is parsed behind the header line of the world
// it belongs to, and its events join that world.
type traceReader struct {
	text     string
	pos      int
	header   string // the latest world header line
	worlds   []trace.World
	progress func(done float64)
	finish   func([]trace.World, error)
	stopped  bool
}

// readTrace starts reading text; finish gets the worlds (or the error that
// trace.ReadJSONL gives for the whole text) unless stop is called first.
func readTrace(text string, progress func(float64), finish func([]trace.World, error)) (stop func()) {
	r := &traceReader{text: text, progress: progress, finish: finish}
	// not in the task that brought the result: that one is long already
	afterFrame(r.slice)
	return func() { r.stopped = true }
}

func (r *traceReader) slice() {
	if r.stopped {
		return
	}
	start := now()
	defer func() { measure("read the trace", start) }()
	for r.pos < len(r.text) {
		if err := r.piece(150); err != nil {
			// Name the line as the reader does for the whole text.
			_, err = trace.ReadJSONL(strings.NewReader(r.text))
			r.finish(nil, err)
			return
		}
		if now()-start > sliceMillis && r.pos < len(r.text) {
			r.progress(float64(r.pos) / float64(len(r.text)))
			afterFrame(r.slice)
			return
		}
	}
	r.finish(r.worlds, nil)
}

// piece reads up to n more lines.
func (r *traceReader) piece(n int) error {
	from := r.pos
	end := from
	for k := 0; k < n && end < len(r.text); k++ {
		nl := strings.IndexByte(r.text[end:], '\n')
		line := r.text[end:]
		if nl >= 0 {
			line = r.text[end : end+nl+1]
		}
		if strings.HasPrefix(line, `{"type":"world"`) {
			if k > 0 {
				break // a new world starts its own piece
			}
			r.header = line
		}
		end += len(line)
	}
	r.pos = end
	chunk := r.text[from:end]
	continuing := r.header != "" && !strings.HasPrefix(chunk, `{"type":"world"`)
	if continuing {
		chunk = r.header + chunk
	}
	ws, err := trace.ReadJSONL(strings.NewReader(chunk))
	if err != nil {
		return err
	}
	if continuing && len(ws) > 0 && len(r.worlds) > 0 {
		last := &r.worlds[len(r.worlds)-1]
		last.Events = append(last.Events, ws[0].Events...)
		ws = ws[1:]
	}
	r.worlds = append(r.worlds, ws...)
	return nil
}
