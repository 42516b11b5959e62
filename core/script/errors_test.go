package script

import (
	"strings"
	"testing"
)

// Every error a script can cause names the file and the line that caused
// it; inside hooks and callbacks, the line in the callback.
func TestErrorsNameFileAndLine(t *testing.T) {
	const world = `local w = sim.world{algorithm="test.echo", n=3}` + "\n"
	cases := []struct {
		name, src, want string
	}{
		{"syntax", "x = = 1", `t.lua:1: syntax error near '='`},
		{"syntax at the end", "local x = 1\nif x then", `t.lua:2: syntax error at the end of the file (after 'then')`},
		{"runtime", "local x\nlocal y = x.field", `t.lua:2: attempt to index a non-table object(nil) with key 'field'`},
		{"error() without position", "\n\nerror('plain', 0)", `t.lua:3: plain`},
		{"error() with a table", "error({})", `t.lua:1: error object is a table value`},
		{"assert with a message", "\nassert(1 == 2, 'one is not two')", `t.lua:2: assertion failed: one is not two`},
		{"assert without a message", "assert(false)", `t.lua:1: assertion failed`},
		{"stack overflow", "local function f() return f() + 1 end\nf()", `t.lua:1: stack overflow`},
		{"blocks nested too deep", "local x\n" + strings.Repeat("if x then\n", 201) + strings.Repeat("end ", 201), `t.lua:201: statements and expressions nested more than 200 levels deep`},
		{"expressions nested too deep", "local x = 1" + strings.Repeat(" .. x", 201), `t.lua:1: statements and expressions nested more than 200 levels deep`},
		{"a deep table constructor", "local t = " + strings.Repeat("{", 30000) + strings.Repeat("}", 30000), `t.lua:1: statements and expressions nested more than 200 levels deep`},
		{"not repeated", "local t = " + strings.Repeat("not ", 50000) + "true", `t.lua:1: statements and expressions nested more than 200 levels deep`},

		{"unknown algorithm", `sim.world{algorithm="nope", n=3}`, `t.lua:1: sim.world: unknown algorithm "nope" (known: ` + strings.Join(algoNames(), ", ") + `)`},
		{"missing algorithm", `sim.world{n=3}`, `t.lua:1: sim.world: the key algorithm is required (known algorithms: ` + strings.Join(algoNames(), ", ") + `)`},
		{"bad world key", "\nsim.world{algorithm='test.echo', n=3, nodes=4}", `t.lua:2: sim.world: unknown key "nodes" (known: ` + worldKeyNames() + `)`},
		{"world key of the wrong type", `sim.world{algorithm="test.echo", n="three"}`, `t.lua:1: sim.world: n: want an integer, got "three"`},
		{"integer beyond 2^53", `sim.world{algorithm="test.echo", n=3, seed=9.2e18}`, `t.lua:1: sim.world: seed: want an integer within ±2^53, got 9200000000000000000`},
		{"world key on a later line", "local w = sim.world{\n  algorithm='test.echo',\n  n=3, latency={'uniform', 5, 1},\n}", `t.lua:1: sim.world: latency uniform 5 1: the upper bound is below the lower bound`},
		{"unknown distribution", `sim.world{algorithm="test.echo", n=3, latency={"normal", 1, 2}}`, `t.lua:1: sim.world: latency: unknown distribution "normal" (known: ` + distNames() + `)`},
		{"bad config value", `sim.world{algorithm="test.echo", n=3, config={hops="x"}}`, `t.lua:1: sim.world: config key "hops": want an integer, got the string "x"`},
		{"config out of range", `sim.world{algorithm="test.echo", n=3, config={hops=5000}}`, `t.lua:1: sim.world: config key "hops": 5000 is outside [0, 1000]`},
		{"unknown config key", `sim.world{algorithm="test.echo", n=3, config={hop=1}}`, `t.lua:1: sim.world: config key "hop" is not known to test.echo (known: hops, every, greeting, loud)`},
		// a configuration that does not fit the world's processes (algo.Spec.Check)
		{"traitor that is no process", `sim.world{algorithm="agreement.om", n=4, config={traitors="9"}}`, `t.lua:1: sim.world: agreement.om: config key "traitors": 9 is not a process`},
		{"commander that is no process", `sim.world{algorithm="agreement.sm", n=4, config={commander=7}}`, `t.lua:1: sim.world: agreement.sm: config key "commander": 7 is not a process`},
		{"too few generals", `sim.world{algorithm="agreement.om", n=2}`, `t.lua:1: sim.world: agreement.om: 2 generals: it takes at least 3`},
		{"too large a tree", `sim.world{algorithm="agreement.om", n=40, config={m=2}}`, `t.lua:1: sim.world: agreement.om: OM(2) among 40 generals: each lieutenant would hold more than 1000 values (m = 1 admits up to 1001 generals, m = 2 up to 33, m = 3 up to 12)`},
		{"time server that is no process", `sim.world{algorithm="clock.cristian", n=3, config={server=99}}`, `t.lua:1: sim.world: clock.cristian: config key "server": 99 is not a process (ids: 1, 2, 3)`},
		{"composed layer's leader that is no process", `sim.world{algorithm="clock.berkeley", n=3, config={election_leader=4}}`, `t.lua:1: sim.world: clock.berkeley: config key "election_leader": 4 is not a process (ids: 1, 2, 3)`},
		{"token holder that is no process", `sim.world{algorithm="mutex.raymond", ids={2, 4, 6}, config={holder=5}}`, `t.lua:1: sim.world: mutex.raymond: config key "holder": 5 is not a process (ids: 2, 4, 6)`},
		{"item at no site", `sim.world{algorithm="cc.majority", n=3, config={items="A@9"}}`, `t.lua:1: sim.world: cc.majority: config key "items": item A is placed at 9, which is not a process`},
		{"bad topology", `sim.world{algorithm="test.echo", n=3, topology="torus"}`, `t.lua:1: sim.world: unknown topology "torus" (known: ring, biring, complete, star, line, tree, grid, random, edges)`},
		{"duplicate id", `sim.world{algorithm="test.echo", ids={1, 2, 1}}`, `t.lua:1: sim.world: ids: 1 appears twice`},
		{"id beyond 32 bits", `sim.world{algorithm="test.echo", ids={1, 2^32 + 1}}`, `t.lua:1: sim.world: ids: element 2: process id 4294967297 is outside [-2147483647, 2147483647]`},
		{"not a table", `sim.world("echo")`, `t.lua:1: sim.world: want a table of named settings, got "echo"`},

		{"unknown node id", world + "w:crash(9)", `t.lua:2: w:crash: no process 9 (ids: 1, 2, 3)`},
		{"node id beyond 32 bits", world + "w:crash(2^32 + 1)", `t.lua:2: w:crash: id: process id 4294967297 is outside [-2147483647, 2147483647]`},
		{"wrong argument type", world + "w:crash('one')", `t.lua:2: w:crash: id: want a process id (an integer), got "one"`},
		{"method called with a dot", world + "w.run()", `t.lua:2: w:run: call it with a colon, as w:run(...)`},
		{"crash a crashed process", world + "w:crash(2)\nw:crash(2)", `t.lua:3: w:crash: process 2 is already crashed`},
		{"recover a running process", world + "w:recover(2)", `t.lua:2: w:recover: process 2 is not crashed`},
		{"unknown run option", world + "w:run{until_t=5}", `t.lua:2: w:run: unknown key "until_t" (known: until_time, events, predicate)`},
		{"until_time in the past", world + "w:run{until_time=10}\nw:run{until_time=5}", `t.lua:3: w:run: until_time 5 is not after the current time 10`},
		{"at in the past", world + "w:run{until_time=10}\nw:at(3, function() end)", `t.lua:3: w:at: time 3 is in the past (now is 10)`},
		{"unknown hook type", world + "w:on('recv', print)", `t.lua:2: w:on: unknown event type "recv" (known: ` + typeList() + `, or "*" for all)`},
		{"unknown command", world + "w:command(1, 'elect')", `t.lua:2: w:command: test.echo has no command "elect" (commands: ping, tick, fail, boom)`},
		{"command rejected", world + "w:command(1, 'fail')", `t.lua:2: w:command: process 1 rejected fail: told to fail`},
		{"command with a bad argument", world + "w:command(1, 'ping', {hops='x'})", `t.lua:2: w:command: process 1 rejected ping: argument "hops" must be an integer, got "x"`},
		{"command to a crashed process", world + "w:crash(1)\nw:node(1):command('ping')", `t.lua:3: node:command: process 1 is crashed`},
		{"inject unknown kind", world + "w:inject{from=1, to=2, kind='PUNG'}", `t.lua:2: w:inject: test.echo has no message kind "PUNG" (kinds: PING, PONG)`},
		{"inject unknown field", world + "w:inject{from=1, to=2, kind='PING', hop=1}", `t.lua:2: w:inject: message PING has no field "hop" (fields: hops, path, note)`},
		{"inject bad field value", world + "w:inject{from=1, to=2, kind='PING', path={1, 'x'}}", `t.lua:2: w:inject: message PING field "path": element 2: want an integer, got "x"`},
		{"inject without to", world + "w:inject{from=1, kind='PING'}", `t.lua:2: w:inject: the key to is required`},
		{"inject to nobody", world + "w:inject{from=1, to=7, kind='PING'}", `t.lua:2: w:inject: to: no process 7 (ids: 1, 2, 3)`},
		{"link loss out of range", world + "w:link(1, 2, {loss=2})", `t.lua:2: w:link: loss must be a probability between 0 and 1, got 2`},
		{"clock drift out of range", world + "w:clock(1, {drift=0.9})", `t.lua:2: w:clock: drift 0.9 is outside (-0.5, 0.5)`},
		{"partition with a process twice", world + "w:partition({1, 2}, {2, 3})", `t.lua:2: w:partition: process 2 is in two groups`},
		{"count without a trace", "local w = sim.world{algorithm='test.echo', n=3, trace=false}\nw:count()", `t.lua:2: w:count: this world records no trace (trace=false or tracing is off for the run)`},
		{"sweep with an empty list", "sweep({n={}}, function() end)", `t.lua:1: sweep: params.n: no values`},
		{"string.rep over the cap", "local s = ('x'):rep(2^25)", `t.lua:1: string.rep would make a string of 33554432 bytes, more than the 16777216 allowed`},

		// Inside callbacks the error names the callback's line, and the
		// run stops.
		{"error in a hook", world + "w:on('deliver', function(ev)\n  error('in hook')\nend)\nw:command(1, 'ping')\nw:run()", `t.lua:3: in hook`},
		{"API error in a hook", world + "w:on('send', function(ev)\n  w:crash(ev.to)\n  w:crash(ev.to)\nend)\nw:command(1, 'ping')", `t.lua:4: w:crash: process 2 is already crashed`},
		{"error in an at callback", world + "w:at(3, function()\n  local x = nil + 1\nend)\nw:run()", `t.lua:3: cannot perform add operation between nil and number`},
		{"error in a when condition", world + "w:when(function()\n  return w:node(9)\nend, print)\nw:run()", `t.lua:3: w:node: no process 9 (ids: 1, 2, 3)`},
		{"error in a when callback", world + "w:when(function() return true end, function()\n  error('late')\nend)\nw:run()", `t.lua:3: late`},
		{"error in a run predicate", world + "w:run{predicate=function()\n  return w:state(0)\nend}", `t.lua:3: w:state: no process 0 (ids: 1, 2, 3)`},
		{"error in a function called by a hook", "local function helper()\n  error('deep')\nend\n" + world + "w:on('state', function() helper() end)\nw:run()", `t.lua:2: deep`},
		{"run inside a hook", world + "w:at(3, function()\n  w:run()\nend)\nw:run()", `t.lua:3: w:run: cannot run a world from inside a hook or callback (use w:stop() to end the run)`},
		{"step inside a hook", world + "w:on('state', function()\n  w:step()\nend)\nw:run()", `t.lua:3: w:step: cannot run a world from inside a hook or callback (use w:stop() to end the run)`},
		{"error in a sweep function", "sweep({n={1, 2}}, function(p)\n  if p.n == 2 then error('n is 2') end\nend)", `t.lua:2: n is 2`},

		// pcall cannot swallow an error that ended a run.
		{"pcall around a failing run", world + "w:on('deliver', function() error('hook failed') end)\nw:command(1, 'ping')\nprint(pcall(w.run, w))\nprint('not reached')", `t.lua:2: hook failed`},

		// A Go panic in an algorithm is an error naming the algorithm and
		// the time, at the line that entered the algorithm.
		{"algorithm panic in a command", world + "w:run{until_time=4}\nw:command(2, 'boom')", `t.lua:3: algorithm test.echo panicked at t=4: assignment to entry in nil map`},
		{"algorithm panic in a hook's command", world + "w:at(6, function()\n  w:node(3):command('boom')\nend)\nw:run()", `t.lua:3: algorithm test.echo panicked at t=6: assignment to entry in nil map`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, out, err := run(t, c.src)
			if err == nil {
				t.Fatalf("no error; output:\n%s", out)
			}
			e := scriptError(t, err)
			if e.Error() != c.want {
				t.Errorf("error:\n  %s\nwant:\n  %s", e, c.want)
			}
			if e.File != "t.lua" || !strings.HasPrefix(c.want, "t.lua:"+itoa(e.Line)+": ") {
				t.Errorf("File %q Line %d do not match %q", e.File, e.Line, c.want)
			}
			if strings.Contains(out, "not reached") {
				t.Errorf("the script went on after the error:\n%s", out)
			}
		})
	}
}
