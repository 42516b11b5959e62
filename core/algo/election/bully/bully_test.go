package bully

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

func world(t *testing.T, ids []sim.NodeID, cfg map[string]any) *algotest.World {
	c := map[string]any{"T": 10, "T2": 30}
	for k, v := range cfg {
		c[k] = v
	}
	return algotest.New(t, algotest.Setup{Algo: "election.bully", IDs: ids, Config: c})
}

// sends renders every send as "t KIND from->to".
func sends(w *algotest.World) []string { return sendsSince(w, 0) }

// sendsSince renders the sends from time t on.
func sendsSince(w *algotest.World, t sim.Time) []string {
	var out []string
	for _, m := range w.Sends("") {
		if m.T >= t {
			out = append(out, fmt.Sprintf("%d %s %d->%d", m.T, kindOf(m.Msg), m.From, m.To))
		}
	}
	return out
}

func kindOf(m any) string { return m.(sim.Message).Kind() }

func checkSends(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("sends:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// TestTextbookP1toP4 is seed 000's worked example: P4 is the coordinator;
// P1 and P4 fail; P2's request goes unanswered within T, so P2 sends
// ELECTION to the higher processes; P3 answers and starts its own election;
// P2 waits T'; P4 does not answer within T, so P3 elects itself and tells P1
// (down) and P2. P1 recovers and sends ELECTION to P2, P3, P4; P2 and P3
// answer and start their own elections; P3 is elected again. P4 recovers
// and, with nobody higher, tells P1, P2, P3 at once that it is coordinator.
func TestTextbookP1toP4(t *testing.T) {
	w := world(t, algotest.IDs(4), map[string]any{"leader": 4})
	w.Crash(0, 1, 4)
	w.Command(5, 2, "probe")
	w.Recover(100, 1)
	w.Recover(200, 4)
	w.Run(150)
	w.Elected(3)
	w.Run(0)
	w.Elected(4)
	checkSends(t, sends(w), []string{
		"5 PROBE 2->4",
		"15 ELECTION 2->3", "15 ELECTION 2->4",
		"16 ANSWER 3->2", "16 ELECTION 3->4",
		"26 COORDINATOR 3->1", "26 COORDINATOR 3->2",
		"100 ELECTION 1->2", "100 ELECTION 1->3", "100 ELECTION 1->4",
		"101 ANSWER 2->1", "101 ELECTION 2->3", "101 ELECTION 2->4",
		"101 ANSWER 3->1", "101 ELECTION 3->4",
		"102 ANSWER 3->2",
		"111 COORDINATOR 3->1", "111 COORDINATOR 3->2",
		"200 COORDINATOR 4->1", "200 COORDINATOR 4->2", "200 COORDINATOR 4->3",
	})
	if got := w.Timers(2, "T'"); len(got) != 0 {
		t.Errorf("P2's T' fired at %v; the COORDINATOR should have come first", got)
	}
}

// TestTextbookZeroToSeven is seed 002's example: 7 has crashed; 4 holds an
// election; 5 and 6 answer and hold their own; 6 tells 5 to stop; 6 wins and
// tells everyone.
func TestTextbookZeroToSeven(t *testing.T) {
	ids := []sim.NodeID{0, 1, 2, 3, 4, 5, 6, 7}
	w := world(t, ids, map[string]any{"leader": 7})
	w.Crash(0, 7)
	w.Command(5, 4, "elect")
	w.Run(0)
	checkSends(t, sends(w), []string{
		"5 ELECTION 4->5", "5 ELECTION 4->6", "5 ELECTION 4->7",
		"6 ANSWER 5->4", "6 ELECTION 5->6", "6 ELECTION 5->7",
		"6 ANSWER 6->4", "6 ELECTION 6->7",
		"7 ANSWER 6->5",
		"16 COORDINATOR 6->0", "16 COORDINATOR 6->1", "16 COORDINATOR 6->2",
		"16 COORDINATOR 6->3", "16 COORDINATOR 6->4", "16 COORDINATOR 6->5",
	})
	w.Elected(6)
}

// TestRules checks one rule per row on processes 1..4 through what the
// process under test sends.
func TestRules(t *testing.T) {
	for _, c := range []struct {
		rule  string
		cfg   map[string]any
		setup func(w *algotest.World)
		want  []string // sends of the whole run
		first int      // compare only the first sends (0: all)
		elect sim.NodeID
	}{
		{
			rule:  "ELECTION from a lower process: ANSWER, then its own election",
			cfg:   map[string]any{"leader": 4},
			setup: func(w *algotest.World) { w.Inject(0, 1, 3, Election{}) },
			want: []string{"0 ELECTION 1->3", "1 ANSWER 3->1", "1 ELECTION 3->4",
				"2 ANSWER 4->3", "2 COORDINATOR 4->1", "2 COORDINATOR 4->2", "2 COORDINATOR 4->3"},
			elect: 4,
		},
		{
			rule: "ELECTION during its own election: ANSWER only",
			cfg:  map[string]any{"leader": 4},
			setup: func(w *algotest.World) {
				w.Crash(0, 4)
				w.Command(0, 3, "elect")
				w.Inject(0, 2, 3, Election{})
			},
			want:  []string{"0 ELECTION 3->4", "0 ELECTION 2->3", "1 ANSWER 3->2", "10 COORDINATOR 3->1", "10 COORDINATOR 3->2"},
			elect: 3,
		},
		{
			rule: "no ANSWER within T: it elects itself and tells every lower process",
			setup: func(w *algotest.World) {
				w.Crash(0, 3, 4)
				w.Command(0, 2, "elect")
			},
			want:  []string{"0 ELECTION 2->3", "0 ELECTION 2->4", "10 COORDINATOR 2->1"},
			elect: 2,
		},
		{
			rule: "an ANSWER but no COORDINATOR within T': it restarts the election",
			setup: func(w *algotest.World) {
				w.Crash(0, 4)
				w.Command(0, 2, "elect")
				w.Crash(2, 3) // after answering, before its T expires
			},
			want: []string{"0 ELECTION 2->3", "0 ELECTION 2->4", "1 ANSWER 3->2", "1 ELECTION 3->4",
				"32 ELECTION 2->3", "32 ELECTION 2->4", "42 COORDINATOR 2->1"},
			elect: 2,
		},
		{
			rule:  "COORDINATOR from a higher process is recorded",
			setup: func(w *algotest.World) { w.Inject(0, 4, 1, Coordinator{ID: 4}) },
			want:  []string{"0 COORDINATOR 4->1"},
		},
		{
			rule:  "COORDINATOR from a lower process starts an election (seed 002)",
			cfg:   map[string]any{"leader": 4},
			setup: func(w *algotest.World) { w.Inject(0, 1, 4, Coordinator{ID: 1}) },
			want:  []string{"0 COORDINATOR 1->4", "1 COORDINATOR 4->1", "1 COORDINATOR 4->2", "1 COORDINATOR 4->3"},
			elect: 4,
		},
		{
			rule:  "a PROBE the coordinator answers starts nothing",
			cfg:   map[string]any{"leader": 4},
			setup: func(w *algotest.World) { w.Command(0, 1, "probe") },
			want:  []string{"0 PROBE 1->4", "1 REPLY 4->1"},
			elect: 4,
		},
		{
			rule: "a PROBE unanswered within T starts an election",
			cfg:  map[string]any{"leader": 4},
			setup: func(w *algotest.World) {
				w.Crash(0, 4)
				w.Command(0, 3, "probe")
			},
			want:  []string{"0 PROBE 3->4", "10 ELECTION 3->4", "20 COORDINATOR 3->1", "20 COORDINATOR 3->2"},
			elect: 3,
		},
		{
			rule: "only the coordinator replies: a PROBE to another process starts an election",
			cfg:  map[string]any{"leader": 4},
			setup: func(w *algotest.World) {
				w.Inject(0, 3, 1, Coordinator{ID: 3}) // 1 now wrongly believes in 3
				w.Command(5, 1, "probe")
			},
			want:  []string{"0 COORDINATOR 3->1", "5 PROBE 1->3", "15 ELECTION 1->2", "15 ELECTION 1->3", "15 ELECTION 1->4"},
			first: 5,
			elect: 4,
		},
		{
			rule:  "a probe at a coordinator asks every higher process; a live one answers and takes over",
			cfg:   map[string]any{"leader": 3},
			setup: func(w *algotest.World) { w.Command(0, 3, "probe") },
			want: []string{"0 ELECTION 3->4", "1 ANSWER 4->3",
				"1 COORDINATOR 4->1", "1 COORDINATOR 4->2", "1 COORDINATOR 4->3"},
			elect: 4,
		},
		{
			rule: "a recovered process runs the algorithm; the highest one bullies without asking",
			cfg:  map[string]any{"leader": 3},
			setup: func(w *algotest.World) {
				w.Crash(0, 4)
				w.Recover(5, 4)
			},
			want:  []string{"5 COORDINATOR 4->1", "5 COORDINATOR 4->2", "5 COORDINATOR 4->3"},
			elect: 4,
		},
	} {
		t.Run(c.rule, func(t *testing.T) {
			w := world(t, algotest.IDs(4), c.cfg)
			c.setup(w)
			w.Run(0)
			got := sends(w)
			if c.first > 0 {
				got = got[:min(c.first, len(got))]
			}
			checkSends(t, got, c.want)
			if c.elect != 0 {
				w.Elected(c.elect)
			}
		})
	}
}

// TestPeriodicProbe: with probe on, a coordinator crash is noticed by the
// first PROBE after it, without any command.
func TestPeriodicProbe(t *testing.T) {
	w := world(t, algotest.IDs(4), map[string]any{"leader": 4, "probe": 50})
	w.Crash(60, 4)
	w.Run(300)
	w.Elected(3)
	el := w.Sends("ELECTION")
	if len(el) == 0 || el[0].T != 110 {
		t.Errorf("first ELECTION %v, want at t=110 (probe at 100 + T)", el)
	}
}

func TestCommandErrors(t *testing.T) {
	w := world(t, algotest.IDs(2), nil)
	w.Run(0)
	if err := w.Sim.Command(1, "request", nil); err == nil || !strings.Contains(err.Error(), "elect, probe") {
		t.Errorf("unknown command: err %v, want one listing elect, probe", err)
	}
	if err := w.Sim.Command(1, "probe", sim.Args{"to": 2}); err == nil {
		t.Error("probe with arguments accepted")
	}
}
