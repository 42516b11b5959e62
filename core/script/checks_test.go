package script

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/check"
	"dsim/core/trace"
)

// propertyChecks are the checks the worlds recorded at the end.
func propertyChecks(res *Result) []Check {
	var out []Check
	for _, c := range res.Checks {
		if c.Property != "" {
			out = append(out, c)
		}
	}
	return out
}

func TestPropertiesRecordedAtTheEnd(t *testing.T) {
	res, _ := mustRun(t, `
expect(true, "first")
local w = sim.world{algorithm="mutex.test", n=3}
w:command(2, "request", {duration=5})
w:command(3, "request", {duration=5})
w:run()`)
	want := []Check{
		{World: 1, Line: 3, Pass: true, Property: "mutex.safety", Text: "mutex.safety: at most one process in the critical section at every event (2 entries)"},
		{World: 1, Line: 3, Pass: true, Property: "mutex.liveness", Text: "mutex.liveness: every request of a process that stayed up was granted by t=15 (2 requests)"},
		{World: 1, Line: 3, Pass: true, Property: "mutex.ordering", Text: "mutex.ordering: 2 entries in (req_ts, id) order"},
	}
	got := propertyChecks(res)
	if len(res.Checks) != 4 || res.Checks[0].Text != "first" || len(got) != 3 {
		t.Fatalf("checks %+v", res.Checks)
	}
	evs := worldEvents(res, 0)
	for i, c := range got {
		seq := c.Seq
		c.Seq = 0
		if c != want[i] {
			t.Errorf("check %d: got %+v\nwant %+v", i, c, want[i])
		}
		e := evs[seq]
		if e.Type != trace.Check || e.Text != want[i].Text || e.Pass != want[i].Pass || e.Line != 3 {
			t.Errorf("check %d: the trace has %+v at seq %d", i, e, seq)
		}
	}
}

// partitioned cuts 1, 2, 3 off from their coordinator 6; 1's probe goes
// unanswered, so its side elects 3 while 4, 5, 6 keep 6.
const partitioned = `
local w = sim.world{algorithm="election.bully", n=6, config={leader=6, T=5, T2=20}}
w:partition({1, 2, 3}, {4, 5, 6})
w:command(1, "probe")
w:run{until_time=100}`

func TestPropertyFailures(t *testing.T) {
	cases := []struct{ name, src, property, text string }{
		{"safety names the event and both processes", `
local w = sim.world{algorithm="mutex.test", n=3, config={unsafe=true}}
w:command(1, "request", {duration=5})
w:at(2, function() w:command(3, "request") end)
w:run()`, "mutex.safety", "mutex.safety: t=2 seq=8: processes 1 and 3 are both in the critical section (3 entered while 1 held it since t=0)"},
		{"liveness names the waiting processes", `
local w = sim.world{algorithm="mutex.test", n=3}
w:crash(1)
w:command(2, "request")
w:command(2, "request")
w:run()`, "mutex.liveness", "mutex.liveness: at t=5, 1 process(es) still waiting: 2 (wanted since t=0, 1 more in its backlog since t=0)"},
		{"ordering: a later request with an earlier stamp", `
local w = sim.world{algorithm="mutex.test", n=3}
w:clock(3, {offset=-10})
w:command(2, "request", {duration=5})
w:after(1, function() w:command(3, "request", {duration=5}) end)
w:run()`, "mutex.ordering", "mutex.ordering: t=9 seq=22: process 3 entered with (req_ts=-9, id=3) after process 2 entered at t=2 seq=14 with (req_ts=0, id=2)"},
		{"two leaders after a partition", partitioned, "election.one_leader",
			"election.one_leader: at t=100, 2 live processes have role leader: 3 (since t=11 seq=54), 6 (since t=0 seq=15)"},
		{"the sides of a partition follow their own leaders", partitioned, "election.agreement",
			"election.agreement: at t=100, the live processes do not agree on a leader: 1, 2, 3 follow 3 (since t=12 seq=61); 4, 5, 6 follow 6 (since t=0 seq=14)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := mustRun(t, tc.src)
			for _, c := range propertyChecks(res) {
				if c.Property == tc.property {
					if c.Pass || c.Text != tc.text {
						t.Errorf("got pass=%v %q\nwant %q", c.Pass, c.Text, tc.text)
					}
					return
				}
			}
			t.Errorf("no %s check in %+v", tc.property, res.Checks)
		})
	}
}

func TestChecksKey(t *testing.T) {
	res, _ := mustRun(t, `
local a = sim.world{algorithm="mutex.test", n=2, checks={"mutex.liveness"}}
local b = sim.world{algorithm="mutex.test", n=2, checks={}}
local c = sim.world{algorithm="test.echo", n=2}
print(a:check("mutex.safety"))`)
	got := propertyChecks(res)
	if len(got) != 1 || got[0].Property != "mutex.liveness" || got[0].World != 1 || got[0].Line != 2 {
		t.Errorf("checks %+v", res.Checks)
	}
	for _, tc := range []struct{ src, err string }{
		{`sim.world{algorithm="mutex.test", n=2, checks={"mutex.fairness"}}`,
			`t.lua:1: sim.world: checks: no checker for "mutex.fairness" (known: election.agreement, election.highest, election.one_leader, mutex.safety, mutex.liveness, mutex.ordering, clock.lamport, clock.vector, clock.skew, clock.accuracy, clock.monotonic, snapshot.consistent, snapshot.conserved, order.fifo, order.causal, order.total, agreement.ic1, agreement.ic2)`},
		{`sim.world{algorithm="mutex.test", n=2, checks={"election.agreement"}}`,
			`t.lua:1: sim.world: checks: "election.agreement" does not apply to mutex.test, which declares mutex.safety, mutex.liveness, mutex.ordering`},
		{`sim.world{algorithm="test.echo", n=2, checks={"mutex.safety"}}`,
			`t.lua:1: sim.world: checks: "mutex.safety" does not apply to test.echo, which declares no properties`},
		{`sim.world{algorithm="mutex.test", n=2, checks={"mutex.safety", "mutex.safety"}}`,
			`t.lua:1: sim.world: checks: "mutex.safety" is listed twice`},
		{`sim.world{algorithm="mutex.test", n=2, checks="mutex.safety"}`,
			`t.lua:1: sim.world: checks: want a list`},
		{`local w = sim.world{algorithm="test.echo", n=2} w:check("mutex.safety")`,
			`t.lua:1: w:check: test.echo declares no property, so nothing watched this world`},
		{`local w = sim.world{algorithm="mutex.test", n=2} w:check("mutex.fairness")`,
			`t.lua:1: w:check: no checker for "mutex.fairness"`},
	} {
		_, _, err := run(t, tc.src)
		if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("%s:\ngot  %v\nwant %s...", tc.src, err, tc.err)
		}
	}
}

func TestCheckMethodRecordsNothingItself(t *testing.T) {
	res, out := mustRun(t, `
local w = sim.world{algorithm="mutex.test", n=3, config={unsafe=true}, checks={}}
w:command(1, "request")
print(w:check("mutex.safety"))
w:command(2, "request")
local ok, why = w:check("mutex.safety")
expect(not ok, "caught: " .. why)
expect(w:check("mutex.liveness"))`)
	if out != "true\tmutex.safety: at most one process in the critical section at every event (1 entries)\n" {
		t.Errorf("printed %q", out)
	}
	want := []string{
		"caught: mutex.safety: t=0 seq=7: processes 1 and 2 are both in the critical section (2 entered while 1 held it since t=0)",
		"mutex.liveness: every request of a process that stayed up was granted by t=0 (2 requests)",
	}
	if len(res.Checks) != 2 || res.Checks[0].Text != want[0] || res.Checks[1].Text != want[1] || !res.Checks[0].Pass || !res.Checks[1].Pass {
		t.Errorf("checks %+v", res.Checks)
	}
}

func TestChecksRecordedWhenTheScriptFails(t *testing.T) {
	res, _, err := run(t, `
local w = sim.world{algorithm="mutex.test", n=2, config={unsafe=true}}
w:command(1, "request")
w:command(2, "request")
error("stop here")`)
	if err == nil || err.Error() != "t.lua:5: stop here" {
		t.Fatalf("error %v", err)
	}
	got := propertyChecks(res)
	if len(got) != 3 || got[0].Pass || !strings.HasPrefix(got[0].Text, "mutex.safety: t=0 seq=7: processes 1 and 2") {
		t.Errorf("checks %+v", res.Checks)
	}
}

func TestChecksWithoutTrace(t *testing.T) {
	src := `
local w = sim.world{algorithm="mutex.test", n=3, config={unsafe=true}, trace=false}
w:on("check", function(ev) print("hooks are over") end)
w:command(1, "request")
w:command(3, "request")`
	for _, opt := range []Options{{Seed: 1}, {Seed: 1, NoTrace: true}} {
		res, out := mustRun(t, src, opt)
		got := propertyChecks(res)
		if out != "" || len(got) != 3 || got[0].Pass || got[0].Seq != 8 ||
			got[0].Text != "mutex.safety: t=0 seq=7: processes 1 and 3 are both in the critical section (3 entered while 1 held it since t=0)" {
			t.Errorf("NoTrace=%v: printed %q, checks %+v", opt.NoTrace, out, got)
		}
	}
}

func TestCSStats(t *testing.T) {
	// One uncontended request of process 2, coordinator 1, latency 1:
	// REQUEST at 0 arrives at 1, GRANT arrives at 2, the critical section
	// lasts 5, RELEASE: 3 messages, waiting 2, response 7.
	_, out := mustRun(t, `
local w = sim.world{algorithm="mutex.test", n=3}
print(w:stats().cs.entries, w:stats().cs.per_entry, w:stats().cs.throughput)
w:command(2, "request", {duration=5})
w:run()
local cs = w:stats().cs
print(cs.requests, cs.entries, cs.messages, cs.per_entry, cs.by_kind.REQUEST, cs.by_kind.GRANT, cs.by_kind.RELEASE)
print(cs.waiting, cs.response, cs.sync_delay, string.format("%.3f", cs.throughput))
w:command(3, "request", {duration=4})
w:command(2, "request", {duration=4})
w:run()
cs = w:stats().cs
print(cs.entries, cs.per_entry, cs.waiting, cs.response, cs.sync_delay, cs.throughput)
print(sim.world{algorithm="test.echo", n=2}:stats().cs)`)
	want := lines(
		"0\tnil\tnil",
		"1\t1\t3\t3\t1\t1\t1",
		"2\t7\tnil\t142.857",
		// 3 then 2 ask at 8: 3's REQUEST reaches the idle coordinator first,
		// 3 enters at 10 and leaves at 14; its RELEASE arrives at 15, the
		// GRANT reaches 2 at 16 (waiting since 8: sync delay 16-14), and 2
		// leaves at 20. Waiting (2+2+8)/3, response (7+6+12)/3, 3000/20.
		"3\t3\t4\t8.333333333333334\t2\t150",
		"nil")
	if out != want {
		t.Errorf("got\n%swant\n%s", out, want)
	}
}

func TestWorkload(t *testing.T) {
	src := `
-- the coordinator grants in arrival order, not in stamp order, when idle
local w = sim.world{algorithm="mutex.test", n=4, latency={"uniform", 1, 3}, checks={"mutex.safety", "mutex.liveness"}}
w:workload{rate=0.01, cs=3, until_time=5000, nodes={2, 3, 4}, start=100}
local first, last, ids = nil, 0, {}
w:on("command", function(ev)
  first = first or ev.t
  last = ev.t
  ids[ev.node] = true
  assert(ev.name == "request" and ev.args == "duration=3" and ev.line == 4)
end)
w:run()
local cs = w:stats().cs
print(cs.requests > 100 and cs.requests < 200, first >= 100, last < 5000, ids[1], ids[2], ids[3], ids[4])
print(cs.requests == w:count{type="command"}, cs.entries == cs.requests)`
	res, out := mustRun(t, src)
	if out != lines("true\ttrue\ttrue\tnil\ttrue\ttrue\ttrue", "true\ttrue") {
		t.Errorf("printed\n%s", out)
	}
	if len(propertyChecks(res)) != 2 {
		t.Errorf("checks %+v", res.Checks)
	}
	for _, c := range propertyChecks(res) {
		if !c.Pass {
			t.Errorf("%+v", c)
		}
	}
	again, _ := mustRun(t, src)
	other, _ := mustRun(t, src, Options{Seed: 2, SeedSet: true})
	if jsonl(t, again) != jsonl(t, res) {
		t.Error("the same seed gave another trace")
	}
	if jsonl(t, other) == jsonl(t, res) {
		t.Error("another seed gave the same trace")
	}
}

func TestWorkloadSkipsDownProcesses(t *testing.T) {
	res, _ := mustRun(t, `
local w = sim.world{algorithm="mutex.test", n=3}
w:crash(2)
w:workload{rate=1, cs=1, until_time=40, nodes={2}}
w:run()
print(w:count{type="command"})`)
	n := 0
	for _, e := range worldEvents(res, 0) {
		switch {
		case e.Type == trace.Command:
			t.Errorf("a command reached a down process: %+v", e)
		case e.Type == trace.Log && e.Text == "workload: process 2 is down, its request is skipped" && e.Line == 4:
			n++
		}
	}
	if n < 20 {
		t.Errorf("%d skipped requests logged", n)
	}
}

func TestWorkloadErrors(t *testing.T) {
	for _, tc := range []struct{ args, err string }{
		{`{cs=1, until_time=10}`, "w:workload: the key rate is required"},
		{`{rate=1, until_time=10}`, "w:workload: the key cs is required"},
		{`{rate=1, cs=1}`, "w:workload: the key until_time is required"},
		{`{rate=0, cs=1, until_time=10}`, "w:workload: rate: want requests per tick per process, more than 0 and at most 1000, got 0"},
		{`{rate=1001, cs=1, until_time=10}`, "w:workload: rate: want requests per tick per process, more than 0 and at most 1000, got 1001"},
		{`{rate="x", cs=1, until_time=10}`, "w:workload: rate: want a number"},
		{`{rate=1, cs=0, until_time=10}`, "w:workload: cs: want the ticks each request holds the critical section, at least 1, got 0"},
		{`{rate=1, cs=1.5, until_time=10}`, "w:workload: cs: want an integer"},
		{`{rate=1, cs=1, until_time=10, start=20}`, "w:workload: until_time 10 is not after the start 20"},
		{`{rate=1, cs=1, until_time=10, nodes={1, 9}}`, "w:workload: nodes: no process 9 (ids: 1, 2, 3)"},
		{`{rate=1, cs=1, until_time=10, nodes={1, 1}}`, "w:workload: nodes: process 1 is listed twice"},
		{`{rate=1000, cs=3, until_time=1e9}`, "w:workload: rate 1000 for 1000000000 ticks on 3 processes asks for about 3000000000000 requests, more than the 1000000 a run can serve; lower rate, until_time or nodes"},
		{`{rate=1, cs=1, until_time=10, duration=3}`, `w:workload: unknown key "duration" (known: rate, cs, until_time, nodes, start)`},
	} {
		_, _, err := run(t, `local w = sim.world{algorithm="mutex.test", n=3}
w:workload`+tc.args)
		if err == nil || !strings.HasPrefix(err.Error(), "t.lua:2: "+tc.err) {
			t.Errorf("%s:\ngot  %v\nwant t.lua:2: %s", tc.args, err, tc.err)
		}
	}
	_, _, err := run(t, `local w = sim.world{algorithm="mutex.test", n=3}
w:run{until_time=50}
w:workload{rate=1, cs=1, until_time=100, start=10}`)
	if err == nil || err.Error() != "t.lua:3: w:workload: start: time 10 is in the past (now is 50)" {
		t.Errorf("got %v", err)
	}
	_, _, err = run(t, `local w = sim.world{algorithm="test.echo", n=3}
w:workload{rate=1, cs=1, until_time=100}`)
	if err == nil || err.Error() != "t.lua:2: w:workload: test.echo has no request command" {
		t.Errorf("got %v", err)
	}
}

// TestEveryPropertyInScripts has a world of an algorithm promising each
// registered property name it in checks and judge it with w:check.
func TestEveryPropertyInScripts(t *testing.T) {
	for _, c := range check.Checkers() {
		i := slices.IndexFunc(algo.All(), func(s *algo.Spec) bool { return slices.Contains(s.Properties, c.Property) })
		if i < 0 {
			t.Errorf("no registered algorithm promises %s", c.Property)
			continue
		}
		res, _ := mustRun(t, fmt.Sprintf(`local w = sim.world{algorithm=%q, n=3, checks={%q}}
local ok, text = w:check(%[2]q)
assert(type(ok) == "boolean" and text:find(%[2]q, 1, true) == 1)`, algo.All()[i].Name, c.Property))
		if got := propertyChecks(res); len(got) != 1 || got[0].Property != string(c.Property) {
			t.Errorf("%s: recorded %+v", c.Property, got)
		}
	}
}
