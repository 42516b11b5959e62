package ring

import (
	"testing"

	"dsim/core/sim"
)

// TestIDsOfNoProcess: ids in a hand-made message that no process has are
// never the coordinator, and a COORDINATOR whose origin is no process is
// dropped: it stops only back at its origin, so it circled for ever.
func TestIDsOfNoProcess(t *testing.T) {
	t.Run("in the list", func(t *testing.T) {
		w := world(t, []sim.NodeID{3, 1, 4, 2}, map[string]any{"restart": false})
		w.Inject(0, 3, 1, Election{List: []sim.NodeID{99, 3}})
		w.Run(0)
		w.Elected(4)
	})
	t.Run("origin", func(t *testing.T) {
		w := world(t, []sim.NodeID{3, 1, 4, 2}, map[string]any{"restart": false})
		w.Inject(0, 3, 1, Coordinator{ID: 4, Origin: 99})
		w.Run(0) // fails the test if the event limit stops it
		if n := len(w.Delivered("COORDINATOR")); n != 1 || !w.Logged(1, "its origin 99 is no process") {
			t.Errorf("%d COORDINATOR delivered, 1 logged %q; want the hand-made one dropped", n, w.Logs(1))
		}
	})
}
