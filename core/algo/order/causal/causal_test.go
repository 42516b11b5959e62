package causal

import (
	"fmt"
	"strings"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

func start(t *testing.T, self proc.NodeID) (proc.Node, *algotest.Fake) {
	t.Helper()
	p := algotest.Process(t, "order.causal", nil, self)
	f := algotest.NewFake(self, 0, 1, 2)
	p.Start(f)
	return p, f
}

// CO-multicast: VT_i[i] counts the message, which carries VT_i; the sender
// delivers it at once.
func TestMulticast(t *testing.T) {
	p, f := start(t, 1)
	p.Receive(f, 0, Msg{VT: []int{1, 0, 0}})
	if err := p.Command(f, "multicast", proc.Args{"payload": "re"}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(f.Take()); got != "[{2 {[1 1 0] re}} {0 {[1 1 0] re}}]" {
		t.Errorf("sent %s", got)
	}
	if got := fmt.Sprint(f.Trail["delivered"], f.Trail["vt"]); got != "[0:1 1:1] [[0 0 0] [1 0 0] [1 1 0]]" {
		t.Errorf("delivered and vt: %s", got)
	}
}

// Tanenbaum and van Steen's Figure 6-13 (section 6.2.2, "Enforcing Causal
// Communication"): P0 multicasts m with ts (1,0,0); P1 delivers it and
// multicasts m* with ts (1,1,0), which reaches P2 first. With VT_2 =
// (0,0,0), ts(m*)[1] = VT_2[1]+1 but ts(m*)[0] = 1 > VT_2[0]: m* waits
// until m is delivered, then goes.
func TestFigure613(t *testing.T) {
	p, f := start(t, 2)
	p.Receive(f, 1, Msg{VT: []int{1, 1, 0}, Payload: "m*"})
	if f.Trail["delivered"] != nil || f.State["held"] != 1 {
		t.Fatalf("m* first: delivered %v, held %v", f.Trail["delivered"], f.State["held"])
	}
	p.Receive(f, 0, Msg{VT: []int{1, 0, 0}, Payload: "m"})
	if got := fmt.Sprint(f.Trail["post"], f.Trail["vt"], f.State["held"]); got != "[m m*] [[0 0 0] [1 0 0] [1 1 0]] 0" {
		t.Errorf("posts, vt, held: %s", got)
	}
}

// FIFO among one sender's messages is part of it: the second message of P0
// waits for the first.
func TestHoldBackFIFO(t *testing.T) {
	p, f := start(t, 2)
	p.Receive(f, 0, Msg{VT: []int{2, 0, 0}})
	p.Receive(f, 0, Msg{VT: []int{1, 0, 0}})
	if got := fmt.Sprint(f.Trail["delivered"]); got != "[0:1 0:2]" {
		t.Errorf("delivered %s", got)
	}
	p.Receive(f, 0, Msg{VT: []int{1, 0, 0}})
	p.Receive(f, 0, Msg{VT: []int{1, 0}})
	logs := strings.Join(f.Logs, "\n")
	if !strings.Contains(logs, "0:1 again, already delivered: dropped") || !strings.Contains(logs, "a vector of 2 entries from 0, not a member's of 3: dropped") || f.State["held"] != 0 {
		t.Errorf("a copy and a short vector: logs %q, held %v", f.Logs, f.State["held"])
	}
}
