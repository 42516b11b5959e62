package script

import (
	"strings"
	"testing"

	"dsim/core/trace"
)

// TestClockCorrections corrects clocks from a scenario and reads them back
// every way the API offers: the reading, the correction history, the
// trace's clock events and the error series.
func TestClockCorrections(t *testing.T) {
	res, out := mustRun(t, `
local w = sim.world{algorithm="test.echo", n=3}
w:clock(2, {offset=5, drift=0.1})
w:on("clock", function(ev) print("ev", ev.node, ev.mode, ev.old, ev.new, ev.delta, ev.over, ev["local"]) end)
w:run{until_time=10}
print("read", w:node(2):clock(), w:now())
w:step_clock(2, 100)
w:run{until_time=20}
w:slew_clock(2, -10, 20)
w:run{until_time=60}
print("read", w:node(2):clock())
for _, c in ipairs(w:node(2):corrections()) do print("c", c.t, c.mode, c.old, c.new, c.delta, c.over) end
print(#w:node(1):corrections(), #w:events{type="clock"})
report(w:clock_errors{every=20, nodes={1, 2}})
print(pcall(w.slew_clock, w, 2, -5, 5))
print(pcall(w.clock_errors, w, {every=0}))
print(pcall(w.clock_errors, w, {every=1, to=1000}))
print(pcall(w.clock_errors, w, {every=1, to=0, from=0, nodes={9}}))
`)
	// H2(t) = 5 + t + floor(t/10): 16 at t=10, then stepped to 100; at
	// t=20 it reads 111 and slews -10 over 20 hardware ticks (t=20..38,
	// H from 27 to 47), so at t=40 it reads 111 + (H(40) - H(20)) - 10 =
	// 123 and at t=60 145.
	want := lines(
		"read\t16\t10",
		"ev\t2\tstep\t16\t100\t84\tnil\t16",
		"ev\t2\tslew\t111\t111\t-10\t20\t111",
		"read\t145",
		"c\t10\tstep\t16\t100\t84\tnil",
		"c\t20\tslew\t111\t111\t-10\t20",
		"0\t2",
		" t  P1  P2",
		"--  --  --",
		" 0   0   5",
		"20   0  91",
		"40   0  83",
		"60   0  85",
		"false\tt.lua:15: w:slew_clock: a slew of -5 over 5 ticks would stop the clock or run it backwards: it may lose less than one tick per tick",
		"false\tt.lua:16: w:clock_errors: every: want a positive number of ticks",
		"false\tt.lua:17: w:clock_errors: to: time 1000 is in the future (now is 60)",
	)
	if !strings.HasPrefix(out, want) || !strings.Contains(out, "nodes: no process 9") {
		t.Fatalf("output:\n%s\nwant it to start with:\n%s", out, want)
	}
	var clocks []trace.Event
	for _, e := range worldEvents(res, 0) {
		if e.Type == trace.Clock {
			clocks = append(clocks, e)
		}
	}
	if len(clocks) != 2 || clocks[0].Kind != "step" || clocks[1].Over != 20 {
		t.Fatalf("clock events in the result: %+v", clocks)
	}
	if j := jsonl(t, res); !strings.Contains(j, `"type":"clock","node":2,"local":111,"mode":"slew","old":111,"new":111,"delta":-10,"over":20}`) {
		t.Fatalf("JSONL lacks the slew:\n%s", j)
	}
}

// TestClockErrorsBounded: a series too large to build is refused before
// it is built.
func TestClockErrorsBounded(t *testing.T) {
	_, out := mustRun(t, `
local w = sim.world{algorithm="test.echo", n=10}
w:run{until_time=100000}
print(pcall(w.clock_errors, w, {every=1}))
`)
	if !strings.Contains(out, "more than 100000 values") {
		t.Fatalf("output: %s", out)
	}
}
