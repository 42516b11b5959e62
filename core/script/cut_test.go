package script

import (
	"strings"
	"testing"
)

// w:consistent judges cuts of a Ricart-Agrawala run on two processes: 1
// REQUESTs, 2 REPLYs. A cut holding 2's delivery of the REQUEST but not
// 1's send of it is inconsistent, and names that message; the cut holding
// 1's send only has the REQUEST in flight.
func TestConsistentCut(t *testing.T) {
	_, out := mustRun(t, `
local w = sim.world{algorithm = "mutex.ricartagrawala", n = 2}
w:command(1, "request", {duration = 5})
w:run()
local send = w:events{type = "send", kind = "REQUEST"}[1]
local deliver = w:events{type = "deliver", kind = "REQUEST"}[1]
local ok, back, flight = w:consistent{[1] = send.seq - 1, [2] = deliver.seq}
print(ok, #back, back[1].kind, back[1].send == send.seq, back[1].deliver == deliver.seq, back[1].from, back[1].to, #flight)
ok, back, flight = w:consistent{[1] = send.seq, [2] = deliver.seq - 1}
print(ok, #back, #flight, flight[1].kind, flight[1].deliver)
ok, back, flight = w:consistent{[1] = -1}
print(ok, #back, #flight)
`)
	want := lines("false\t1\tREQUEST\ttrue\ttrue\t1\t2\t0", "true\t0\t1\tREQUEST\tnil", "true\t0\t0")
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	for _, c := range []struct{ src, want string }{
		{`w:consistent(3)`, "w:consistent: cut: want a table of process id = seq, got 3"},
		{`w:consistent{[9] = 1}`, "w:consistent: cut: no process 9"},
		{`w:consistent{[1] = -2}`, "w:consistent: cut[1]: want a seq (the cut holds process 1's events up to it), or -1 for none, got -2"},
		{`w:consistent{[1] = "x"}`, "w:consistent: cut[1]: want an integer"},
	} {
		_, _, err := run(t, `local w = sim.world{algorithm = "mutex.ricartagrawala", n = 2}; w:run(); `+c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
}

// w:timestamps stamps the events of a hand-ordered clock.vector run the
// texts' way: 1 sends to 2 (a command whose send is the one event), 3 has
// an internal event (a command that sends nothing), then 2 sends to 3.
// The receive at 2 takes the larger Lamport timestamp plus one and the
// entrywise larger vector, with its own entry counted up; events of 1 and
// 3 before any message between them are concurrent: (1,0,0) and (0,0,1).
// The numbers are the algorithm's own, as its state shows them.
func TestTimestamps(t *testing.T) {
	_, out := mustRun(t, `
local w = sim.world{algorithm = "clock.vector", n = 3}
w:command(1, "send", {to = 2})
w:command(3, "internal")
w:run()
w:command(2, "send", {to = 3})
w:run()
for _, r in ipairs(w:timestamps()) do print(r.node, r.type, r.lamport, table.concat(r.vector, ",")) end
print("vector state " .. table.concat(w:node(3):state().vclock, ","))
print(#w:timestamps{node = 2}, #w:timestamps{type = "deliver"})
`)
	want := lines("1\tsend\t1\t1,0,0", "3\tcommand\t1\t0,0,1",
		"2\tdeliver\t2\t1,1,0", "2\tsend\t3\t1,2,0", "3\tdeliver\t4\t1,2,2", "vector state 1,2,2", "2\t2")
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	_, _, err := run(t, `local w = sim.world{algorithm = "clock.vector", n = 2}; w:run(); w:timestamps{node = 7}`)
	if err == nil || !strings.Contains(err.Error(), "w:timestamps: node: no process 7 (ids: 1, 2)") {
		t.Errorf("a filter on no process: error %v", err)
	}
	_, _, err = run(t, `local w = sim.world{algorithm = "clock.vector", n = 2, trace = false}; w:run(); w:timestamps()`)
	if err == nil || !strings.Contains(err.Error(), "w:timestamps: this world records no trace") {
		t.Errorf("untraced world: error %v", err)
	}
}
