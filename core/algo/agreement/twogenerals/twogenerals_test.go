package twogenerals

import (
	"testing"

	"dsim/core/algo/agreement"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

// TestProtocol: A sends the attack time and arms its deadline; each
// message expected is acknowledged up to the k-th; a general attacks at
// the deadline only with every message addressed to it.
func TestProtocol(t *testing.T) {
	cfg := map[string]any{"rounds": 3, "attack": 70}
	a, fa := algotest.Booted(t, "agreement.twogenerals", cfg, 1, 1, 2)
	b, fb := algotest.Booted(t, "agreement.twogenerals", cfg, 2, 1, 2)
	if got := fa.Take(); len(got) != 1 || got[0] != (algotest.Sent{To: 2, Msg: Messenger{Seq: 1, At: 70}}) || fa.Timers[timerAttack] != 70 || fb.Timers[timerAttack] != 70 {
		t.Fatalf("A sent %v, timers %v %v", got, fa.Timers, fb.Timers)
	}
	b.Receive(fb, 1, Messenger{Seq: 1, At: 70})
	b.Receive(fb, 1, Messenger{Seq: 1, At: 70}) // a duplicate: not acknowledged twice
	if got := fb.Take(); len(got) != 1 || got[0] != (algotest.Sent{To: 1, Msg: Messenger{Seq: 2, At: 70}}) {
		t.Fatalf("B sent %v", got)
	}
	a.Receive(fa, 2, Messenger{Seq: 2, At: 70})
	if got := fa.Take(); len(got) != 1 || got[0].Msg != (Messenger{Seq: 3, At: 70}) {
		t.Fatalf("A sent %v", got)
	}
	// Message 3 is lost: A has all it expects (2), B lacks 3.
	a.Timer(fa, timerAttack)
	b.Timer(fb, timerAttack)
	if fa.State[agreement.KeyDecision] != 1 || fb.State[agreement.KeyDecision] != 0 {
		t.Errorf("A %v, B %v: want A alone to attack", fa.State[agreement.KeyDecision], fb.State[agreement.KeyDecision])
	}
	// A late messenger changes nothing.
	b.Receive(fb, 1, Messenger{Seq: 3, At: 70})
	if len(fb.Take()) != 0 || fb.State[agreement.KeyDecision] != 0 {
		t.Error("B acted after deciding")
	}
	// A third process takes no part.
	_, fc := algotest.Booted(t, "agreement.twogenerals", cfg, proc.NodeID(3), 1, 2, 3)
	if len(fc.Sent) != 0 || len(fc.Timers) != 0 {
		t.Errorf("P3 sent %v, timers %v", fc.Sent, fc.Timers)
	}
}
