package total

import (
	"fmt"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

func start(t *testing.T, variant string, self proc.NodeID) (proc.Node, *algotest.Fake) {
	t.Helper()
	p := algotest.Process(t, "order.total", map[string]any{"variant": variant}, self)
	f := algotest.NewFake(self, 1, 2, 3)
	p.Start(f)
	return p, f
}

func delivered(f *algotest.Fake) string { return fmt.Sprint(f.Trail["delivered"]) }

// A multicast: stamped with the ticked clock, sent to the others, queued at
// the sender until both others acknowledge it.
func TestMulticast(t *testing.T) {
	p, f := start(t, "lamport", 1)
	if err := p.Command(f, "multicast", nil); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(f.Take()); got != "[{2 {1 1 }} {3 {1 1 }}]" {
		t.Errorf("sent %s", got)
	}
	p.Receive(f, 2, Ack{TS: 3, Origin: 1, Seq: 1})
	if f.Trail["delivered"] != nil || f.State["held"] != 1 {
		t.Fatalf("one acknowledgement of two: delivered %s", delivered(f))
	}
	p.Receive(f, 3, Ack{TS: 3, Origin: 1, Seq: 1})
	if delivered(f) != "[1:1]" || f.State["held"] != 0 {
		t.Errorf("both acknowledgements: delivered %s, held %v", delivered(f), f.State["held"])
	}
}

// A received message is queued and acknowledged to every other process,
// the acknowledgement stamped after the receive: C = max(0, 4)+1 = 5, then
// 6 for the acknowledgement's send.
func TestAcknowledge(t *testing.T) {
	p, f := start(t, "lamport", 3)
	p.Receive(f, 2, Msg{TS: 4, Seq: 1})
	if got := fmt.Sprint(f.Take()); got != "[{1 {6 2 1}} {2 {6 2 1}}]" {
		t.Errorf("sent %s", got)
	}
	if f.Trail["delivered"] != nil {
		t.Fatalf("delivered %s before 1 acknowledged", delivered(f))
	}
	p.Receive(f, 1, Ack{TS: 2, Origin: 2, Seq: 1})
	if delivered(f) != "[2:1]" {
		t.Errorf("delivered %s", delivered(f))
	}
}

// Only the head of the queue goes: 1's message (ts 5) is fully
// acknowledged first, but 2's (ts 3) heads the queue and 1's waits for it.
// Equal timestamps go by the sender's id. An acknowledgement that overtakes
// its message (from a third process) counts when the message comes.
func TestHeadOfQueue(t *testing.T) {
	p, f := start(t, "lamport", 3)
	p.Receive(f, 1, Msg{TS: 5, Seq: 1})
	p.Receive(f, 2, Msg{TS: 3, Seq: 1})
	p.Receive(f, 2, Ack{TS: 7, Origin: 1, Seq: 1})
	if f.Trail["delivered"] != nil || f.State["held"] != 2 {
		t.Fatalf("1's message acknowledged behind 2's: delivered %s, held %v", delivered(f), f.State["held"])
	}
	p.Receive(f, 1, Ack{TS: 8, Origin: 2, Seq: 1})
	if delivered(f) != "[2:1 1:1]" {
		t.Errorf("delivered %s, want 2:1 (ts 3) then 1:1 (ts 5)", delivered(f))
	}
	// Ties: 2's and 1's second messages are both stamped 20; 1's comes
	// second but goes first, by the lower id.
	p.Receive(f, 2, Msg{TS: 20, Seq: 2})
	p.Receive(f, 1, Msg{TS: 20, Seq: 2})
	p.Receive(f, 1, Ack{TS: 21, Origin: 2, Seq: 2})
	if delivered(f) != "[2:1 1:1]" {
		t.Fatalf("2:2 delivered behind 1:2 (same ts, lower id): %s", delivered(f))
	}
	p.Receive(f, 2, Ack{TS: 22, Origin: 1, Seq: 2})
	if delivered(f) != "[2:1 1:1 1:2 2:2]" {
		t.Errorf("delivered %s, want 1:2 before 2:2 (ts 20 both)", delivered(f))
	}
	// 1's acknowledgement of 2:3 overtakes 2:3 (another link).
	p.Receive(f, 1, Ack{TS: 30, Origin: 2, Seq: 3})
	p.Receive(f, 2, Msg{TS: 25, Seq: 3})
	if delivered(f) != "[2:1 1:1 1:2 2:2 2:3]" {
		t.Errorf("delivered %s, want 2:3 once it came", delivered(f))
	}
}

// The sequencer (the first process, 1) numbers every message it receives,
// its own included, and sends the order to the others.
func TestSequencer(t *testing.T) {
	p, f := start(t, "sequencer", 1)
	p.Receive(f, 3, Msg{Seq: 1, Payload: "x"})
	if err := p.Command(f, "multicast", proc.Args{"payload": "y"}); err != nil {
		t.Fatal(err)
	}
	want := "[{2 {3 1 0}} {3 {3 1 0}} {2 {0 1 y}} {3 {0 1 y}} {2 {1 1 1}} {3 {1 1 1}}]"
	if got := fmt.Sprint(f.Take()); got != want || delivered(f) != "[3:1 1:1]" {
		t.Errorf("sent %s\nwant %s\ndelivered %s", got, want, delivered(f))
	}
}

// A member holds a message back until it has both the message and its
// order, and the order is r_g: ORDER 1 before ORDER 0 waits.
func TestSequencedHoldBack(t *testing.T) {
	p, f := start(t, "sequencer", 2)
	p.Receive(f, 3, Msg{Seq: 1})
	p.Receive(f, 1, Order{Origin: 3, Seq: 1, S: 1})
	p.Receive(f, 1, Order{Origin: 1, Seq: 1, S: 0})
	if f.Trail["delivered"] != nil || f.State["held"] != 1 {
		t.Fatalf("1:1's order without 1:1: delivered %s, held %v", delivered(f), f.State["held"])
	}
	p.Receive(f, 1, Msg{Seq: 1})
	if delivered(f) != "[1:1 3:1]" || f.State["held"] != 0 {
		t.Errorf("delivered %s, held %v", delivered(f), f.State["held"])
	}
}

func TestBadVariant(t *testing.T) {
	spec, _ := algo.Lookup("order.total")
	v, err := spec.Resolve(map[string]any{"variant": "isis"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spec.New(v); err == nil || err.Error() != `config key "variant": want "lamport" or "sequencer", got "isis"` {
		t.Errorf("variant=isis: %v", err)
	}
}
