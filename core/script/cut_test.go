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
		{`w:consistent{[1] = -2}`, "w:consistent: cut[1]: want the seq of an event of process 1, or -1 for none, got -2"},
		{`w:consistent{[1] = "x"}`, "w:consistent: cut[1]: want an integer"},
	} {
		_, _, err := run(t, `local w = sim.world{algorithm = "mutex.ricartagrawala", n = 2}; w:run(); `+c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
}
