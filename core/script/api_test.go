package script

import (
	"slices"
	"strings"
	"testing"
)

// Each case is a small scenario and the exact lines it must print. The
// expected values follow from the test.echo rules (echo_test.go) and the
// kernel's defaults: latency 1, FIFO, detector delay 5, ring topology.
func TestMethods(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"at and after run at their times", `
local w = sim.world{algorithm="test.echo", n=3}
w:at(5, function() print("at", w:now()) w:after(3, function() print("after", w:now()) end) end)
w:at(2, function() print("at", w:now()) end)
print(w:run().reason, w:now())`,
			lines("at\t2", "at\t5", "after\t8", "quiescent\t8")},

		{"when fires once, after the first event where its condition holds", `
local w = sim.world{algorithm="test.echo", n=4, config={hops=3}}
w:command(1, "ping")
w:when(function() return w:node(3):get("got") == 1 end, function() print("3 got it at", w:now()) end)
w:run()
print(w:node(4):get("got"), w:node(3):get("got"))`,
			lines("3 got it at\t2", "1\t1")},

		{"hooks by type and for every type", `
local w = sim.world{algorithm="test.echo", n=3, config={hops=2}}
local sends = {}
w:on("send", function(ev) sends[#sends+1] = ev.type .. ":" .. ev.kind .. ":" .. ev.from .. ">" .. ev.to end)
local n = 0
w:on("*", function(ev) n = n + 1 end)
w:command(2, "ping")
w:run()
print(table.concat(sends, " "), n, n == w:count())`,
			lines("send:PING:2>3 send:PING:3>1\t15\ttrue")},

		{"deliver and state event fields", `
local w = sim.world{algorithm="test.echo", n=3, config={greeting="yo"}}
w:on("deliver", function(ev) print(ev.t, ev.seq, ev.node, ev["local"], ev.from, ev.to, ev.kind, ev.id, ev.msg.hops, ev.msg.path[1], ev.msg.note, ev.reason) end)
w:on("state", function(ev) if ev.key == "last" then print(ev.key, ev.old, ev.value, ev.node) end end)
w:run()
w:command(1, "ping")
w:run()`,
			lines("1\t8\t2\t1\t1\t2\tPING\t1\t1\t1\tyo\tnil", "last\tnil\tPING\t2")},

		{"events and messages read like tables and keep their values", `
local w = sim.world{algorithm="test.echo", n=3, config={hops=2}}
local seen = {}
w:on("deliver", function(ev) seen[#seen+1] = ev end)
w:command(1, "ping")
w:run()
print(#seen, seen[1].to, seen[2].to, seen[1].msg.hops, seen[2].msg.hops, #seen[2].msg.path)
print(seen[1])
local keys = {}
for k, v in pairs(seen[2].msg) do keys[#keys+1] = k .. ":" .. type(v) end
print(table.concat(keys, " "), seen[1].msg == seen[1].msg, seen[1].nope, seen[1].reason)
print(pcall(function() seen[1].t = 5 end))`,
			lines("2\t2\t3\t2\t1\t2",
				`{t=1, seq=8, type="deliver", node=2, local=1, from=1, to=2, kind="PING", id=1, msg={hops=2, path={1}, note="hi"}}`,
				"hops:number path:table note:string\ttrue\tnil\tnil",
				"false\tt.lua:12: events and messages are read-only")},

		{"check and log event fields", `
local w = sim.world{algorithm="test.echo", n=2}
w:on("check", function(ev) print(ev.type, ev.text, ev.pass, ev.line, ev.node) end)
w:on("log", function(ev) print(ev.type, ev.text, ev.line) end)
print(expect(1 == 2, "nope"))
log("hello", 3)`,
			lines("check\tnope\tfalse\t5\tnil", "false", "hello\t3", "log\thello\t3\t6")},

		{"timer and command event fields, stop from a hook", `
local w = sim.world{algorithm="test.echo", n=3, config={every=4}}
w:on("timer", function(ev) print("timer", ev.t, ev.node, ev.tag) w:stop() end)
w:on("command", function(ev) print("command", ev.kind, ev.name, ev.args, ev.line, ev.node) end)
w:command(2, "ping", {hops=1, to=3})
w:command(1, "tick")
print(w:run().reason, w:node(1):get("ticks"))`,
			lines("command\tping\tping\thops=1 to=3\t5\t2", "command\ttick\ttick\t\t6\t1", "timer\t4\t1\ttick", "stopped\t1")},

		{"crash drops messages in flight; recover starts afresh", `
local w = sim.world{algorithm="test.echo", n=3}
w:on("drop", function(ev) print("drop", ev.kind, ev.from, ev.to, ev.reason, ev.node) end)
w:on("crash", function(ev) print("crash", ev.node) end)
w:on("recover", function(ev) print("recover", ev.node) end)
w:command(1, "ping")
w:crash(2)
w:run()
print(w:node(2):up(), w:node(2):get("got"))
w:recover(2)
print(w:node(2):up(), w:node(2):get("got"))`,
			lines("crash\t2", "drop\tPING\t1\t2\tcrashed\t2", "false\tnil", "recover\t2", "true\t0")},

		{"partition, heal, cut and mend", `
local w = sim.world{algorithm="test.echo", n=4, topology="complete"}
w:on("partition", function(ev) print("partition", ev.text) end)
w:on("heal", function(ev) print("heal", ev.text) end)
w:on("drop", function(ev) print("drop", ev.from, ev.to, ev.reason) end)
w:partition({1, 2}, {3})
w:command(1, "ping", {to=2})
w:command(1, "ping", {to=3})
w:command(1, "ping", {to=4})
w:heal()
w:cut(1, 2)
w:command(2, "ping", {to=1})
w:mend(1, 2)
w:command(2, "ping", {to=1})
w:run()
print(w:node(1):get("got"), w:node(2):get("got"))`,
			lines("partition\t[1,2] | [3]", "drop\t1\t3\tpartition", "drop\t1\t4\tpartition", "heal\tall",
				"partition\t1-2", "drop\t2\t1\tpartition", "heal\t1-2", "1\t1")},

		{"link overrides and the default network", `
local w = sim.world{algorithm="test.echo", n=3, topology="complete"}
w:link(1, 2, {latency=10})
w:network{latency={"uniform", 3, 3}}
w:on("deliver", function(ev) print(ev.from, ev.to, ev.t) end)
w:command(1, "ping", {to=2})
w:command(1, "ping", {to=3})
w:command(2, "ping", {to=1})
w:link(3, 1, {loss=1, both=true})
w:command(1, "ping", {to=3})
w:command(3, "ping", {to=1})
w:run()
print(w:stats().drops.loss)`,
			lines("1\t3\t3", "2\t1\t3", "1\t2\t10", "2")},

		{"clock offset and drift", `
local w = sim.world{algorithm="test.echo", n=2}
w:clock(2, {offset=100, drift=0.1})
local r = w:run{until_time=50}
print(r.reason, w:now(), w:node(1):clock(), w:node(2):clock())
w:clock(2, {drift=-0.2})
print(w:node(2):clock())`,
			lines("time\t50\t50\t155", "40")},

		{"inject builds messages from the prototype", `
local w = sim.world{algorithm="test.echo", n=3}
w:on("deliver", function(ev) print(ev.kind, ev.from, ev.to, ev.msg) end)
w:inject{from=3, to=1, kind="PING", hops=2, path={7, 8}}
w:inject{from=1, to=2, kind="PONG", msg={to=3, fast=true}}
w:run()`,
			lines(`PING	3	1	{hops=2, path={7, 8}, note="proto"}`, `PONG	1	2	{to=3, fast=true}`, `PING	1	2	{hops=1, path={7, 8, 1}, note="proto"}`)},

		{"node objects", `
local w = sim.world{algorithm="test.echo", ids={5, 9, 2}}
w:run()
local n = w:node(9)
print(n:id(), n:up(), n:get("leader"), n:get("nope"))
n:command("ping", {hops=2})
w:run()
print(w:node(5):state(), w:state(2))
n:crash()
print(n:up(), tostring(n), w:state(9))
w:run{until_time=20}
n:recover()
print(n:state(), n:clock())`,
			lines(`9	true	9	nil`, `{leader=9, got=1, last="PING"}	{leader=9, got=1, last="PING"}`,
				`false	node 9 of world 1	{}`, `{leader=9, got=0}	20`)},

		{"ids, alive and agreed", `
local w = sim.world{algorithm="test.echo", ids={3, 5, 0, 1, 4, 6}}
w:run()
print(w:ids(), w:agreed("leader"), w:agreed("got"), w:agreed("last"))
w:crash(6) w:crash(0)
print(w:alive(), w:agreed("leader"))
w:command(3, "ping")
w:run()
print(w:agreed("got"), w:agreed("leader"))`,
			lines("{3, 5, 0, 1, 4, 6}\t6\t0\tnil", "{3, 5, 1, 4}\t6", "nil\t6")},

		{"stats", `
local w = sim.world{algorithm="test.echo", n=3, config={hops=3}}
w:command(1, "ping")
w:crash(3)
w:run()
local s = w:stats()
print(s.events, s.time, s.sent, s.delivered, s.dropped, s.messages.PING, s.delivered_by_kind.PING, s.dropped_by_kind.PING, s.drops.crashed)`,
			lines("6\t5\t2\t1\t1\t2\t1\t1\t1")},

		{"count and events filters", `
local w = sim.world{algorithm="test.echo", n=3, config={hops=3}}
w:command(1, "ping")
w:crash(3)
w:run()
print(w:count(), w:count{type="send"}, w:count{kind="PING"}, w:count{node=2}, w:count{type="deliver", node=2})
local drops = w:events{type="drop"}
print(#drops, drops[1].reason, drops[1].to, drops[1].msg.hops)`,
			lines("13\t2\t4\t6\t1", "1\tcrashed\t3\t2")},

		{"run to a time, for events, until a predicate", `
local w = sim.world{algorithm="test.echo", n=3, config={every=10}}
w:command(1, "tick")
local r = w:run{until_time=35}
print(r.reason, r.time, w:node(1):get("ticks"))
r = w:run{events=2}
print(r.reason, r.events, w:now())
r = w:run{predicate=function() return w:node(1):get("ticks") == 7 end}
print(r.reason, r.time)
r = w:run{until_time=100, events=1}
print(r.reason, r.time)
print(w:step(), w:now(), w:node(1):get("ticks"))`,
			lines("time\t35\t3", "events\t2\t50", "predicate\t70", "events\t80", "true\t90\t9")},

		{"step to the end", `
local w = sim.world{algorithm="test.echo", n=2}
local n = 0
while w:step() do n = n + 1 end
print(n, w:step())`,
			lines("2\tfalse")},

		{"sweep and report", `
local rows = sweep({n={3, 4}, hops={1, 2}}, function(p)
  local w = sim.world{algorithm="test.echo", n=p.n, config={hops=p.hops}, trace=false}
  w:command(1, "ping")
  w:run()
  return {msgs=w:stats().sent, ratio=w:stats().sent/p.n}
end)
report(rows, {"hops", "n", "msgs", "ratio"})
report(sweep({x={"a", "bb"}}, function(p) end))`,
			lines("hops  n  msgs   ratio", "----  -  ----  ------", "   1  3     1  0.3333", "   1  4     1    0.25",
				"   2  3     2  0.6667", "   2  4     2     0.5", "x", "--", "a", "bb")},

		{"globals", `
print(sim.seed, type(sim.world), sim.algorithms()[1] ~= nil)
print({1, 2, x=1, ["a b"]=2, {3}}, "s", nil, true, 2.5)
print(assert(1, "m", 3))
print(expect(true), expect(nil, "no world yet"))`,
			lines("7\tfunction\ttrue", `{1, 2, {3}, x=1, ["a b"]=2}	s	nil	true	2.5`, "1\tm\t3", "true\tnil")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, out := mustRun(t, c.src, Options{Seed: 7})
			if out != c.want {
				t.Errorf("output:\n%s\nwant:\n%s", out, c.want)
			}
		})
	}
}

func TestAlgorithmsListsTheRegistry(t *testing.T) {
	_, out := mustRun(t, `for _, n in ipairs(sim.algorithms()) do print(n) end`)
	if !slices.Contains(strings.Split(out, "\n"), "test.echo") {
		t.Errorf("sim.algorithms() = %q, want test.echo among them", out)
	}
}

func TestExpectRecordsChecks(t *testing.T) {
	res, _ := mustRun(t, `
expect(true, "before any world")
local w = sim.world{algorithm="test.echo", n=2}
w:run()
expect(w:agreed("leader") == 2, "leader is 2")
expect(w:agreed("leader") == 1)
local v = sim.world{algorithm="test.echo", n=3, trace=false}
expect(true, "untraced")`)
	want := []Check{
		{World: 0, Seq: 0, Line: 2, Text: "before any world", Pass: true},
		{World: 1, Seq: 4, Line: 5, Text: "leader is 2", Pass: true},
		{World: 1, Seq: 5, Line: 6, Text: "expectation at line 6", Pass: false},
		{World: 2, Seq: 0, Line: 8, Text: "untraced", Pass: true},
	}
	if !slices.Equal(res.Checks, want) {
		t.Fatalf("checks:\n%+v\nwant:\n%+v", res.Checks, want)
	}
	ev := worldEvents(res, 0)[5]
	if ev.Type.String() != "check" || ev.Seq != 5 || ev.Pass || ev.Line != 6 || ev.Text != "expectation at line 6" {
		t.Errorf("trace event for the failed check: %+v", ev)
	}
	if res.Worlds[1].Rec != nil || res.Worlds[1].Len() != 0 {
		t.Errorf("world 2 has trace=false but recorded %d events", res.Worlds[1].Len())
	}
}

func TestRunLimitsAddNotes(t *testing.T) {
	res, out := mustRun(t, `
local w = sim.world{algorithm="test.echo", n=2, config={every=3}, max_events=5}
w:command(1, "tick")
local r = w:run()
print(r.reason, r.events, r.time)
local v = sim.world{algorithm="test.echo", n=2, config={every=3}, max_time=10}
v:command(2, "tick")
r = v:run()
print(r.reason, r.time, v:node(2):get("ticks"))`)
	if want := lines("event-limit\t5\t9", "time-limit\t10\t3"); out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	want := []string{"world 1: stopped by the event limit after 5 events at t=9", "world 2: stopped by the time limit at t=10"}
	if !slices.Equal(res.Notes, want) {
		t.Errorf("notes %q, want %q", res.Notes, want)
	}
}
