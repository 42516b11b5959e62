package script

import (
	"strings"
	"testing"
)

func TestBudgetStopsEndlessLoops(t *testing.T) {
	const world = "local w = sim.world{algorithm='test.echo', n=3}\n"
	cases := []struct{ name, src, want string }{
		{"main chunk", "local x = 0\nwhile true do x = x + 1 end", "t.lua:2: instruction budget of 100000 exhausted (endless loop?)"},
		{"empty loop", "while true do end", "t.lua:1: instruction budget of 100000 exhausted (endless loop?)"},
		{"in a hook", world + "w:on('state', function(ev)\n  while true do end\nend)\nw:run()", "t.lua:3: instruction budget of 100000 exhausted (endless loop?)"},
		{"in an at callback", world + "w:at(5, function()\n  repeat until false\nend)\nw:run()", "t.lua:3: instruction budget of 100000 exhausted (endless loop?)"},
		{"pcall cannot swallow it", "\nwhile true do pcall(function()\n  while true do end\nend)\nend", "t.lua:3: instruction budget of 100000 exhausted (endless loop?)"},
		{"nor can a pcall around the run", world + "w:on('state', function() while true do end end)\nprint(pcall(w.run, w))\nprint('not reached')", "t.lua:2: instruction budget of 100000 exhausted (endless loop?)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, out, err := run(t, c.src, Options{Seed: 1, Budget: 100_000})
			if err == nil || err.Error() != c.want {
				t.Errorf("error %v, want %s", err, c.want)
			}
			if strings.Contains(out, "not reached") {
				t.Errorf("the script went on: %s", out)
			}
		})
	}
}

// The budget counts Lua instructions only: events the kernel runs in Go do
// not use it up.
func TestBudgetCountsLuaOnly(t *testing.T) {
	_, out := mustRun(t, `
local w = sim.world{algorithm="test.echo", n=500, config={hops=1000}}
w:command(1, "ping")
print(w:run().events)`, Options{Seed: 1, Budget: 1000})
	if out != "1500\n" {
		t.Errorf("output %q, want 1500 events (500 boots, 1000 deliveries)", out)
	}
}

// The budget stops at the same instruction every run.
func TestBudgetIsDeterministic(t *testing.T) {
	const src = "local i = 0\nwhile true do\n  i = i + 1\n  if i % 1000 == 0 then print(i) end\nend"
	_, first, err1 := run(t, src, Options{Seed: 1, Budget: 123_456})
	_, second, err2 := run(t, src, Options{Seed: 1, Budget: 123_456})
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() || first != second {
		t.Errorf("two runs differ: %v / %v\n%q\n%q", err1, err2, first, second)
	}
	// gopher-lua compiles the loop to ADD MOD EQ JMP (4 instructions), and
	// to ADD MOD EQ GETGLOBAL MOVE CALL JMP (7) when it prints: 4003 per
	// thousand iterations after one LOADK. 30 thousands take 120091 of the
	// 123456 instructions and the 31st does not fit.
	if !strings.HasSuffix(first, "\n30000\n") {
		t.Errorf("stopped after %q, want the last line 30000", lastLine(first))
	}
}

func lastLine(s string) string {
	f := strings.Split(strings.TrimSpace(s), "\n")
	return f[len(f)-1]
}

func TestMemoryGuardStopsAGrowingTable(t *testing.T) {
	_, _, err := run(t, "local t = {}\nwhile true do t[#t+1] = string.rep('x', 100) end",
		Options{Seed: 1, MaxMemory: 64 << 20})
	if err == nil || !strings.HasPrefix(err.Error(), "t.lua:2: memory budget of 64 MiB exceeded: the run holds ") || !strings.HasSuffix(err.Error(), "(traces: 0 events; pending events: 0; the rest is the processes' state and Lua values)") {
		t.Fatalf("error %v, want the memory limit at line 2 (within the default budget)", err)
	}
}

// A runaway trace grows in Go, without Lua instructions; the guard watches
// recorded events too.
func TestMemoryGuardStopsARunawayTrace(t *testing.T) {
	res, _, err := run(t, `
local w = sim.world{algorithm="test.echo", n=2, config={every=1}, max_events=0}
w:command(1, "tick")
w:run()`, Options{Seed: 1, MaxMemory: 16 << 20})
	if err == nil || !strings.HasPrefix(err.Error(), "t.lua:4: memory budget of 16 MiB exceeded: the run holds") || !strings.Contains(err.Error(), "(traces: ") {
		t.Fatalf("error %v, want the memory limit at the w:run line", err)
	}
	if n := res.Worlds[0].Len(); n == 0 {
		t.Errorf("the partial trace was lost")
	}
}
