package script

import "testing"

// TestNodeStable: node:stable() lists a process's stable log, oldest record
// first, across its crash and recovery; a process that wrote nothing has
// an empty one.
func TestNodeStable(t *testing.T) {
	_, out := mustRun(t, `local w = sim.world{algorithm = "commit.twophase", n = 3}
w:at(0, function() w:command(1, "commit") end)
w:at(2, function() w:crash(2) end)
w:at(5, function() w:recover(2) end)
w:run()
print(table.concat(w:node(1):stable(), " "))
print(table.concat(w:node(2):stable(), " "), #w:node(3):stable())
w2 = sim.world{algorithm = "commit.twophase", n = 2}
print(#w2:node(1):stable())`)
	want := "<prepare T1> <commit T1> <complete T1>\n<ready T1> <commit T1>\t2\n0\n"
	if out != want {
		t.Errorf("output %q, want %q", out, want)
	}
}
