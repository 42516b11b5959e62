//go:build js && wasm

package main

// Reading a result's JSONL trace in slices that let the browser draw
// frames in between: a trace of tens of thousands of events takes long
// enough to parse in WebAssembly that reading it in one go would freeze the
// page.

import (
	"syscall/js"

	"dsim/core/trace"
	"dsim/wasm/replay"
)

const (
	// sliceMillis is how long reading may run before the page gets the
	// thread back. A garbage collection falls due now and then in a slice
	// and runs there in one go (some 20-40 ms for a 10,000-message trace):
	// short slices keep such a task under 50 ms. The reading takes some
	// 10% longer than with 25 ms slices.
	sliceMillis = 12
	// sliceLines is how many lines are parsed between looks at the clock.
	sliceLines = 25
)

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
	f = callback(func(js.Value, []js.Value) any {
		f.Release()
		setTimeout(run, 0)
		return nil
	})
	js.Global().Call("requestAnimationFrame", f)
	setTimeout(run, 100)
}

// measure records the time since start as the performance measure
// "dsim: what".
func measure(what string, start float64) {
	js.Global().Get("performance").Call("measure", "dsim: "+what, map[string]any{"start": start, "end": now()})
}

// readTrace reads text a slice at a time, starting after the next frame;
// finish gets the worlds or the error, unless the returned stop is called
// first.
func readTrace(text string, progress func(float64), finish func([]trace.World, error)) (stop func()) {
	r := replay.NewReader(text)
	stopped := false
	var slice func()
	slice = func() {
		if stopped {
			return
		}
		start := now()
		defer measure("read the trace", start)
		for !r.Done() {
			if err := r.Next(sliceLines); err != nil {
				finish(nil, err)
				return
			}
			if now()-start > sliceMillis && !r.Done() {
				progress(r.Progress())
				afterFrame(slice)
				return
			}
		}
		// in a task of its own: drawing the result is long enough
		afterFrame(func() { finish(r.Worlds(), nil) })
	}
	afterFrame(slice)
	return func() { stopped = true }
}
