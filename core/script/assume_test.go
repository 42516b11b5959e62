package script

import (
	"strings"
	"testing"

	"dsim/core/trace"
)

// A world outside its algorithm's assumptions warns, once per kind of
// breach, at the script line that left them, in its trace and in the
// results; a world within them does not.
func TestAssumptionWarnings(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // each warning's line and a part of its text
	}{
		{"reordering links for Lamport", `
local w = sim.world{algorithm = "mutex.lamport", n = 3, fifo = false}
w:run()`, []string{"2 (FIFO links): messages on the links may arrive out of order (fifo = false)"}},
		{"FIFO links set later", `
local w = sim.world{algorithm = "mutex.lamport", n = 3}
w:link(1, 2, {fifo = false, both = true})
w:network{fifo = false}`, []string{"3 (FIFO links): messages on the link 1->2 may arrive out of order"}},
		{"loss for a token algorithm", `
local w = sim.world{algorithm = "mutex.suzukikasami", n = 3}
w:run()
w:network{loss = 0.1}
w:network{loss = 0.2}`, []string{"4 (no message loss): messages on the links may be lost (loss = 0.1)"}},
		{"more traitors than OM(m) tolerates", `
local w = sim.world{algorithm = "agreement.om", n = 7, config = {traitors = "2,3"}}`, []string{"2 (at most m traitors among more than 3m generals): 2 traitors, more than m = 1"}},
		{"too few generals for OM(m)", `
local w = sim.world{algorithm = "agreement.om", n = 6, config = {m = 2}}`, []string{"2 (at most m traitors among more than 3m generals): 6 generals, not more than 3m = 6"}},
		{"duplication", `
local w = sim.world{algorithm = "mutex.raymond", n = 3, dup = 0.5}`, []string{"2 (no duplication): messages on the links may be duplicated (dup = 0.5)"}},
		{"a partition and a cut with Ricart-Agrawala", `
local w = sim.world{algorithm = "mutex.ricartagrawala", n = 4}
w:partition({1, 2}, {3, 4})
w:heal()
w:cut(1, 3)`, []string{"3 (no partition): the network is partitioned"}},
		{"a cut by sim.intervene", `
sim.intervene{t = 5, cut = {1, 2}}
local w = sim.world{algorithm = "election.changroberts", n = 3}
w:run{until_time = 10}`, []string{"2 (no partition): the link 1-2 is cut"}},
		{"crashes and a recovery where none is tolerated", `
local w = sim.world{algorithm = "mutex.lamport", n = 3}
w:crash(1)
w:node(2):crash()
w:recover(1)`, []string{"3 (no crash): process 1 crashed", "5 (no recovery): process 1 recovered"}},
		{"a crash by sim.intervene", `
local w = sim.world{algorithm = "mutex.maekawa", n = 4}
sim.intervene{t = 3, crash = 2}
w:run{until_time = 10}`, []string{"3 (no crash): process 2 crashed"}},
		{"latency above the ring's hop", `
local w = sim.world{algorithm = "election.activelist", n = 3, latency = {"uniform", 1, 20}, config = {hop = 10}}`,
			[]string{"2 (a link crossing within hop ticks, hop = 10): a message on the links may take up to 20 ticks (latency uniform 1 20)"}},
		{"an unbounded latency", `
local w = sim.world{algorithm = "election.ring", n = 3}
w:link(1, 2, {latency = {"exp", 1, 3}})`,
			[]string{"3 (a link crossing within hop ticks, hop = 10): a message on the link 1->2 may take arbitrarily long"}},
		{"a round trip as long as the bully's timeout", `
local w = sim.world{algorithm = "election.bully", n = 3, latency = 15, config = {T = 30}}`,
			[]string{"2 (2 link crossings in a row in less than T ticks, T = 30): a message on the links may take up to 15 ticks"}},
		{"a clock drifting faster than Berkeley's bound", `
local w = sim.world{algorithm = "clock.berkeley", n = 3, config = {drift_ppm = 1000}}
w:clock(3, {drift = 0.0005})
w:clock(2, {drift = -0.2})`, []string{"4 (clocks drift by at most drift_ppm = 1000 millionths): process 2's clock drifts by -200000 millionths (drift = -0.2)"}},
		{"a crossing faster than Cristian's min", `
local w = sim.world{algorithm = "clock.cristian", n = 3, latency = {"uniform", 2, 5}, config = {min = 2}}
w:link(3, 1, {latency = 1})`, []string{"3 (no message in less than min = 2 ticks): a message on the link 3->1 may arrive in 1 ticks (latency constant 1)"}},
		{"NTP's reference clock set off true time", `
local w = sim.world{algorithm = "clock.ntp", n = 4, config = {reference = 2}}
w:clock(1, {offset = 30})
w:clock(2, {drift = 0.001})`, []string{"4 (the reference's clock reads true time, reference = 2): process 2's clock is set off it (offset = 0, drift = 0.001)"}},
		{"Cristian's default server is the first process", `
local w = sim.world{algorithm = "clock.cristian", ids = {5, 3, 9}}
w:clock(5, {offset = -4})`, []string{"3 (the reference's clock reads true time, server = 5): process 5's clock is set off it (offset = -4, drift = 0)"}},
		{"two worlds warn each", `
sim.world{algorithm = "mutex.lamport", n = 2, fifo = false}
sim.world{algorithm = "mutex.lamport", n = 2, fifo = false}`,
			[]string{"2 (FIFO links)", "3 (FIFO links)"}},

		{"within: the defaults", `
for _, a in ipairs(sim.algorithms()) do sim.world{algorithm = a, n = 4} end`, nil},
		{"within: loss, crashes and recoveries for the token ring", `
local w = sim.world{algorithm = "mutex.tokenring", n = 4, loss = 0.1, fifo = false}
w:crash(2)
w:recover(2)`, nil},
		{"within: crashes, recoveries and reordering for the bully", `
local w = sim.world{algorithm = "election.bully", n = 3, fifo = false, latency = {"uniform", 1, 14}, config = {T = 29}}
w:node(3):crash()
w:node(3):recover()`, nil},
		{"within: a healed partition for the bully", `
local w = sim.world{algorithm = "election.bully", n = 4}
w:partition({1, 2}, {3, 4})
w:heal()`, nil},
		{"within: a hop as long as the latency", `
sim.world{algorithm = "election.activelist", n = 3, latency = {"pareto", 1, 2}, config = {hop = 1000}}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, _ := mustRun(t, c.src)
			if len(res.Warnings) != len(c.want) {
				t.Fatalf("%d warnings %+v, want %d: %q", len(res.Warnings), res.Warnings, len(c.want), c.want)
			}
			for i, w := range res.Warnings {
				line, text, _ := strings.Cut(c.want[i], " ")
				if itoa(w.Line) != line || !strings.Contains(w.Text, text) || !strings.HasPrefix(w.Text, "outside the assumptions of ") {
					t.Errorf("warning %d at line %d: %q; want line %s and %q", i+1, w.Line, w.Text, line, text)
				}
				// The trace holds it too, at its seq.
				var found []trace.Event
				for _, e := range worldEvents(res, w.World-1) {
					if e.Type == trace.Warning {
						found = append(found, e)
					}
				}
				if !containsWarning(found, w) {
					t.Errorf("world %d's trace has warnings %+v, not %+v", w.World, found, w)
				}
			}
		})
	}
}

func containsWarning(events []trace.Event, w Warning) bool {
	for _, e := range events {
		if e.Seq == w.Seq && e.Text == w.Text && e.Line == w.Line && e.Node == trace.NoNode {
			return true
		}
	}
	return false
}

// An untraced world warns in the results alone.
func TestAssumptionWarningUntraced(t *testing.T) {
	res, _ := mustRun(t, `local w = sim.world{algorithm = "mutex.lamport", n = 3, fifo = false, trace = false}
w:run()`)
	if len(res.Warnings) != 1 || res.Warnings[0].Seq != 0 || res.Warnings[0].World != 1 {
		t.Fatalf("warnings %+v, want one, with no seq", res.Warnings)
	}
}

// A hook sees a warning like any event.
func TestAssumptionWarningHook(t *testing.T) {
	_, out := mustRun(t, `local w = sim.world{algorithm = "mutex.lamport", n = 3}
w:on("warning", function(ev) print(ev.type, ev.line, ev.text) end)
w:crash(2)`)
	if want := "warning\t3\toutside the assumptions of mutex.lamport (no crash): process 2 crashed\n"; out != want {
		t.Errorf("the hook printed %q, want %q", out, want)
	}
}
