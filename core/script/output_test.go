package script

import (
	"fmt"
	"strings"
	"testing"

	"dsim/core/trace"
)

// A run's output stops at its limit, a quarter of the memory budget: the
// lines printed before stay whole, and the error names the call that would
// have gone past.
func TestOutputIsBounded(t *testing.T) {
	opt := Options{Seed: 1, MaxMemory: 32 << 20}
	limit := 8 << 20
	_, out, err := run(t, "local s = (\"x\"):rep(1000)\nfor i = 1, 1e6 do\n  print(i, s)\nend", opt)
	e := scriptError(t, err)
	if e.Line != 3 || !strings.HasPrefix(e.Msg, "output limit of 8 MiB reached: print would take the run's output") {
		t.Errorf("error %v, want the output limit at line 3", err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(out) > limit || len(out) < limit-1100 {
		t.Errorf("%d bytes printed, want up to the limit of %d", len(out), limit)
	}
	for i, l := range lines {
		if want := fmt.Sprintf("%d\t%s", i+1, strings.Repeat("x", 1000)); l != want {
			t.Fatalf("line %d: %q..., want whole lines", i+1, l[:min(len(l), 20)])
		}
	}
	// The CLI's budget allows 16 MiB, and expect's messages count.
	_, _, err = run(t, "local s = (\"x\"):rep(60000)\nfor i = 1, 1e6 do expect(true, s) end")
	if e := scriptError(t, err); e.Line != 2 || !strings.HasPrefix(e.Msg, "output limit of 16 MiB reached: expect would take") {
		t.Errorf("error %v, want the output limit of expect at line 2", err)
	}
}

// report cuts a long cell, and refuses a table that would pass the output
// limit before printing any of it.
func TestReportIsBounded(t *testing.T) {
	_, out := mustRun(t, `report({{name = ("é"):rep(150), n = 1}, {name = "b", n = 22}}, {"name", "n"})`)
	cut := strings.Repeat("é", 100) + "..."
	want := lines(
		"name"+strings.Repeat(" ", len(cut)-4)+"   n",
		strings.Repeat("-", len(cut))+"  --",
		cut+"   1",
		"b"+strings.Repeat(" ", len(cut)-1)+"  22")
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	_, out, err := run(t, "print('before')\nlocal row, rows = {a = ('x'):rep(1000)}, {}\nfor i = 1, 200000 do rows[i] = row end\nreport(rows)")
	if e := scriptError(t, err); e.Line != 4 || !strings.HasPrefix(e.Msg, "output limit of 16 MiB reached: report would take") {
		t.Errorf("error %v, want the output limit at line 4", err)
	}
	if out != "before\n" {
		t.Errorf("output %q, want only what came before the report", out)
	}
}

// The worlds a script builds add up: the admission refuses the first that
// would take the estimates of all of them past the budget, and names them.
func TestAdmissionCountsTheWorldsBuilt(t *testing.T) {
	spec := mustLookup(t, "mutex.ricartagrawala")
	each := MemoryEstimate(spec, 1000, true)
	budget := uint64(32 << 20)
	fit := int(budget / each)
	res, _, err := run(t, "for i = 1, 1000 do\n  sim.world{algorithm = \"mutex.ricartagrawala\", n = 1000}\nend", Options{Seed: 1, MaxMemory: budget})
	e := scriptError(t, err)
	want := fmt.Sprintf("sim.world: mutex.ricartagrawala with n = 1000 needs about %s, and the %d worlds built before it hold about %s: together more than the memory budget of 32 MiB (every world is kept until the script ends)",
		formatBytes(each), fit, formatBytes(each*uint64(fit)))
	if e.Line != 2 || e.Msg != want {
		t.Errorf("error %v,\nwant at line 2: %s", err, want)
	}
	if len(res.Worlds) != fit {
		t.Errorf("%d worlds built, want the %d that fit", len(res.Worlds), fit)
	}
}

// The texts the kernel records for a script's values are bounded: a long
// string argument is quoted in part, a partition shows the first ids of
// each group.
func TestEventTextsAreBounded(t *testing.T) {
	res, _ := mustRun(t, `
local w = sim.world{algorithm = "election.changroberts", n = 300}
local a, b = {}, {}
for i = 1, 150 do a[i] = i; b[i] = i + 150 end
w:partition(a, b)
w = sim.world{algorithm = "mutex.raymond", n = 3}
pcall(w.command, w, 1, "request", {x = ("y"):rep(1000)})
local args = {}
for i = 1, 1000 do args["k" .. i] = i end
pcall(w.command, w, 2, "request", args)`)
	var texts []string
	for _, w := range res.Worlds {
		w.Each(func(e *trace.Event) {
			if e.Type == trace.Partition || e.Type == trace.Command {
				texts = append(texts, e.Text)
			}
		})
	}
	if len(texts) != 3 {
		t.Fatalf("texts %q, want a partition and two commands", texts)
	}
	if !strings.HasSuffix(texts[0], ",64,... (150 in all)] | [151,152,153,154,155,156,157,158,159,160,161,162,163,164,165,166,167,168,169,170,171,172,173,174,175,176,177,178,179,180,181,182,183,184,185,186,187,188,189,190,191,192,193,194,195,196,197,198,199,200,201,202,203,204,205,206,207,208,209,210,211,212,213,214,... (150 in all)]") {
		t.Errorf("partition text %q", texts[0])
	}
	if want := "x=" + trace.Quote(strings.Repeat("y", 1000)); texts[1] != want {
		t.Errorf("command text %q, want %q", texts[1], want)
	}
	if len(texts[2]) > 1<<10+4 || !strings.HasSuffix(texts[2], " ...") {
		t.Errorf("command text of %d bytes, want it cut at 1 KiB", len(texts[2]))
	}
}

// Go work done on a script's tables counts against the instruction budget:
// the ids w:partition regroups, the entries of an injected message's map.
func TestConversionsAreCharged(t *testing.T) {
	opt := Options{Seed: 1, Budget: 1_000_000}
	_, _, err := run(t, `local w = sim.world{algorithm = "election.changroberts", n = 2000, trace = false}
local a, b = {}, {}
for i = 1, 1000 do a[i] = i; b[i] = i + 1000 end
for i = 1, 1000 do w:partition(a, b) end`, opt)
	if e := scriptError(t, err); e.Line != 4 || e.Msg != "instruction budget of 1000000 exhausted (in w:partition)" {
		t.Errorf("error %v, want the budget spent in w:partition at line 4", err)
	}
	_, _, err = run(t, `local w = sim.world{algorithm = "mutex.ricartagrawala2", n = 3, checks = {}, trace = false}
local token = {}
for i = 1, 10000 do token[i] = i end
for i = 1, 1000 do w:inject{from = 1, to = 2, kind = "TOKEN", token = token} end`, opt)
	if e := scriptError(t, err); e.Line != 4 || e.Msg != "instruction budget of 1000000 exhausted (converting tables)" {
		t.Errorf("error %v, want the budget spent converting tables at line 4", err)
	}
}

// Options.Report hears of each table as it is printed: its cells, header
// first, which columns hold numbers, and the very text that follows in the
// output.
func TestReportHook(t *testing.T) {
	type table struct {
		cells   [][]string
		numeric []bool
		text    string
	}
	var got []table
	opt := Options{Seed: 1, Report: func(cells [][]string, numeric []bool, text string) {
		got = append(got, table{cells, numeric, text})
	}}
	_, out, err := run(t, `print("before")
report({{algo = "bully", msgs = 12}, {algo = "ring", msgs = 7.5}}, {"algo", "msgs"})
report({})
print("after")`, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d tables reported, want 1 (an empty report prints nothing)", len(got))
	}
	tb := got[0]
	if fmt.Sprint(tb.cells) != "[[algo msgs] [bully 12] [ring 7.5]]" || fmt.Sprint(tb.numeric) != "[false true]" {
		t.Errorf("cells %v, numeric %v", tb.cells, tb.numeric)
	}
	if out != "before\n"+tb.text+"after\n" {
		t.Errorf("output %q does not hold the table's text %q between the prints", out, tb.text)
	}
}
