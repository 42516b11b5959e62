//go:build js && wasm

package main

import (
	"bytes"
	"reflect"
	"strings"
	"syscall/js"
	"testing"

	"dsim/core/trace"
	tracewindow "dsim/wasm/window"
)

const bully = `
local w = sim.world{algorithm = "election.bully", n = 3, topology = "complete"}
w:node(1):command("elect")
w:run()
print("leader", w:agreed("leader"))
expect(w:agreed("leader") == 3, "3 leads")
expect(false, "a failing check")
report({{algo = "bully", leader = w:agreed("leader")}}, {"algo", "leader"})
`

func TestExecute(t *testing.T) {
	r, worlds := execute(RunRequest{Name: "b.lua", Src: bully, Seed: 1}, nil)
	if r.Err != nil {
		t.Fatalf("script error: %v", r.Err)
	}
	if !strings.HasPrefix(r.Output, "leader\t3\n") {
		t.Errorf("output %q", r.Output)
	}
	// The table report printed is where the result says, with its cells.
	if len(r.Reports) != 1 {
		t.Fatalf("%d reports, want 1", len(r.Reports))
	}
	if rep := r.Reports[0]; rep.At != len("leader\t3\n") || rep.At+rep.Len != len(r.Output) ||
		!reflect.DeepEqual(rep.Cells, [][]string{{"algo", "leader"}, {"bully", "3"}}) || !reflect.DeepEqual(rep.Numeric, []bool{false, true}) {
		t.Errorf("report %+v in output %q", rep, r.Output)
	}
	jsonl := text(t, worlds, -1, formatJSONL)
	if !strings.HasPrefix(jsonl, `{"type":"world",`) || strings.Count(jsonl, "\n") < 10 {
		t.Errorf("JSONL does not look like a trace: %.80q", jsonl)
	}
	// The summary counts what the trace holds.
	var sent, delivered int
	for _, line := range strings.Split(jsonl, "\n") {
		sent += strings.Count(line, `"type":"send"`)
		delivered += strings.Count(line, `"type":"deliver"`)
	}
	if len(r.Worlds) != 1 {
		t.Fatalf("%d world summaries, want 1", len(r.Worlds))
	}
	if w := r.Worlds[0]; w.World != 1 || w.Algorithm != "election.bully" || w.Processes != 3 || w.Events != strings.Count(jsonl, "\n")-1 ||
		w.Sent != sent || w.Delivered != delivered || w.Sent == 0 || w.End == 0 {
		t.Errorf("summary %+v; the trace has %d lines, %d sends, %d deliveries", w, strings.Count(jsonl, "\n"), sent, delivered)
	}
	if len(r.Checks) != 5 || !r.Checks[0].Pass || r.Checks[1].Pass || r.Checks[1].Line != 7 {
		t.Errorf("checks %+v, want 3 leads (pass), a failing check at line 7 and the election properties", r.Checks)
	}
	for _, c := range r.Checks[2:] {
		if !c.Pass || !strings.HasPrefix(c.Property, "election.") {
			t.Errorf("check %+v, want an election property that holds", c)
		}
	}
}

// outside crashes a process of Lamport's algorithm, which tolerates no crash.
const outside = `
local w = sim.world{algorithm = "mutex.lamport", n = 3, checks = {}}
w:crash(2)
w:run()
`

func TestExecuteWarns(t *testing.T) {
	r, worlds := execute(RunRequest{Src: outside, Seed: 1}, nil)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if len(r.Warnings) != 1 || r.Warnings[0].Line != 3 || !strings.Contains(r.Warnings[0].Text, "no crash") ||
		!strings.Contains(text(t, worlds, 0, formatJSONL), `"type":"warning"`) {
		t.Errorf("warnings %+v, want the crash at line 3, in the trace too", r.Warnings)
	}
}

func TestExecuteError(t *testing.T) {
	src := "local w = sim.world{algorithm = \"election.bully\", n = 3}\nw:run()\nprint('ran')\nlocal x = nil + 1\n"
	r, worlds := execute(RunRequest{Src: src, Seed: 1}, nil)
	if r.Err == nil || r.Err.File != "scenario.lua" || r.Err.Line != 4 {
		t.Fatalf("error %v, want one at scenario.lua:4", r.Err)
	}
	if jsonl := text(t, worlds, -1, formatJSONL); r.Output != "ran\n" || jsonl == "" {
		t.Errorf("the output (%q) and the trace up to the error (%d bytes) are kept", r.Output, len(jsonl))
	}
}

// The result crosses to the page as a JavaScript object: what the page
// reads back is what the worker sent.
func TestResultRoundTrip(t *testing.T) {
	for _, src := range []string{bully, outside, "error('boom')"} {
		r, _ := execute(RunRequest{Name: "b.lua", Src: src, Seed: 1}, nil)
		r.ID = 42
		r.Notes = []string{"world 1: a note"}
		back := resultOf(js.ValueOf(r.value()))
		if !reflect.DeepEqual(back, r) {
			t.Errorf("round trip of %q:\n got %+v\nwant %+v", src, back, r)
		}
	}
}

func TestRequestOf(t *testing.T) {
	v := js.ValueOf(map[string]any{"op": "run", "id": 9, "name": "x.lua", "src": "print(1)", "seed": 12345, "seedSet": true})
	req, id := requestOf(v)
	if want := (RunRequest{Name: "x.lua", Src: "print(1)", Seed: 12345, SeedSet: true}); req != want || id != 9 {
		t.Errorf("requestOf = %+v, %d; want %+v, 9", req, id, want)
	}
	// A page that sends no seed gets the CLI's default.
	if req, _ := requestOf(js.ValueOf(map[string]any{"src": ""})); req.Seed != 1 || req.SeedSet {
		t.Errorf("no seed: %+v, want seed 1, not forced", req)
	}
}

func TestOutputCapped(t *testing.T) {
	src := `for i = 1, 3000 do print(string.rep("x", 999)) end`
	r, _ := execute(RunRequest{Src: src, Seed: 1}, nil)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if !strings.HasSuffix(r.Output, "(output truncated)\n") || len(r.Output) > maxOutput+100 {
		t.Errorf("output of %d bytes, want at most %d and a truncation note", len(r.Output), maxOutput)
	}
}

func text(t *testing.T, worlds []trace.World, i int, format string) string {
	t.Helper()
	b, err := traceText(worlds, i, format)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The engine writes one world, or all, in either format, and names what it
// cannot write.
func TestTraceText(t *testing.T) {
	two := `for i = 1, 2 do local w = sim.world{algorithm = "election.bully", n = 3}; w:run() end`
	_, worlds := execute(RunRequest{Src: two, Seed: 1}, nil)
	all, first, second := text(t, worlds, -1, formatJSONL), text(t, worlds, 0, formatJSONL), text(t, worlds, 1, formatJSONL)
	if all != first+second || first == second {
		t.Errorf("the worlds' traces (%d and %d bytes) do not make up the run's (%d bytes)", len(first), len(second), len(all))
	}
	if shiviz := text(t, worlds, -1, formatShiViz); strings.Count(shiviz, "\n") < 10 {
		t.Errorf("ShiViz log of %d bytes", len(shiviz))
	}
	for _, c := range []struct {
		world  int
		format string
		want   string
	}{{2, formatJSONL, "no world 3"}, {-2, formatJSONL, "no world -1"}, {0, "xml", `unknown trace format "xml"`}} {
		if _, err := traceText(worlds, c.world, c.format); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("world %d as %s: error %v, want %q", c.world, c.format, err, c.want)
		}
	}
}

// A window of a world is the world's events between its bounds, after the
// earlier events that give its processes their state; a window request
// names what it wants.
func TestTraceWindow(t *testing.T) {
	_, worlds := execute(RunRequest{Src: `local w = sim.world{algorithm = "election.changroberts", n = 8}; w:command(1, "elect"); w:run()`, Seed: 1}, nil)
	win, err := windowText(worlds, WindowAsk{World: 0, At: 20, Count: 10, Procs: 100, How: tracewindow.After})
	if err != nil {
		t.Fatal(err)
	}
	if win.From != 20 || win.To != 30 || win.Start != tracewindow.StartTime(&worlds[0], 20) {
		t.Fatalf("window [%d, %d) from t=%d, want [20, 30)", win.From, win.To, win.Start)
	}
	got, err := trace.ReadJSONL(bytes.NewReader(win.JSONL))
	if err != nil || len(got) != 1 {
		t.Fatalf("window: %d worlds, %v", len(got), err)
	}
	events := got[0].Events
	if len(events) <= 10 {
		t.Fatalf("window of %d events: no prelude", len(events))
	}
	for k, e := range events[len(events)-10:] {
		if e.Seq != uint64(20+k) {
			t.Fatalf("window event %d has seq %d, want %d", k, e.Seq, 20+k)
		}
	}
	for _, e := range events[:len(events)-10] {
		if e.Seq >= 20 {
			t.Errorf("prelude event with seq %d, not before the window", e.Seq)
		}
	}
	if _, err := windowText(worlds, WindowAsk{World: 1, Count: 10, Procs: 10}); err == nil || !strings.Contains(err.Error(), "no world 2") {
		t.Errorf("window of world 2: %v", err)
	}
	for _, m := range []map[string]any{
		{"world": 0, "at": 1, "count": 2, "procs": 3, "how": "sideways"},
		{"world": 0, "at": "1", "count": 2, "procs": 3, "how": "after"},
		{"world": 0, "count": 2, "procs": 3, "how": "after"},
	} {
		if _, ok := windowAskOf(js.ValueOf(m)); ok {
			t.Errorf("window request %v accepted", m)
		}
	}
	if a, ok := windowAskOf(js.ValueOf(map[string]any{"world": 0, "at": 1, "count": 2, "procs": 3, "how": "around"})); !ok || a != (WindowAsk{At: 1, Count: 2, Procs: 3, How: tracewindow.Around}) {
		t.Errorf("window request read as %+v, %v", a, ok)
	}
	// A window at a time holds the first event at that time or later.
	end := worlds[0].End()
	a, ok := windowAskOf(js.ValueOf(map[string]any{"world": 0, "at": end, "count": 4, "procs": 100, "how": "time"}))
	if !ok || !a.Time || a.How != tracewindow.Around {
		t.Fatalf("window request at a time read as %+v, %v", a, ok)
	}
	first := tracewindow.PositionAt(&worlds[0], end)
	if win, err := windowText(worlds, a); err != nil || win.From > first || win.To <= first {
		t.Errorf("window at the end time: [%d, %d), without event %d, the first at t=%d: %v", win.From, win.To, first, end, err)
	}
}

// The overview of a whole world counts each of its events at a process
// once, and comes back from the worker protocol as it went.
func TestOverviewOfWorld(t *testing.T) {
	_, worlds := execute(RunRequest{Src: `local w = sim.world{algorithm = "election.changroberts", n = 8}; w:command(1, "elect"); w:run(); expect(false, "fails")`, Seed: 1}, nil)
	w := &worlds[0]
	g := overviewOf(w, 4, 16)
	atProcess := 0
	w.Each(func(e *trace.Event) {
		if e.Node != trace.NoNode {
			atProcess++
		}
	})
	sum := 0
	for _, c := range g.Counts {
		sum += int(c)
	}
	if g.Rows != 8 || g.Bands != 4 || g.Cols != 16 || sum != atProcess || len(g.Fails) != 1 || g.Fails[0] != 15 {
		t.Errorf("grid %d rows, %dx%d, %d events counted (want 8, 4x16, %d), failed checks in columns %v (want [15])", g.Rows, g.Bands, g.Cols, sum, atProcess, g.Fails)
	}
	back, err := gridOf(js.ValueOf(gridValue(g)))
	if err != nil || !reflect.DeepEqual(back, g) {
		t.Errorf("round trip: %+v, %v; want %+v", back, err, g)
	}
	for _, m := range []map[string]any{
		{"rows": 2, "bands": 2, "cols": 2, "max": 1, "end": 9, "counts": []any{1}, "fails": []any{}},
		{"bands": 2, "cols": 2, "counts": []any{1, 2, 3, 4}},
	} {
		if _, err := gridOf(js.ValueOf(m)); err == nil {
			t.Errorf("the malformed overview %v was read", m)
		}
	}
}
