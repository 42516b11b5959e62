package activelist

import (
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
	"dsim/core/trace"
)

// TestIDOfNoProcess: a hand-made elect(j) naming an id no process has
// joins the active lists like any other, but case c never picks it as the
// coordinator. Here it is in 1's list when 1's own elect(1) is back, and
// 1 used to follow 99 until the fake message, back at 1, started a round
// without it.
func TestIDOfNoProcess(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "election.activelist", IDs: algotest.IDs(4), Config: map[string]any{"restart": false}})
	w.Command(0, 1, "elect")
	w.Inject(0, 4, 1, Elect{ID: 99, Round: 1})
	w.Run(0)
	w.Elected(4)
	for _, e := range w.Rec.Events {
		if e.Type == trace.State && e.Key == "leader" && e.New == sim.NodeID(99) {
			t.Errorf("t=%d: %d follows 99, which is no process", e.T, e.Node)
		}
	}
}

// TestHandMadeInquiries: an INQUIRY or REPLY that names no process as the
// inquirer would circle for ever, and a REPLY that no inquiry asked for
// changes nothing: each is dropped with the reason logged, and the run
// goes quiet with 4 the coordinator.
func TestHandMadeInquiries(t *testing.T) {
	for _, c := range []struct {
		rule string
		msg  sim.Message
		at   sim.NodeID
		log  string
	}{
		{"an INQUIRY from no process is dropped", Inquiry{Origin: 99}, 2, "is no process"},
		{"a REPLY to no process is dropped", Reply{ID: 4, To: 99, Round: 1}, 2, "is no process"},
		{"a REPLY nobody asked for is dropped", Reply{ID: 1, To: 2, Round: 7}, 2, "no inquiry is under way"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			w := algotest.New(t, algotest.Setup{Algo: "election.activelist", IDs: algotest.IDs(4), Config: map[string]any{"leader": 4}})
			w.Inject(0, 1, c.at, c.msg)
			if r := w.Run(0); r.Reason != sim.Quiescent {
				t.Fatalf("run ended %s, want quiescent", r)
			}
			w.CheckLogged(c.at, c.log)
			if n := len(w.Sends("INQUIRY")) + len(w.Sends("REPLY")); n != 1 {
				t.Errorf("%d INQUIRY or REPLY messages sent, want only the hand-made one", n)
			}
			w.Elected(4)
		})
	}
}
