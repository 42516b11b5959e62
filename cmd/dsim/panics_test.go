package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"dsim/core/script"
	"dsim/core/trace"
)

// panicOn makes runScript panic for the file named bad, after the script
// printed a line, and run the others for real, until the test ends.
func panicOn(t *testing.T, bad string, p func()) {
	t.Helper()
	t.Cleanup(func() { runScript = script.Run })
	runScript = func(name string, src []byte, opt script.Options) (*script.Result, error) {
		if name == bad {
			fmt.Fprintln(opt.Out, "printed before the panic")
			p()
		}
		return script.Run(name, src, opt)
	}
}

// A panic while running one file is an ERROR line for that file; the other
// files still run, and the summary and the JUnit report are written.
func TestCheckPanicStopsOneFileOnly(t *testing.T) {
	panicOn(t, "testdata/pass.lua", func() { panic("boom\nsecond line") })
	path := filepath.Join(t.TempDir(), "report.xml")
	code, out, errOut := dsim(t, "check", "testdata/pass.lua", "testdata/fail.lua", "testdata/no-such.lua", "--junit", path)
	wantCode(t, code, exitError, errOut)
	lines := strings.Split(out, "\n")
	if len(lines) != 6 || lines[5] != "" {
		t.Fatalf("want 5 lines, got:\n%s", out)
	}
	if !strings.HasPrefix(lines[0], "ERROR testdata/pass.lua:1: internal error: boom (in dsim/cmd/dsim.TestCheckPanicStopsOneFileOnly.func1 panics_test.go:") {
		t.Errorf("want the panic as an ERROR line naming the file and the Go code that panicked, got %q", lines[0])
	}
	want := []string{
		"PASS testdata/fail.lua:4 this one holds",
		"FAIL testdata/fail.lua:5 four processes (wrong on purpose)",
		"ERROR testdata/no-such.lua: " + syscall.ENOENT.Error(),
		"1 passed, 3 failed",
	}
	if got := lines[1:5]; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after the panic check printed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(errOut, "printed before the panic\ntestdata/pass.lua:1: internal error: boom (in ") || strings.Contains(errOut, "second line") {
		t.Errorf("stderr should keep the script's output and give the panic in one line, got:\n%s", errOut)
	}
	var got junitSuites
	data := readFile(t, path)
	if err := xml.Unmarshal(data, &got); err != nil {
		t.Fatalf("not JUnit XML: %v\n%s", err, data)
	}
	if got.Tests != 4 || got.Failures != 1 || got.Errors != 2 || len(got.Suites) != 3 {
		t.Fatalf("want 4 tests (the panic, 2 checks, the missing file), 1 failure, 2 errors in 3 suites, got %+v", got)
	}
	if c := got.Suites[0].Cases[0]; c.Error == nil || !strings.HasPrefix(c.Error.Message, "testdata/pass.lua:1: internal error: boom") {
		t.Errorf("the panic should be the first suite's error case, got %+v", c)
	}
	if c := got.Suites[2].Cases[0]; c.Error == nil || c.Error.Message != "testdata/no-such.lua: "+syscall.ENOENT.Error() {
		t.Errorf("the missing file should be the last suite's error case, got %+v", c)
	}
}

// A runtime error names the Go function it happened in; a panic that is not
// in the first file stops nothing either.
func TestCheckRuntimePanic(t *testing.T) {
	panicOn(t, "testdata/fail.lua", func() {
		var m map[string]int
		m["x"]++
	})
	code, out, errOut := dsim(t, "check", "testdata/pass.lua", "testdata/fail.lua", "testdata/mutex.lua")
	wantCode(t, code, exitError, errOut)
	if !strings.Contains(out, "\nERROR testdata/fail.lua:1: internal error: assignment to entry in nil map (in dsim/cmd/dsim.TestCheckRuntimePanic.func1 panics_test.go:") {
		t.Errorf("want the runtime error with where it happened, got:\n%s", out)
	}
	if !strings.Contains(out, "PASS testdata/mutex.lua:3 mutex.safety") || !strings.HasSuffix(out, "\n5 passed, 1 failed\n") {
		t.Errorf("the file after the panic should run and be counted, got:\n%s", out)
	}
}

// dsim run: the panic is one line on stderr, after what the script printed,
// and the exit status is 2.
func TestRunPanic(t *testing.T) {
	panicOn(t, "testdata/pass.lua", func() { panic(errors.New("kaput")) })
	code, out, errOut := dsim(t, "run", "testdata/pass.lua")
	wantCode(t, code, exitError, errOut)
	if out != "" {
		t.Errorf("a run that panicked has no trace to print, got:\n%s", out)
	}
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if len(lines) != 2 || lines[0] != "printed before the panic" || !strings.HasPrefix(lines[1], "testdata/pass.lua:1: internal error: kaput (in ") {
		t.Errorf("want the script's output, then the panic in one line, got:\n%s", errOut)
	}
}

// A panic while writing the trace keeps the part written before it.
func TestWriteTracePanic(t *testing.T) {
	var out bytes.Buffer
	err := writeTrace(&out, func(w io.Writer, _ []trace.World) error {
		io.WriteString(w, "t=0 first event\n")
		panic("writer bug")
	}, nil, "x.lua")
	var se *script.Error
	if !errors.As(err, &se) || !strings.HasPrefix(se.Error(), "x.lua:1: internal error: writer bug (in ") {
		t.Errorf("want an internal error for x.lua, got %v", err)
	}
	if out.String() != "t=0 first event\n" {
		t.Errorf("the trace written before the panic should be flushed, got %q", out.String())
	}
}

// A huge panic value stays one short line.
func TestInternalErrorIsShort(t *testing.T) {
	e := internalError("x.lua", strings.Repeat("y", 10000))
	if len(e.Error()) > 400 || !strings.Contains(e.Msg, strings.Repeat("y", 300)+"...") {
		t.Errorf("got %d bytes: %.100s", len(e.Error()), e.Error())
	}
}
