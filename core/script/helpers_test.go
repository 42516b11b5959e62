package script

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/trace"
)

func algoNames() []string { return algo.Names() }

func itoa(n int) string { return strconv.Itoa(n) }

// run executes src as "t.lua" with seed 1 unless opt says otherwise, and
// returns the result, what it printed, and the error.
func run(t testing.TB, src string, opt ...Options) (*Result, string, error) {
	t.Helper()
	o := Options{Seed: 1}
	if len(opt) > 0 {
		o = opt[0]
	}
	var out bytes.Buffer
	o.Out = &out
	res, err := Run("t.lua", []byte(src), o)
	if res == nil {
		t.Fatalf("Run returned a nil result (error %v)", err)
	}
	return res, out.String(), err
}

// mustRun runs src and fails the test on a script error.
func mustRun(t testing.TB, src string, opt ...Options) (*Result, string) {
	t.Helper()
	res, out, err := run(t, src, opt...)
	if err != nil {
		t.Fatalf("script error: %v\noutput so far:\n%s", err, out)
	}
	return res, out
}

// scriptError asserts err is an *Error and returns it.
func scriptError(t testing.TB, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want an *Error, got %T: %v", err, err)
	}
	return e
}

func jsonl(t testing.TB, res *Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := trace.WriteJSONL(&b, res.Worlds); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// lines joins its arguments with newlines, ending with one.
func lines(s ...string) string { return strings.Join(s, "\n") + "\n" }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// worldEvents returns world w's recorded events as a slice.
func worldEvents(res *Result, w int) []trace.Event {
	if rec := res.Worlds[w].Rec; rec != nil {
		return rec.Events()
	}
	return nil
}
