package activelist

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
	"dsim/core/trace"
)

func world(t *testing.T, ids []sim.NodeID, cfg map[string]any) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "election.activelist", IDs: ids, Config: cfg, Detect: 5})
}

// sends renders the ELECT messages as "t from->to elect(id)/round".
func sends(w *algotest.World) []string {
	var out []string
	for _, m := range w.Sends("ELECT") {
		e := m.Msg.(Elect)
		out = append(out, fmt.Sprintf("%d %d->%d elect(%d)/%d", m.T, m.From, m.To, e.ID, e.Round))
	}
	return out
}

func checkSends(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("sends:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// lists returns the successive active lists of node id.
func lists(w *algotest.World, id sim.NodeID) []string {
	var out []string
	for _, e := range w.Rec.Events {
		if e.Type == trace.State && e.Node == int(id) && e.Key == "active" {
			out = append(out, fmt.Sprint(e.New))
		}
	}
	return out
}

// TestTextbookP1toP4 is the lecture notes' Example1: ring P1..P4, P4 coordinator,
// P1 and P4 crash, P2 detects it; P2 sends elect(2) and sets its list to
// [2]; P3 sees its first elect message, sets [2,3] and sends elect(3) then
// elect(2), which pass P4 and P1 and reach P2; P2 adds 3 and forwards
// elect(3); its own elect(2) back, P2 picks 3 from [2,3]; P3 gets elect(3)
// back and picks 3 too.
func TestTextbookP1toP4(t *testing.T) {
	w := world(t, algotest.IDs(4), map[string]any{"leader": 4, "watch": false})
	w.Crash(0, 1, 4)
	w.Command(10, 2, "elect") // P2 detects that P4 is not responding
	w.Run(0)
	checkSends(t, sends(w), []string{
		"10 2->3 elect(2)/1",
		"11 3->2 elect(3)/1", "11 3->2 elect(2)/1",
		"12 2->3 elect(3)/1",
	})
	if got := lists(w, 2); !slices.Equal(got, []string{"[2]", "[2 3]"}) {
		t.Errorf("P2's active lists %v, want [2] then [2 3]", got)
	}
	if got := lists(w, 3); !slices.Equal(got, []string{"[2 3]"}) {
		t.Errorf("P3's active lists %v, want [2 3]", got)
	}
	w.Elected(3)
}

// TestCases checks cases a, b and c and the round rules on the ring
// 1 -> 2 -> 9 -> 1 through what process 2 sends.
func TestCases(t *testing.T) {
	for _, c := range []struct {
		rule  string
		setup func(w *algotest.World)
		want  []string // process 2's first sends
		lists []string // process 2's first active lists
	}{
		{
			rule:  "a: the first elect message seen: list [j,i], send elect(i) then elect(j)",
			setup: func(w *algotest.World) { w.Inject(0, 1, 2, Elect{ID: 1, Round: 1}) },
			want:  []string{"1 2->9 elect(2)/1", "1 2->9 elect(1)/1"},
			lists: []string{"[1 2]"},
		},
		{
			rule: "b: j != i is added to the list and forwarded",
			setup: func(w *algotest.World) {
				w.Command(0, 2, "elect")
				w.Inject(0, 1, 2, Elect{ID: 1, Round: 1})
			},
			want:  []string{"0 2->9 elect(2)/1", "1 2->9 elect(1)/1"},
			lists: []string{"[2]", "[2 1]"},
		},
		{
			rule: "c: its own elect back, the largest of the list is coordinator",
			setup: func(w *algotest.World) {
				w.Command(0, 2, "elect")
				w.Inject(0, 1, 2, Elect{ID: 2, Round: 1})
			},
			want:  []string{"0 2->9 elect(2)/1"},
			lists: []string{"[2]"},
		},
		{
			rule: "a newer round replaces the election under way",
			setup: func(w *algotest.World) {
				w.Command(0, 2, "elect")
				w.Inject(0, 1, 2, Elect{ID: 1, Round: 5})
			},
			want:  []string{"0 2->9 elect(2)/1", "1 2->9 elect(2)/5", "1 2->9 elect(1)/5"},
			lists: []string{"[2]", "[1 2]"},
		},
		{
			rule: "an older round is dropped during an election",
			setup: func(w *algotest.World) {
				w.Inject(0, 1, 2, Elect{ID: 1, Round: 5})
				w.Inject(1, 1, 2, Elect{ID: 1, Round: 2})
			},
			want:  []string{"1 2->9 elect(2)/5", "1 2->9 elect(1)/5"},
			lists: []string{"[1 2]"},
		},
		{
			rule: "an older round after the election starts a new round: its sender is behind",
			setup: func(w *algotest.World) {
				w.Command(0, 2, "elect")
				w.Inject(20, 1, 2, Elect{ID: 1, Round: 0})
			},
			want: []string{"0 2->9 elect(2)/1", "3 2->9 elect(1)/1", "3 2->9 elect(9)/1",
				"21 2->9 elect(2)/2"},
			lists: []string{"[2]", "[2 1]", "[2 1 9]", "[2]"},
		},
		{
			rule: "an elect of the finished round from a process missing from the list starts a new round",
			setup: func(w *algotest.World) {
				w.Command(0, 2, "elect")
				w.Inject(20, 1, 2, Elect{ID: 7, Round: 1})
			},
			want: []string{"0 2->9 elect(2)/1", "3 2->9 elect(1)/1", "3 2->9 elect(9)/1",
				"21 2->9 elect(2)/2"},
			lists: []string{"[2]", "[2 1]", "[2 1 9]", "[2]"},
		},
		{
			rule: "a second elect(j) within a round: j has lost its state, a new round starts",
			setup: func(w *algotest.World) {
				w.Command(0, 2, "elect")
				w.Inject(0, 1, 2, Elect{ID: 1, Round: 1})
				w.Inject(1, 1, 2, Elect{ID: 1, Round: 1})
			},
			want:  []string{"0 2->9 elect(2)/1", "1 2->9 elect(1)/1", "2 2->9 elect(2)/2"},
			lists: []string{"[2]", "[2 1]", "[2]"},
		},
	} {
		t.Run(c.rule, func(t *testing.T) {
			w := world(t, []sim.NodeID{1, 2, 9}, nil)
			c.setup(w)
			w.Run(0)
			var mine []string
			for _, s := range sends(w) {
				if strings.Contains(s, " 2->") {
					mine = append(mine, s)
				}
			}
			checkSends(t, mine[:min(len(mine), len(c.want))], c.want)
			if got := lists(w, 2); !slices.Equal(got[:min(len(got), len(c.lists))], c.lists) {
				t.Errorf("process 2's active lists %v, want first %v", got, c.lists)
			}
			w.Elected(9)
		})
	}
}

// TestCoordinatorCrashWatched: the coordinator's first live successor (3)
// notices and starts an election; every live process's elect(i) passes
// the five live processes.
func TestCoordinatorCrashWatched(t *testing.T) {
	w := world(t, []sim.NodeID{3, 5, 0, 1, 4, 6}, map[string]any{"leader": 6})
	w.Crash(0, 6)
	w.Run(0)
	w.Elected(5)
	if got := w.Count("ELECT"); got != 25 {
		t.Errorf("%d ELECT messages, want 25: five processes' elect(i) each passing five", got)
	}
}

// TestRecoveredHighestTakesOver: 6 waits for the detector to trust it, then
// its election makes it coordinator again.
func TestRecoveredHighestTakesOver(t *testing.T) {
	w := world(t, []sim.NodeID{3, 5, 0, 1, 4, 6}, map[string]any{"leader": 6})
	w.Crash(0, 6)
	w.Recover(100, 6)
	w.Run(0)
	w.Elected(6)
}

// TestSuccessorBackStartsNewRound: 3 recovers while an election skipping it
// is under way; its predecessor 2 notices when it next forwards, and starts
// a new round that 3 takes part in from the start.
func TestSuccessorBackStartsNewRound(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "election.activelist", IDs: algotest.IDs(6),
		Config: map[string]any{"watch": false}, Detect: 5,
		Link: sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: 4}, FIFO: true}})
	w.Crash(0, 3)
	w.Command(10, 2, "elect")
	w.Command(11, 6, "elect")
	w.Recover(12, 3)
	w.Run(0)
	w.Elected(6)
	var backs int
	for _, e := range w.Rec.Events {
		if e.Type == trace.Log && e.Node == 2 && strings.Contains(e.Text, "is back since this round began") {
			backs++
		}
	}
	if backs != 1 {
		t.Errorf("process 2 noticed 3 back %d times, want once", backs)
	}
}

// TestLostElectRestarts: elect sent to a process that crashed less than the
// detector delay ago is lost; the restart timer starts a new round.
func TestLostElectRestarts(t *testing.T) {
	w := world(t, algotest.IDs(4), map[string]any{"hop": 4})
	w.Crash(0, 2)
	w.Command(0, 1, "elect")
	w.Run(0)
	if got := w.Timers(1, "restart"); !slices.Equal(got, []sim.Time{48}) {
		t.Errorf("restart timer of 1 fired at %v, want [48]", got)
	}
	w.Elected(4)
}

// TestDetectionAtParticipant: on the ring 1..4, 1 detects the failure and
// starts the election at t=0; 3 then detects it too (the elect command). A
// participant's own later detection adds nothing (case a is for the first
// elect message it has seen or sent): the election still takes n² = 16
// ELECT messages (it took 31 when 3 started a round of its own). A process
// not yet in an election, or one whose election is over, starts one.
func TestDetectionAtParticipant(t *testing.T) {
	for _, c := range []struct {
		rule    string
		at      sim.Time
		elects  int
		ignored bool
	}{
		{"a participant (it has forwarded an elect) that detects the failure does nothing", 3, 16, true},
		{"a process that has seen no elect message starts the election: the rounds merge", 0, 16, false},
		{"a process whose election is over starts a new one", 20, 32, false},
	} {
		t.Run(c.rule, func(t *testing.T) {
			w := world(t, algotest.IDs(4), map[string]any{"elected": false})
			w.Command(0, 1, "elect")
			w.Command(c.at, 3, "elect")
			w.Run(0)
			if got := w.Count("ELECT"); got != c.elects {
				t.Errorf("%d ELECT messages, want %d", got, c.elects)
			}
			if got := w.Logged(3, "elect ignored"); got != c.ignored {
				t.Errorf("3 logged that it ignored elect: %v, want %v", got, c.ignored)
			}
			w.Elected(4)
		})
	}
}

// TestElected is the end of the lecture notes' Example1: in case c P2 and
// P3 each choose P3 and send an "Elected(P3)" message to their right
// neighbour; the receiver, whose own list gives the same answer, does not
// forward it. With elected off there is no announcement.
func TestElected(t *testing.T) {
	for _, c := range []struct {
		rule string
		cfg  map[string]any
		want []string
	}{
		{"case c sends Elected(coordinator) to the right neighbour", nil, []string{"2->3 3", "3->2 3"}},
		{"elected off: no announcement", map[string]any{"elected": false}, nil},
	} {
		t.Run(c.rule, func(t *testing.T) {
			w := example1(t, c.cfg)
			w.Run(0)
			var got []string
			for _, m := range w.Sends("ELECTED") {
				got = append(got, fmt.Sprintf("%d->%d %d", m.From, m.To, m.Msg.(Elected).ID))
			}
			checkSends(t, got, c.want)
			if n := w.Count("ELECT"); n != 4 {
				t.Errorf("%d ELECT messages, want the example's 4", n)
			}
			w.Elected(3)
		})
	}
}

// example1 is the notes' Example1 on the ring 1..4 with the config
// overrides: P1 and P4 (the coordinator) crash, and P2 detects it at t=10.
func example1(t *testing.T, overrides map[string]any) *algotest.World {
	t.Helper()
	cfg := map[string]any{"leader": 4, "watch": false}
	for k, v := range overrides {
		cfg[k] = v
	}
	w := world(t, algotest.IDs(4), cfg)
	w.Crash(0, 1, 4)
	w.Command(10, 2, "elect")
	return w
}

// TestRecovery: after the notes' example (P1 and P4 down, P3 elected) a
// process recovers. By default it sends the textbook's inquiry round the
// ring to the coordinator, which replies with its number: P1 learns of P3
// with 2 INQUIRY and 1 REPLY and no election; P4, higher than the
// coordinator that replies, starts an election of the next round (the
// reply carries the round) and wins with 9 ELECT messages. With inquiry off
// a recovered process starts an election: P1, knowing no round, sends an
// elect of round 1, which P2 finds is a round that has ended, so P2 starts
// round 2: 10 ELECT messages.
func TestRecovery(t *testing.T) {
	for _, c := range []struct {
		rule    string
		cfg     map[string]any
		recover sim.NodeID
		inquiry string // the INQUIRY and REPLY messages, "from->to"
		elects  int    // ELECT messages after the recovery
		elected sim.NodeID
	}{
		{"inquiry: the coordinator's reply tells P1 its number", nil, 1, "INQUIRY 1->2 2->3 REPLY 3->1", 0, 3},
		{"inquiry: a reply lower than the inquirer starts an election", nil, 4, "INQUIRY 4->2 2->3 REPLY 3->4", 9, 4},
		{"inquiry off: a recovered process starts an election", map[string]any{"inquiry": false}, 1, "INQUIRY  REPLY ", 10, 3},
	} {
		t.Run(c.rule, func(t *testing.T) {
			w := example1(t, c.cfg)
			w.Recover(100, c.recover)
			w.Run(0)
			got := "INQUIRY " + algotest.Pairs(w.Sends("INQUIRY")) + " REPLY " + algotest.Pairs(w.Sends("REPLY"))
			if got != c.inquiry {
				t.Errorf("%s, want %s", got, c.inquiry)
			}
			var after int
			for _, m := range w.Sends("ELECT") {
				if m.T >= 100 {
					after++
				}
			}
			if after != c.elects {
				t.Errorf("%d ELECT messages after the recovery, want %d", after, c.elects)
			}
			w.Elected(c.elected)
		})
	}
}
