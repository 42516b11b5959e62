package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A script's messages cannot break check's one-line-per-result output: an
// expect text or an error with line breaks stays on its line, and cannot
// fake a PASS or the summary a grader reads.
func TestCheckLinesStayOneLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "fake.lua")
	src := "expect(false, \"x\\nPASS fake.lua:1 y\\n3 passed, 0 failed\")\nerror(\"a\\r\\nPASS b\")\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := dsim(t, "check", file)
	wantCode(t, code, exitError, errOut) // a script error
	want := "FAIL " + file + `:1 x\nPASS fake.lua:1 y\n3 passed, 0 failed` + "\n" +
		"ERROR " + file + `:2: a\r\nPASS b` + "\n" +
		"0 passed, 2 failed\n"
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	if lines := strings.Count(errOut, "\n"); lines != 1 {
		t.Errorf("stderr has %d lines, want the error's one:\n%s", lines, errOut)
	}
}
