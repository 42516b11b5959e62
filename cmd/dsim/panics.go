package main

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"dsim/core/script"
)

// runScript runs one scenario's source. It is script.Run, held in a
// variable only so that tests can make a run panic (panics_test.go);
// nothing else assigns it.
var runScript = script.Run

// internalError turns a Go panic (a bug in dsim, not in the script) into a
// one-line error for the file being run, with the Go function and line
// that panicked. It must be called from the deferred function that
// recovered p, while the panicking frames are still on the stack. The
// script line is unknown: like core/script's other whole-file errors it
// says line 1.
func internalError(file string, p any) *script.Error {
	msg, _, _ := strings.Cut(fmt.Sprint(p), "\n")
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	if at := panicSite(); at != "" {
		msg += " (in " + at + ")"
	}
	return &script.Error{File: file, Line: 1, Msg: "internal error: " + msg}
}

// panicSite is the first frame below runtime.gopanic that is not in the
// runtime: the Go code that panicked, as "function file.go:line".
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		if panicking && !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf("%s %s:%d", f.Function, filepath.Base(f.File), f.Line)
		}
		panicking = panicking || f.Function == "runtime.gopanic"
		if !more {
			return ""
		}
	}
}
