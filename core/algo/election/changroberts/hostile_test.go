package changroberts

import (
	"fmt"
	"strings"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

// TestUIDOfNoProcess: an ELECTION or ELECTED naming a UID above every
// process (hand-made) is dropped at once. Forwarded by rules 4a and 5b, no
// process would ever stop it: it circled for ever, every process took the
// ELECTED's UID for its coordinator, and the run never became quiescent.
func TestUIDOfNoProcess(t *testing.T) {
	for _, m := range []sim.Message{Election{ID: 99}, Elected{ID: 99}} {
		w := algotest.New(t, algotest.Setup{Algo: "election.changroberts", IDs: []sim.NodeID{3, 1, 4, 2}, Config: map[string]any{"restart": false}})
		w.Inject(0, 1, 4, m)
		w.Command(5, 2, "elect")
		w.Run(0) // fails the test if the event limit stops it
		w.Elected(4)
		w.CheckLogged(4, "dropped: no process has UID 99")
		if n := len(w.Delivered(m.Kind())); n > 8 {
			t.Errorf("%s: %d delivered, want the hand-made one and the election's own", m.Kind(), n)
		}
	}
}

// TestUIDOfNoProcessDuringElection: a hand-made ELECTION above every
// process that enters while an election runs passes the participants
// unasked (rule 4a) and is dropped by the first process it meets that is
// no longer in an election.
func TestUIDOfNoProcessDuringElection(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "election.changroberts", IDs: []sim.NodeID{3, 1, 4, 2}, Config: map[string]any{"restart": false, "all": true}})
	w.Inject(1, 1, 4, Election{ID: 99}) // every process is a participant by then
	w.Run(0)                            // fails the test if the event limit stops it
	w.Elected(4)
	droppedBy := sim.NodeID(0)
	for _, id := range []sim.NodeID{3, 1, 4, 2} {
		if w.Logged(id, "ELECTION(99) dropped: no process has UID 99") {
			droppedBy = id
		}
	}
	forwarded := 0
	for _, d := range w.Delivered("ELECTION") {
		if strings.Contains(fmt.Sprint(d.Msg), "99") {
			forwarded++
		}
	}
	if droppedBy == 0 || forwarded < 2 || forwarded > 8 {
		t.Errorf("ELECTION(99) delivered %d times, dropped by %d: want it passed on by participants, then dropped within a lap", forwarded, droppedBy)
	}
	if forwarded < 2 || forwarded > 8 {
		t.Errorf("ELECTION(99) delivered %d times, want it forwarded by the participants, then dropped within a lap", forwarded)
	}
}
