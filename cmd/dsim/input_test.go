package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A scenario of more than maxScript bytes is a script error at line 1, for
// run and check alike; one of exactly maxScript bytes runs.
func TestScriptTooBig(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.lua")
	limit := filepath.Join(dir, "limit.lua")
	comment := "-- " + strings.Repeat("x", maxScript-4) + "\n"
	if err := os.WriteFile(limit, []byte(comment), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, []byte(comment+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := dsim(t, "run", limit)
	wantCode(t, code, exitOK, errOut)
	if out != "" || errOut != "" {
		t.Errorf("a script of %d bytes of comment should run and print nothing, got %q, %q", maxScript, out, errOut)
	}
	msg := big + ":1: the script is more than the 1048576 bytes allowed\n"
	code, out, errOut = dsim(t, "run", big)
	wantCode(t, code, exitError, errOut)
	if out != "" || errOut != msg {
		t.Errorf("run: stdout %q, stderr %q; want stderr %q", out, errOut, msg)
	}
	code, out, errOut = dsim(t, "check", big, "testdata/pass.lua")
	wantCode(t, code, exitError, errOut)
	if !strings.HasPrefix(out, "ERROR "+msg) || !strings.HasSuffix(out, "\n2 passed, 1 failed\n") || !strings.HasPrefix(errOut, msg) {
		t.Errorf("check: the big file should be an ERROR and the next file still run, got:\n%s\nstderr %q", out, errOut)
	}
}

// A directory, and a missing file in the middle of check, are one-line
// errors naming the file; check runs the other files and exits 2.
func TestUnreadableScript(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := dsim(t, "run", dir)
	wantCode(t, code, exitError, errOut)
	if want := "dsim: " + dir + ": is a directory, not a scenario file\n"; out != "" || errOut != want {
		t.Errorf("run DIR: stdout %q, stderr %q; want stderr %q", out, errOut, want)
	}
	code, out, errOut = dsim(t, "check", "testdata/fail.lua", dir, "testdata/no-such.lua", "testdata/pass.lua")
	wantCode(t, code, exitError, errOut)
	want := strings.Join([]string{
		"PASS testdata/fail.lua:4 this one holds",
		"FAIL testdata/fail.lua:5 four processes (wrong on purpose)",
		"ERROR " + dir + ": is a directory, not a scenario file",
		"ERROR testdata/no-such.lua: " + syscall.ENOENT.Error(), // lower case natively, not under Node
		"PASS testdata/pass.lua:5 three processes",
		"PASS testdata/pass.lua:6 time never runs backwards",
		"3 passed, 3 failed",
		"",
	}, "\n")
	if out != want {
		t.Errorf("check printed:\n%s\nwant:\n%s", out, want)
	}
}
