package ring

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

func world(t *testing.T, ids []sim.NodeID, cfg map[string]any) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "election.ring", IDs: ids, Config: cfg, Detect: 5})
}

func list(ids ...sim.NodeID) Election { return Election{List: ids} }

// TestSixProcessWalkthrough is the lecture notes' "Token Ring Election Algorithm"
// steps 0-11: on the ring 3,5,0,1,4,6 the coordinator 6 fails, 3 notices and
// starts an election, each process adds its id, 4 skips 6, 3 finds its own
// id in [3,5,0,1,4] and circulates "5 is the leader", which stops at 3.
func TestSixProcessWalkthrough(t *testing.T) {
	w := world(t, []sim.NodeID{3, 5, 0, 1, 4, 6}, map[string]any{"leader": 6, "watch": false})
	w.Crash(0, 6)
	w.Command(10, 3, "elect") // 3 notices: the detector has suspected 6 since t=5
	w.Run(0)
	var got []string
	for _, m := range w.Sends("ELECTION") {
		got = append(got, fmt.Sprintf("%d->%d %v", m.From, m.To, m.Msg.(Election).List))
	}
	want := []string{"3->5 [3]", "5->0 [3 5]", "0->1 [3 5 0]", "1->4 [3 5 0 1]", "4->3 [3 5 0 1 4]"}
	if !slices.Equal(got, want) {
		t.Errorf("ELECTION messages:\n got %v\nwant %v", got, want)
	}
	if got := algotest.Pairs(w.Sends("COORDINATOR")); got != "3->5 5->0 0->1 1->4 4->3" {
		t.Errorf("COORDINATOR went %s, want 3->5 5->0 0->1 1->4 4->3", got)
	}
	for _, m := range w.Sends("COORDINATOR") {
		if m.Msg != (Coordinator{ID: 5, Origin: 3}) {
			t.Errorf("%v, want COORDINATOR 5 from origin 3", m)
		}
	}
	w.Elected(5)
}

// TestConcurrentElections is the handwritten notes' example: on the ring 0..7 with 7
// crashed, 2 and 5 start elections at once; the lists come back as
// [2,3,4,5,6,0,1] and [5,6,0,1,2,3,4] and both initiators announce 6.
func TestConcurrentElections(t *testing.T) {
	w := world(t, []sim.NodeID{0, 1, 2, 3, 4, 5, 6, 7}, map[string]any{"watch": false})
	w.Crash(0, 7)
	w.Command(10, 2, "elect")
	w.Command(10, 5, "elect")
	w.Run(0)
	back := map[sim.NodeID][]sim.NodeID{}
	for _, m := range w.Delivered("ELECTION") {
		if l := m.Msg.(Election).List; l[0] == m.To {
			back[m.To] = l
		}
	}
	if want := []sim.NodeID{2, 3, 4, 5, 6, 0, 1}; !slices.Equal(back[2], want) {
		t.Errorf("2's ELECTION came back as %v, want %v", back[2], want)
	}
	if want := []sim.NodeID{5, 6, 0, 1, 2, 3, 4}; !slices.Equal(back[5], want) {
		t.Errorf("5's ELECTION came back as %v, want %v", back[5], want)
	}
	origins := map[sim.NodeID]int{}
	for _, m := range w.Sends("COORDINATOR") {
		c := m.Msg.(Coordinator)
		if c.ID != 6 {
			t.Errorf("%v announces %d, want 6", m, c.ID)
		}
		origins[c.Origin]++
	}
	if origins[2] != 7 || origins[5] != 7 || len(origins) != 2 {
		t.Errorf("COORDINATOR hops by origin %v, want 7 from 2 and 7 from 5", origins)
	}
	w.Elected(6)
}

// TestRules checks each rule on the ring 1 -> 2 -> 9 -> 1 through what
// process 2 sends first when handed a message.
func TestRules(t *testing.T) {
	for _, c := range []struct {
		rule string
		give sim.Message
		kind string
		want sim.Message
	}{
		{"an ELECTION without the receiver's id gets it added and goes on", list(1), "ELECTION", list(1, 2)},
		{"an ELECTION with the receiver's id has been round: COORDINATOR(highest) starts from it", list(2, 9, 1), "COORDINATOR", Coordinator{ID: 9, Origin: 2}},
		{"a COORDINATOR is recorded and passed on unchanged", Coordinator{ID: 9, Origin: 1}, "COORDINATOR", Coordinator{ID: 9, Origin: 1}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			w := world(t, []sim.NodeID{1, 2, 9}, map[string]any{"leader": 9})
			w.Inject(0, 1, 2, c.give)
			w.Run(0)
			got := w.SentBy(c.kind, 2)
			if len(got) == 0 || !equal(got[0], c.want) {
				t.Fatalf("process 2 sent %s %v, want first %v", c.kind, got, c.want)
			}
			w.Elected(9)
		})
	}
}

// TestLowerCoordinatorIsRefused: an election that missed a live higher
// process announced a lower one; the receiver refuses it and elects (the
// lecture notes' bully rule).
func TestLowerCoordinatorIsRefused(t *testing.T) {
	w := world(t, []sim.NodeID{1, 2, 9}, nil)
	w.Inject(0, 1, 2, Coordinator{ID: 1, Origin: 1})
	w.Run(0)
	if got := w.SentBy("ELECTION", 2); len(got) == 0 || !equal(got[0], list(2)) {
		t.Fatalf("process 2 sent ELECTION %v, want first %v", got, list(2))
	}
	if got := w.SentBy("COORDINATOR", 2); len(got) != 0 && got[0] == (Coordinator{ID: 1, Origin: 1}) {
		t.Errorf("process 2 passed on the refused announcement")
	}
	w.Elected(9)
}

// TestLateCoordinatorIsDropped: an announcement from an older election that
// arrives after a newer one (reordered links) changes nothing.
func TestLateCoordinatorIsDropped(t *testing.T) {
	w := world(t, []sim.NodeID{1, 2, 5, 9}, map[string]any{"leader": 9})
	w.Inject(0, 1, 2, Coordinator{ID: 5, Origin: 1})
	w.Run(0)
	if got := w.SentBy("COORDINATOR", 2); len(got) != 0 {
		t.Errorf("process 2 passed on the late announcement: %v", got)
	}
	if got := w.SentBy("ELECTION", 2); len(got) != 0 {
		t.Errorf("process 2 started an election on a late announcement: %v", got)
	}
	w.Elected(9)
}

func equal(a, b any) bool {
	if x, ok := a.(Election); ok {
		y, ok := b.(Election)
		return ok && slices.Equal(x.List, y.List)
	}
	return a == b
}

// TestCoordinatorStopsAtOrigin: the announcement makes exactly one round.
func TestCoordinatorStopsAtOrigin(t *testing.T) {
	w := world(t, algotest.IDs(5), map[string]any{"restart": false})
	w.Command(0, 3, "elect")
	if r := w.Run(0); r.Reason != sim.Quiescent {
		t.Fatalf("run ended %s", r)
	}
	if got := algotest.Pairs(w.Sends("COORDINATOR")); got != "3->4 4->5 5->1 1->2 2->3" {
		t.Errorf("COORDINATOR went %s", got)
	}
	if n := w.Count("ELECTION"); n != 5 {
		t.Errorf("%d ELECTION messages, want n=5", n)
	}
	w.Elected(5)
}

// TestInitiatorCrashes: the initiator crashes after sending; the message
// skips it and the first listed process that gets it back completes.
func TestInitiatorCrashes(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "election.ring", IDs: algotest.IDs(4), Detect: 1})
	w.Command(0, 1, "elect")
	w.Crash(1, 1)
	w.Run(0)
	if got := w.SentBy("COORDINATOR", 2); len(got) == 0 || got[0] != (Coordinator{ID: 4, Origin: 2}) {
		t.Errorf("2 sent COORDINATOR %v, want first {4 2}", got)
	}
	w.Elected(4)
}

// TestWatch checks who notices the coordinator's failure on the
// walkthrough's ring 3,5,0,1,4,6 when 6 crashes and no elect command is
// given: by default its first live successor alone (3, or 5 when 3 is down
// too), which gives the walkthrough's 5 ELECTION and 5 COORDINATOR
// messages; with watch_all every process that suspects it (five concurrent
// elections, 50 messages); with watch off nobody.
func TestWatch(t *testing.T) {
	for _, c := range []struct {
		rule       string
		cfg        map[string]any
		crash      []sim.NodeID
		initiators []sim.NodeID
		messages   int
		leader     sim.NodeID
	}{
		{"watch: the coordinator's first live successor notices", nil, []sim.NodeID{6}, []sim.NodeID{3}, 10, 5},
		{"watch: the successor is down too, the next live one notices", nil, []sim.NodeID{6, 3}, []sim.NodeID{5}, 8, 5},
		{"watch_all: every process that suspects the coordinator starts", map[string]any{"watch_all": true}, []sim.NodeID{6}, []sim.NodeID{3, 5, 0, 1, 4}, 50, 5},
		{"watch off: nobody starts", map[string]any{"watch": false}, []sim.NodeID{6}, nil, 0, -1},
	} {
		t.Run(c.rule, func(t *testing.T) {
			cfg := map[string]any{"leader": 6}
			for k, v := range c.cfg {
				cfg[k] = v
			}
			w := world(t, []sim.NodeID{3, 5, 0, 1, 4, 6}, cfg)
			w.Crash(0, c.crash...)
			w.Run(0)
			var initiators []sim.NodeID
			for _, m := range w.Sends("ELECTION") {
				if len(m.Msg.(Election).List) == 1 {
					initiators = append(initiators, m.From)
				}
			}
			if !slices.Equal(initiators, c.initiators) {
				t.Errorf("ELECTION[own id] sent by %v, want the initiators %v", initiators, c.initiators)
			}
			if got := w.Count("ELECTION") + w.Count("COORDINATOR"); got != c.messages {
				t.Errorf("%d messages, want %d", got, c.messages)
			}
			if c.leader >= 0 {
				w.Elected(c.leader)
			}
		})
	}
}

// TestRecoveredHighestTakesOver: 6 recovers, waits until the detector
// trusts it, and its election makes it coordinator again.
func TestRecoveredHighestTakesOver(t *testing.T) {
	w := world(t, []sim.NodeID{3, 5, 0, 1, 4, 6}, map[string]any{"leader": 6})
	w.Crash(0, 6)
	w.Recover(100, 6)
	w.Run(0)
	w.Elected(6)
}

// TestLostElectionRestarts: ELECTION sent to a process that crashed less
// than the detector delay ago is lost; the restart timer elects again.
func TestLostElectionRestarts(t *testing.T) {
	w := world(t, algotest.IDs(4), map[string]any{"hop": 4})
	w.Crash(0, 2)
	w.Command(0, 1, "elect")
	w.Run(0)
	if got := w.Timers(1, "restart"); !slices.Equal(got, []sim.Time{48}) {
		t.Errorf("restart timer of 1 fired at %v, want [48]", got)
	}
	w.Elected(4)
}
