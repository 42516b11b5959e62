package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/script"
	"dsim/core/topo"
	"dsim/core/trace"
)

// dsim runs the CLI in-process and returns its exit code and outputs.
func dsim(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func wantCode(t *testing.T, got, want int, stderr string) {
	t.Helper()
	if got != want {
		t.Fatalf("exit code %d, want %d; stderr:\n%s", got, want, stderr)
	}
}

func TestRunText(t *testing.T) {
	code, out, errOut := dsim(t, "run", "testdata/pass.lua")
	wantCode(t, code, exitOK, errOut)
	if !strings.HasPrefix(out, "# world 1: election.changroberts on complete [1,2,3], seed ") {
		t.Errorf("the text trace should open with the world line, got:\n%s", out)
	}
	if !strings.Contains(out, " check PASS three processes (line 5)") {
		t.Errorf("the trace should hold the check events, got:\n%s", out)
	}
	if strings.Contains(out, "processes\t3") || !strings.Contains(errOut, "processes\t3") {
		t.Errorf("print() output belongs on stderr only; stdout:\n%s\nstderr:\n%s", out, errOut)
	}
}

func TestRunJSONLFlagsAnywhere(t *testing.T) {
	_, before, _ := dsim(t, "run", "--format", "jsonl", "--seed", "7", "testdata/pass.lua")
	code, after, errOut := dsim(t, "run", "testdata/pass.lua", "--seed=7", "--format=jsonl")
	wantCode(t, code, exitOK, errOut)
	if before != after {
		t.Fatalf("flags before and after the file must mean the same:\n%s\n---\n%s", before, after)
	}
	worlds, err := trace.ReadJSONL(strings.NewReader(after))
	if err != nil {
		t.Fatalf("stdout is not a JSONL trace: %v\n%s", err, after)
	}
	if len(worlds) != 1 || worlds[0].Header.Seed != 7 {
		t.Fatalf("want one world with the forced seed 7, got %+v", worlds)
	}
	var again bytes.Buffer
	if err := trace.WriteJSONL(&again, worlds); err != nil {
		t.Fatal(err)
	}
	if again.String() != after {
		t.Error("the JSONL written by dsim run does not read back to the same bytes")
	}
}

func TestRunShiViz(t *testing.T) {
	code, out, errOut := dsim(t, "run", "testdata/pass.lua", "--format", "shiviz")
	wantCode(t, code, exitOK, errOut)
	var want bytes.Buffer
	if err := trace.WriteShiViz(&want, readTrace(t, "testdata/pass.lua")); err != nil {
		t.Fatal(err)
	}
	if out != want.String() || !strings.HasPrefix(out, trace.ShiVizRegex+"\n") {
		t.Errorf("--format shiviz should print the ShiViz form of the trace, got:\n%s", out)
	}
}

// readTrace reads back the JSONL trace dsim run prints for file.
func readTrace(t *testing.T, file string) []trace.World {
	t.Helper()
	code, out, errOut := dsim(t, "run", file, "--format", "jsonl")
	wantCode(t, code, exitOK, errOut)
	worlds, err := trace.ReadJSONL(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return worlds
}

func TestCheck(t *testing.T) {
	code, out, errOut := dsim(t, "check", "testdata/pass.lua", "testdata/fail.lua")
	wantCode(t, code, exitFailed, errOut)
	want := strings.Join([]string{
		"PASS testdata/pass.lua:5 three processes",
		"PASS testdata/pass.lua:6 time never runs backwards",
		"PASS testdata/fail.lua:4 this one holds",
		"FAIL testdata/fail.lua:5 four processes (wrong on purpose)",
		"3 passed, 1 failed",
		"",
	}, "\n")
	if out != want {
		t.Errorf("check printed:\n%s\nwant:\n%s", out, want)
	}
	code, out, errOut = dsim(t, "check", "testdata/pass.lua")
	wantCode(t, code, exitOK, errOut)
	if !strings.HasSuffix(out, "\n2 passed, 0 failed\n") {
		t.Errorf("want the closing line 2 passed, 0 failed, got:\n%s", out)
	}
}

func TestCheckShowsProperties(t *testing.T) {
	code, out, errOut := dsim(t, "check", "testdata/mutex.lua")
	wantCode(t, code, exitOK, errOut)
	want := strings.Join([]string{
		"PASS testdata/mutex.lua:7 mutex.ordering: 2 entries in (req_ts, id) order",
		"PASS testdata/mutex.lua:3 mutex.safety: at most one process in the critical section at every event (2 entries)",
		"PASS testdata/mutex.lua:3 mutex.liveness: every request of a process that stayed up was granted by t=7 (2 requests)",
		"3 passed, 0 failed",
		"",
	}, "\n")
	if out != want {
		t.Errorf("check printed:\n%s\nwant:\n%s", out, want)
	}
}

func TestCheckJUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.xml")
	code, _, errOut := dsim(t, "check", "--junit", path, "testdata/fail.lua", "testdata/error.lua")
	wantCode(t, code, exitError, errOut)
	var got junitSuites
	data := readFile(t, path)
	if err := xml.Unmarshal(data, &got); err != nil {
		t.Fatalf("not JUnit XML: %v\n%s", err, data)
	}
	if got.Tests != 4 || got.Failures != 1 || got.Errors != 1 || len(got.Suites) != 2 {
		t.Fatalf("want 4 tests (2+1 checks, 1 script error), 1 failure, 1 error in 2 suites, got %+v", got)
	}
	if c := got.Suites[0].Cases[1]; c.Failure == nil || c.Failure.Message != "testdata/fail.lua:5: four processes (wrong on purpose)" {
		t.Errorf("the failing case should carry file:line and the message, got %+v", c)
	}
	if c := got.Suites[1].Cases[1]; c.Error == nil || !strings.HasPrefix(c.Error.Message, "testdata/error.lua:5: ") {
		t.Errorf("the script error case should carry file:line, got %+v", c)
	}
}

func TestScriptErrorExit2(t *testing.T) {
	for _, cmd := range []string{"run", "check"} {
		t.Run(cmd, func(t *testing.T) {
			code, out, errOut := dsim(t, cmd, "testdata/error.lua")
			wantCode(t, code, exitError, errOut)
			if !strings.HasPrefix(errOut, "testdata/error.lua:5: ") {
				t.Errorf("want the error as FILE:LINE: message on stderr, got %q", errOut)
			}
			// What ran before the error is still reported.
			if cmd == "check" && !strings.Contains(out, "PASS testdata/error.lua:4 recorded before the error") {
				t.Errorf("check should still list the expectations met before the error:\n%s", out)
			}
			// ... and the error itself counts as a failure in the summary.
			if cmd == "check" && (!strings.Contains(out, "\nERROR testdata/error.lua:5: ") || !strings.HasSuffix(out, "\n1 passed, 1 failed\n")) {
				t.Errorf("check should list the error and count it as failed:\n%s", out)
			}
			if cmd == "run" && !strings.Contains(out, "check PASS recorded before the error") {
				t.Errorf("run should still print the trace up to the error:\n%s", out)
			}
		})
	}
}

func TestUnknownAlgorithm(t *testing.T) {
	code, _, errOut := dsim(t, "run", "testdata/unknown-algo.lua")
	wantCode(t, code, exitError, errOut)
	if !strings.HasPrefix(errOut, "testdata/unknown-algo.lua:3: ") || !strings.Contains(errOut, "election.nope") {
		t.Errorf("want FILE:LINE naming the unknown algorithm, got %q", errOut)
	}
	code, _, errOut = dsim(t, "list", "election.nope")
	wantCode(t, code, exitError, errOut)
	if !strings.Contains(errOut, "election.nope") || !strings.Contains(errOut, "election.changroberts") {
		t.Errorf("list NAME should name the unknown algorithm and the known ones, got %q", errOut)
	}
}

func TestBadUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{nil, "usage: dsim <command>"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"run"}, "want exactly one scenario file, got 0"},
		{[]string{"run", "a.lua", "b.lua"}, "want exactly one scenario file, got 2"},
		{[]string{"run", "--bogus", "testdata/pass.lua"}, "flag provided but not defined: -bogus"},
		{[]string{"run", "--seed", "x", "testdata/pass.lua"}, `invalid value "x" for flag -seed`},
		{[]string{"run", "--format", "xml", "testdata/pass.lua"}, `unknown format "xml"`},
		{[]string{"check"}, "no scenario files given"},
		{[]string{"api", "extra"}, "takes no arguments"},
		{[]string{"list", "a", "b"}, "want at most one algorithm or family name"},
	} {
		code, out, errOut := dsim(t, c.args...)
		if code != exitError || !strings.Contains(errOut, c.says) || out != "" {
			t.Errorf("dsim %q: exit %d, stdout %q, stderr %q; want exit 2 and stderr saying %q", c.args, code, out, errOut, c.says)
		}
	}
}

func TestMissingFile(t *testing.T) {
	code, _, errOut := dsim(t, "run", "testdata/no-such.lua")
	wantCode(t, code, exitError, errOut)
	if !strings.Contains(errOut, "testdata/no-such.lua") || !strings.Contains(strings.ToLower(errOut), "no such file") {
		t.Errorf("want an error naming the file, got %q", errOut)
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := dsim(t, "help")
	if code != exitOK || !strings.Contains(out, "run FILE [--seed N] [--memory MiB] [--instructions N] [--format text|jsonl|shiviz]") {
		t.Errorf("help: exit %d, %q", code, out)
	}
	code, _, errOut := dsim(t, "run", "-h")
	if code != exitOK || !strings.Contains(errOut, "usage: dsim run FILE") {
		t.Errorf("run -h: exit %d, stderr %q", code, errOut)
	}
}

func TestList(t *testing.T) {
	code, out, errOut := dsim(t, "list")
	wantCode(t, code, exitOK, errOut)
	var want []string
	for _, s := range algo.All() {
		want = append(want, s.Name+" — "+s.Summary)
		// The overview's line and the algorithm's own say how large a
		// world fits the default memory budget, traced and not.
		traced, untraced := script.LargestN(s, script.CLI.Memory, true), script.LargestN(s, script.CLI.Memory, false)
		if traced < 1 || untraced < traced {
			t.Errorf("%s: largest n %d traced, %d untraced", s.Name, traced, untraced)
		}
		overview := regexp.MustCompile(fmt.Sprintf(`(?m)^    %s +%d +%d$`, regexp.QuoteMeta(s.Name), traced, untraced))
		if !overview.MatchString(out) {
			t.Errorf("dsim list has no overview line %q", overview)
		}
		want = append(want, fmt.Sprintf("\n  largest n: %d, %d with trace = false (about ", traced, untraced))
		for _, p := range s.Config {
			want = append(want, p.Name)
		}
		for _, c := range s.Commands {
			want = append(want, c.Name)
		}
		for _, m := range s.Messages {
			want = append(want, m.Kind())
		}
	}
	// The overview groups the algorithms under their families' titles.
	for _, s := range algo.All() {
		if algo.FamilyTitle(s.Family()) == "" {
			t.Errorf("%s: its family %s is not declared (algo.DeclareFamily)", s.Name, s.Family())
		}
		want = append(want, "\n  "+s.Family()+": "+algo.FamilyTitle(s.Family())+"\n")
	}
	for _, k := range topo.Kinds {
		want = append(want, k.Name+" ", k.Doc)
	}
	want = append(want, "uniform", "exponential, exp", "pareto, longtail")
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("dsim list does not mention %q", w)
		}
	}
	if len(algo.All()) == 0 {
		t.Error("no algorithm is registered in the CLI")
	}
	code, one, errOut := dsim(t, "list", "election.changroberts")
	wantCode(t, code, exitOK, errOut)
	if !strings.HasPrefix(one, "election.changroberts — ") || strings.Contains(one, "TOPOLOGIES") {
		t.Errorf("list NAME should show that algorithm only, got:\n%s", one)
	}
	cr, _ := algo.Lookup("election.changroberts")
	if n := script.LargestN(cr, script.CLI.Memory, true); !strings.Contains(one, fmt.Sprintf("\n  largest n: %d, ", n)) {
		t.Errorf("list NAME should show the largest n, %d, got:\n%s", n, one)
	}
	// a family: each of its algorithms in full, in order, and no other
	code, fam, errOut := dsim(t, "list", "order")
	wantCode(t, code, exitOK, errOut)
	var heads []string
	for _, l := range strings.Split(fam, "\n") {
		if name, _, ok := strings.Cut(l, " — "); ok && !strings.HasPrefix(l, " ") {
			heads = append(heads, name)
		}
	}
	if strings.Join(heads, " ") != "order.causal order.fifo order.total" || !strings.Contains(fam, "hold-back") {
		t.Errorf("list FAMILY should show order.causal, order.fifo and order.total in full, got %v:\n%s", heads, fam)
	}
}

func TestAPI(t *testing.T) {
	code, out, errOut := dsim(t, "api")
	wantCode(t, code, exitOK, errOut)
	if out != script.Reference() {
		t.Error("dsim api must print script.Reference()")
	}
}

func TestBenchQuick(t *testing.T) {
	code, out, errOut := dsim(t, "bench", "--quick", "--runs", "2")
	wantCode(t, code, exitOK, errOut)
	for _, row := range []string{"best of 2 runs", "kernel, token ring", "M msgs/s", "allocs/event", "Chang-Roberts, all initiating", `Lua on("deliver") hook`, "ns/event", "JSONL tracing slowdown"} {
		if !strings.Contains(out, row) {
			t.Errorf("the bench table lacks %q:\n%s", row, out)
		}
	}
	code, _, errOut = dsim(t, "bench", "--runs", "0")
	wantCode(t, code, exitError, errOut)
	if !strings.Contains(errOut, "--runs must be between 1 and 100, got 0") {
		t.Errorf("--runs 0: %s", errOut)
	}
}
