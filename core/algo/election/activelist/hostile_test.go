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
