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

// A script cannot send the terminal control sequences: what it prints keeps
// its lines and tabs but shows every other control byte escaped, and so do
// the PASS, FAIL and ERROR lines of check.
func TestScriptTextIsEscaped(t *testing.T) {
	file := filepath.Join(t.TempDir(), "esc.lua")
	src := "print(\"a\\27[31mred\\0nul\\r\\tend\\nnext\\127\")\n" +
		"local w = sim.world{algorithm = \"mutex.raymond\", n = 3}\n" +
		"log(\"b\\27[2J\")\n" +
		"expect(false, \"c\\27[2J\\t\\1\")\n" +
		"error(\"d\\27]0;title\\7\")\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := dsim(t, "check", file)
	wantCode(t, code, exitError, errOut)
	printed := "a\\x1b[31mred\\x00nul\\r\tend\nnext\\x7f\nb\\x1b[2J\n"
	if !strings.HasPrefix(errOut, printed) {
		t.Errorf("printed:\n%q\nwant it to begin with:\n%q", errOut, printed)
	}
	if !strings.Contains(out, "FAIL "+file+":4 c\\x1b[2J\t\\x01\n") || !strings.Contains(out, "ERROR "+file+":5: d\\x1b]0;title\\x07\n") {
		t.Errorf("check's lines keep control bytes:\n%q", out)
	}
	code, _, errOut = dsim(t, "run", file)
	wantCode(t, code, exitError, errOut)
	if !strings.HasPrefix(errOut, printed) || strings.ContainsAny(errOut, "\x1b\x00\x07\x7f\r") {
		t.Errorf("run's output keeps control bytes:\n%q", errOut)
	}
}

// An instruction budget smaller than what opening the libraries costs
// still ends the script with the budget's error at its line, not an
// internal error.
func TestTinyInstructionBudget(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tiny.lua")
	if err := os.WriteFile(file, []byte("print('hi')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"1", "10"} {
		code, _, errOut := dsim(t, "run", "--instructions", n, file)
		wantCode(t, code, exitError, errOut)
		if want := file + ":1: instruction budget of " + n + " exhausted (endless loop?)\n"; errOut != want {
			t.Errorf("--instructions %s: stderr %q, want %q", n, errOut, want)
		}
	}
	code, _, errOut := dsim(t, "run", "--instructions", "100", file)
	wantCode(t, code, exitOK, errOut)
	if errOut != "hi\n" {
		t.Errorf("--instructions 100: printed %q, want hi", errOut)
	}
}
