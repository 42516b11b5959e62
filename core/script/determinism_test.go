package script

import (
	"strings"
	"testing"
)

// A scenario that draws on every random source: shuffled ids, random
// latencies, loss and duplication, math.random in the script, hooks that
// inject and log, crashes on a condition.
const busyScenario = `
local w = sim.world{algorithm="test.echo", n=6, ids="shuffled", latency={"exp", 1, 4},
                    loss=0.1, dup=0.1, fifo=false, config={hops=6, every=7}}
local ids = w:ids()
for i = 1, 5 do
  local id = ids[math.random(#ids)]
  w:at(math.random(0, 40), function() if w:node(id):up() then w:command(id, "ping") end end)
end
w:command(ids[1], "tick")
w:on("deliver", function(ev)
  if ev.msg.hops == 3 then log("hop 3 at", ev.node, ev.msg.path) end
end)
w:when(function() return w:count{type="deliver"} >= 5 end, function()
  w:crash(ids[2])
  w:after(15, function() w:recover(ids[2]) end)
end)
w:at(20, function() w:inject{from=ids[3], to=ids[4], kind="PING", hops=2} end)
w:run{until_time=200}
expect(w:count{type="drop"} > 0, "something was dropped")
print(w:stats().sent)
`

func TestSameSeedSameTrace(t *testing.T) {
	res1, out1 := mustRun(t, busyScenario, Options{Seed: 11})
	res2, out2 := mustRun(t, busyScenario, Options{Seed: 11})
	a, b := jsonl(t, res1), jsonl(t, res2)
	if a != b || out1 != out2 {
		t.Fatalf("two runs with seed 11 differ")
	}
	if n := strings.Count(a, "\n"); n < 100 {
		t.Fatalf("the scenario recorded only %d lines; it should be busy", n)
	}
	for _, want := range []string{`"type":"drop"`, `"reason":"loss"`, `"type":"crash"`, `"type":"recover"`, `"type":"log"`, `"type":"timer"`} {
		if !strings.Contains(a, want) {
			t.Errorf("the trace has no %s", want)
		}
	}
	res3, _ := mustRun(t, busyScenario, Options{Seed: 12})
	if jsonl(t, res3) == a {
		t.Errorf("seeds 11 and 12 gave the same trace")
	}
}

// What happened before an error is kept: traces and checks.
func TestErrorKeepsPartialResult(t *testing.T) {
	res, _, err := run(t, `
local w = sim.world{algorithm="test.echo", n=3}
w:command(1, "ping")
w:run()
expect(true, "before")
local v = sim.world{algorithm="test.echo", n=2}
v:run()
v:crash(7)`)
	if err == nil || err.Error() != "t.lua:8: w:crash: no process 7 (ids: 1, 2)" {
		t.Fatalf("error %v", err)
	}
	if len(res.Worlds) != 2 || res.Worlds[0].Len() == 0 || res.Worlds[1].Len() == 0 {
		t.Fatalf("partial worlds lost: %d worlds", len(res.Worlds))
	}
	if len(res.Checks) != 1 || res.Checks[0].Text != "before" {
		t.Errorf("checks %+v", res.Checks)
	}
}
