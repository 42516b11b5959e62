package fifo

import (
	"fmt"
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

func start(t *testing.T, config map[string]any, self proc.NodeID) (proc.Node, *algotest.Fake) {
	t.Helper()
	p := algotest.Process(t, "order.fifo", config, self)
	f := algotest.NewFake(self, 1, 2, 3)
	p.Start(f)
	return p, f
}

func delivered(f *algotest.Fake) string { return fmt.Sprint(f.Trail["delivered"]) }

// FO-multicast: the message carries S_p = 1, 2, ... to every other member,
// and the sender delivers it at once.
func TestMulticast(t *testing.T) {
	p, f := start(t, nil, 1)
	for _, payload := range []string{"a", "b"} {
		if err := p.Command(f, "multicast", proc.Args{"payload": payload}); err != nil {
			t.Fatal(err)
		}
	}
	if got := fmt.Sprint(f.Take()); got != "[{2 {1 a}} {3 {1 a}} {2 {2 b}} {3 {2 b}}]" {
		t.Errorf("sent %s", got)
	}
	if delivered(f) != "[1:1 1:2]" || f.State["post"] != "b" || f.State["multicasts"] != 2 {
		t.Errorf("delivered %s, state %v", delivered(f), f.State)
	}
}

// FO-deliver: messages 2 and 3 of process 2 overtake its first; they wait
// in the hold-back queue until S = R_q + 1, then all three go in order.
// Process 3's first message is next from 3, delivered at once.
func TestHoldBack(t *testing.T) {
	p, f := start(t, nil, 1)
	p.Receive(f, 2, Msg{S: 3, Payload: "c"})
	p.Receive(f, 2, Msg{S: 2, Payload: "b"})
	p.Receive(f, 3, Msg{S: 1, Payload: "x"})
	if delivered(f) != "[3:1]" || f.State["held"] != 2 {
		t.Fatalf("before 2's first: delivered %s, held %v", delivered(f), f.State["held"])
	}
	p.Receive(f, 2, Msg{S: 1, Payload: "a"})
	if delivered(f) != "[3:1 2:1 2:2 2:3]" || f.State["held"] != 0 || fmt.Sprint(f.Trail["post"]) != "[x a b c]" {
		t.Errorf("delivered %s, posts %v, held %v", delivered(f), f.Trail["post"], f.State["held"])
	}
	p.Receive(f, 2, Msg{S: 2, Payload: "b"})
	if delivered(f) != "[3:1 2:1 2:2 2:3]" || !strings.Contains(strings.Join(f.Logs, "\n"), "2:2 again, already delivered: dropped") {
		t.Errorf("a copy of 2:2: delivered %s, logs %q", delivered(f), f.Logs)
	}
}

// The bank applies the deliveries in order, interest rounded half away from
// zero: 1000 +100 then +1% is 1111, +1% then +100 is 1110 (Tanenbaum's
// Figure 6-11).
func TestBank(t *testing.T) {
	for _, c := range []struct {
		order []string
		want  string
	}{
		{[]string{"+100", "+1%"}, "[1000 1100 1111]"},
		{[]string{"+1%", "+100"}, "[1000 1010 1110]"},
		{[]string{"-1005", "+1%", "+50%", "-100%"}, "[1000 -5 -5 -8 0]"},
	} {
		p, f := start(t, map[string]any{"app": "bank"}, 1)
		for i, u := range c.order {
			p.Receive(f, 2, Msg{S: i + 1, Payload: u})
		}
		if got := fmt.Sprint(f.Trail["balance"]); got != c.want {
			t.Errorf("%v: balances %s, want %s", c.order, got, c.want)
		}
	}
}

func TestBadInput(t *testing.T) {
	p, f := start(t, map[string]any{"app": "bank"}, 1)
	for _, c := range []struct {
		name string
		args proc.Args
		want string
	}{
		{"multicast", proc.Args{"to": 2}, `command "multicast" takes only payload=<text>, got to=2`},
		{"multicast", proc.Args{"payload": 5}, `command "multicast" takes only payload=<text>, got payload=5`},
		{"multicast", proc.Args{"payload": "100"}, `multicast: payload: "100" is not +N, -N or +N% (|N| at most 1000000000, a percentage from -100 to 1000)`},
		{"multicast", proc.Args{"payload": "+1001%"}, `multicast: payload: "+1001%" is not +N`},
		{"multicast", nil, `multicast: payload: "" is not +N`},
		{"send", nil, `unknown command "send" (known: multicast)`},
	} {
		if err := p.Command(f, c.name, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: got %v, want %q", c.name, c.args, err, c.want)
		}
	}
	p.Receive(f, 2, Msg{S: 1, Payload: "+1x"})
	if f.State["balance"] != 1000 || !strings.Contains(strings.Join(f.Logs, "\n"), `2:1: "+1x" is not +N`) {
		t.Errorf("a bad update: balance %v, logs %q", f.State["balance"], f.Logs)
	}
	spec, _ := algo.Lookup("order.fifo")
	v, err := spec.Resolve(map[string]any{"app": "chat"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spec.New(v); err == nil || err.Error() != `config key "app": want "board" or "bank", got "chat"` {
		t.Errorf("app=chat: %v", err)
	}
}
