package script

import (
	"strings"
	"testing"

	"dsim/core/trace"
)

// events lists world w's events of type typ (all types when 0) as text.
func eventsOf(res *Result, w int, typ trace.Type) []string {
	var out []string
	for _, e := range worldEvents(res, w) {
		if typ == 0 || e.Type == typ {
			out = append(out, strings.TrimSpace(string(trace.AppendText(nil, &e))))
		}
	}
	return out
}

func TestInterveneCrashesBeforeTheWorldExists(t *testing.T) {
	res, out := mustRun(t, lines(
		`sim.intervene{world=1, t=5, crash=2}`,
		`local w = sim.world{algorithm="test.echo", n=3}`,
		`w:run{until_time=20}`,
		`print(w:node(2):up(), w:node(1):up())`,
	))
	if out != "false\ttrue\n" {
		t.Errorf("up after the run: %q", out)
	}
	var crash, note *trace.Event
	evs := worldEvents(res, 0)
	for i, e := range evs {
		if e.Type == trace.Crash && crash == nil {
			crash = &evs[i]
		}
		if e.Type == trace.Log && e.Node == trace.NoNode && note == nil {
			note = &evs[i]
		}
	}
	if crash == nil || crash.Node != 2 || crash.T != 5 {
		t.Fatalf("crash event %+v, want process 2 at t=5", crash)
	}
	if note == nil || note.Text != "sim.intervene: crash 2" || note.Line != 1 || note.T != 5 || note.Seq+1 != crash.Seq {
		t.Errorf("log event before the crash: %+v", note)
	}
}

func TestInterveneRecoverAndCut(t *testing.T) {
	res, out := mustRun(t, lines(
		`sim.intervene{t=4, recover=3}`,
		`sim.intervene{cut={1, 2}}`,
		`local w = sim.world{algorithm="test.echo", n=3}`,
		`w:at(1, function() w:crash(3) end)`,
		`w:at(2, function() w:node(1):command("ping", {to=2, hops=1}) end)`,
		`w:run{until_time=10}`,
		`print(w:node(3):up())`,
	))
	if out != "true\n" {
		t.Errorf("process 3 up after the recovery: %q", out)
	}
	recovers := eventsOf(res, 0, trace.Recover)
	if len(recovers) != 1 || !strings.HasPrefix(recovers[0], "t=4 ") {
		t.Errorf("recover events %q", recovers)
	}
	drops := eventsOf(res, 0, trace.Drop)
	if len(drops) != 1 || !strings.Contains(drops[0], "partition") {
		t.Errorf("the PING over the cut link: drops %q", drops)
	}
}

func TestInterveneNamesItsWorld(t *testing.T) {
	res, _ := mustRun(t, lines(
		`sim.intervene{world=2, t=0, crash=1}`,
		`for i = 1, 2 do`,
		`  local w = sim.world{algorithm="test.echo", n=2}`,
		`  w:run{until_time=5}`,
		`end`,
		`local w3 = sim.world{algorithm="test.echo", n=2}`,
		`sim.intervene{world=3, t=2, crash=2}`, // a world that exists: from now on
		`w3:run{until_time=5}`,
	))
	for w, want := range []int{0, 1, 1} {
		if got := len(eventsOf(res, w, trace.Crash)); got != want {
			t.Errorf("world %d: %d crashes, want %d", w+1, got, want)
		}
	}
}

// A command is an intervention too: the playground's process menu writes
// one, and it changes the run as w:command would.
func TestInterveneCommand(t *testing.T) {
	run := func(pre string) (*Result, string) {
		return mustRun(t, lines(pre,
			`local w = sim.world{algorithm="election.changroberts", n=5}`,
			`w:run{until_time=100}`,
			`print(w:node(3):state().leader)`,
		))
	}
	_, out := run("")
	if out != "nil\n" {
		t.Fatalf("a leader without an election: %q", out)
	}
	res, out := run(`sim.intervene{world=1, t=2, command="elect", node=3}`)
	if out != "5\n" {
		t.Errorf("leader after the intervened elect: %q", out)
	}
	cmds := eventsOf(res, 0, trace.Command)
	if len(cmds) != 1 || !strings.HasPrefix(cmds[0], "t=2 ") || !strings.Contains(cmds[0], "elect") {
		t.Errorf("command events %q", cmds)
	}
	if logs := eventsOf(res, 0, trace.Log); len(logs) == 0 || !strings.Contains(logs[0], "sim.intervene: command elect to 3") {
		t.Errorf("log events %q", logs)
	}
}

func TestInterveneErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{`sim.intervene{t=1}`, "t.lua:1: sim.intervene: give one of crash=ID, recover=ID, cut={A, B} or command=NAME with node=ID"},
		{`sim.intervene{crash=1, cut={1, 2}}`, "t.lua:1: sim.intervene: give one of crash, recover, cut or command, not both"},
		{`sim.intervene{command="elect"}`, "t.lua:1: sim.intervene: node=ID goes with command=NAME, and only with it"},
		{`sim.intervene{crash=1, node=2}`, "t.lua:1: sim.intervene: node=ID goes with command=NAME"},
		{lines(`sim.intervene{t=2, command="fly", node=1}`, `local w = sim.world{algorithm="election.changroberts", n=3}`, `w:run{until_time=9}`),
			`t.lua:1: sim.intervene: at t=2: unknown command "fly"`},
		{`sim.intervene{crash=1, when=3}`, `t.lua:1: sim.intervene: unknown key "when"`},
		{`sim.intervene{world=0, crash=1}`, "t.lua:1: sim.intervene: world: worlds count from 1, got 0"},
		{`sim.intervene{t=-1, crash=1}`, "t.lua:1: sim.intervene: t: want a non-negative integer"},
		{`sim.intervene{cut={1, 2, 3}}`, "t.lua:1: sim.intervene: cut: want two process ids"},
		{`sim.intervene{crash="x"}`, "t.lua:1: sim.intervene: crash: want a process id"},
		{lines(`sim.intervene{crash=9}`, `sim.world{algorithm="test.echo", n=3}`),
			"t.lua:2: sim.world: sim.intervene at line 1: world 1 has no process 9"},
		{lines(`sim.intervene{t=3, crash=2}`, `local w = sim.world{algorithm="test.echo", n=3}`,
			`w:at(1, function() w:crash(2) end)`, `w:run{until_time=9}`),
			"t.lua:1: sim.intervene: at t=3: process 2 is already crashed"},
		{lines(`local w = sim.world{algorithm="test.echo", n=3}`, `w:run{until_time=9}`, `sim.intervene{t=3, crash=2}`),
			"t.lua:3: sim.intervene: time 3 is in the past of world 1 (now is 9)"},
	}
	for _, c := range cases {
		_, _, err := run(t, c.src)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s...", c.src, err, c.want)
		}
	}
}

// A fork is a rerun: the same scenario with the same intervention gives the
// same trace, and the trace before the intervention's time is the
// original's.
func TestInterveneIsDeterministicAndKeepsThePast(t *testing.T) {
	base := lines(
		`local w = sim.world{algorithm="test.echo", n=4, latency={"uniform", 1, 4}}`,
		`w:at(0, function() w:node(1):command("ping", {to=2, hops=8}) end)`,
		`w:run{until_time=40}`,
	)
	forked := "sim.intervene{world=1, t=12, crash=3}\n" + base
	a, _ := mustRun(t, base)
	b, _ := mustRun(t, forked)
	c, _ := mustRun(t, forked)
	if jsonl(t, b) != jsonl(t, c) {
		t.Fatal("the forked run differs between two runs")
	}
	fork := worldEvents(b, 0)
	for i, e := range worldEvents(a, 0) {
		if e.T >= 12 {
			break
		}
		f := fork[i]
		e.Line, f.Line = 0, 0 // the fork's line shifts the script down by one
		if string(trace.AppendJSONL(nil, &e)) != string(trace.AppendJSONL(nil, &f)) {
			t.Fatalf("event %d before the fork differs:\n%s%s", i, trace.AppendJSONL(nil, &e), trace.AppendJSONL(nil, &f))
		}
	}
	if jsonl(t, a) == jsonl(t, b) {
		t.Error("the crash changed nothing")
	}
}
