package chandylamport

import (
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/snapshot"
	"dsim/core/proc"
)

// start makes process self of 1..3 with 100 in its account, booted.
func start(t *testing.T, self proc.NodeID) (proc.Node, *algotest.Fake) {
	t.Helper()
	return algotest.Booted(t, "snapshot.chandylamport", map[string]any{"balance": 100}, self, 1, 2, 3)
}

func markers(s int, to ...proc.NodeID) []algotest.Sent {
	var out []algotest.Sent
	for _, id := range to {
		out = append(out, algotest.Sent{To: id, Msg: Marker{S: s}})
	}
	return out
}

func state(t *testing.T, f *algotest.Fake, key string, want []int) {
	t.Helper()
	if got, _ := f.State[key].([]int); !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", key, f.State[key], want)
	}
}

// TestMarkerSendingRule: an initiator records its state and sends a marker
// on every outgoing channel, before anything else.
func TestMarkerSendingRule(t *testing.T) {
	n, f := start(t, 1)
	if err := n.Command(f, "transfer", proc.Args{"to": 2, "amount": 30}); err != nil {
		t.Fatal(err)
	}
	if got := f.Take(); !slices.Equal(got, []algotest.Sent{{To: 2, Msg: snapshot.Transfer{ID: 1, Amount: 30}}}) {
		t.Errorf("sent %v, want transfer #1 of 30 to 2", got)
	}
	if err := n.Command(f, "snapshot", nil); err != nil {
		t.Fatal(err)
	}
	state(t, f, snapshot.KeyRecorded, []int{1, 70}) // the id defaults to the initiator's
	if got := f.Take(); !slices.Equal(got, markers(1, 2, 3)) {
		t.Errorf("sent %v, want a marker to 2 and 3", got)
	}
	// The same snapshot again (its marker came first, or a second
	// initiator) changes nothing.
	if err := n.Command(f, "snapshot", proc.Args{"id": 1}); err != nil || len(f.Take()) > 0 {
		t.Errorf("a second snapshot 1: %v, sent %v", err, f.Sent)
	}
}

// TestMarkerReceivingRule: the first marker makes a process record its
// state, with that marker's channel empty, and send its own markers; a later
// marker closes its channel with the transfers received on it since.
func TestMarkerReceivingRule(t *testing.T) {
	n, f := start(t, 2)
	n.Receive(f, 3, snapshot.Transfer{ID: 1, Amount: 5}) // before recording: in the state, not a channel
	n.Receive(f, 1, Marker{S: 7})
	state(t, f, snapshot.KeyRecorded, []int{7, 105})
	state(t, f, snapshot.KeyChannel, []int{7, 1})
	if got := f.Take(); !slices.Equal(got, markers(7, 3, 1)) {
		t.Errorf("sent %v, want a marker to 3 and 1", got)
	}
	n.Receive(f, 3, snapshot.Transfer{ID: 2, Amount: 20})
	n.Receive(f, 1, snapshot.Transfer{ID: 1, Amount: 9}) // on a channel already recorded
	n.Receive(f, 3, snapshot.Transfer{ID: 3, Amount: 1})
	n.Receive(f, 3, Marker{S: 7})
	state(t, f, snapshot.KeyChannel, []int{7, 3, 2, 20, 3, 1})
	if f.State[snapshot.KeyBalance] != 135 || len(f.Take()) > 0 {
		t.Errorf("balance %v, want 135, and nothing sent", f.State[snapshot.KeyBalance])
	}
	n.Receive(f, 3, Marker{S: 7})
	if len(f.Logs) == 0 || f.Logs[len(f.Logs)-1] != "snapshot 7: a second marker from 3 ignored" {
		t.Errorf("logs %q", f.Logs)
	}
}

// TestConcurrentSnapshots: two snapshots in progress at once, each with its
// own record; a transfer on a channel both are recording goes in both.
func TestConcurrentSnapshots(t *testing.T) {
	n, f := start(t, 1)
	if err := n.Command(f, "snapshot", proc.Args{"id": 1}); err != nil {
		t.Fatal(err)
	}
	n.Receive(f, 2, Marker{S: 2})
	state(t, f, snapshot.KeyRecorded, []int{2, 100})
	state(t, f, snapshot.KeyChannel, []int{2, 2})
	if got := f.Take(); !slices.Equal(got, append(markers(1, 2, 3), markers(2, 2, 3)...)) {
		t.Errorf("sent %v, want the markers of 1, then of 2", got)
	}
	n.Receive(f, 3, snapshot.Transfer{ID: 4, Amount: 8})
	n.Receive(f, 3, Marker{S: 2})
	state(t, f, snapshot.KeyChannel, []int{2, 3, 4, 8})
	n.Receive(f, 3, Marker{S: 1})
	state(t, f, snapshot.KeyChannel, []int{1, 3, 4, 8})
	n.Receive(f, 2, Marker{S: 1})
	state(t, f, snapshot.KeyChannel, []int{1, 2})
	if f.Logs[len(f.Logs)-1] != "snapshot 1: recorded here, the state and every incoming channel" {
		t.Errorf("logs %q", f.Logs)
	}
}

func TestCommandErrors(t *testing.T) {
	n, f := start(t, 1)
	for _, tc := range []struct {
		name string
		args proc.Args
		want string
	}{
		{"transfer", proc.Args{"amount": 5}, `command "transfer" needs to=<id>`},
		{"transfer", proc.Args{"to": 1, "amount": 5}, "transfer: to=1 is not another process"},
		{"transfer", proc.Args{"to": 9, "amount": 5}, "transfer: to=9 is not another process"},
		{"transfer", proc.Args{"to": 2}, "transfer: amount=0 is not in 1..100, the balance"},
		{"transfer", proc.Args{"to": 2, "amount": 101}, "transfer: amount=101 is not in 1..100, the balance"},
		{"transfer", proc.Args{"to": 2, "amount": 5, "at": 3}, `command "transfer" takes only to=, amount=, got amount=5 at=3 to=2`},
		{"snapshot", proc.Args{"id": "x"}, `argument "id" must be an integer, got "x"`},
		{"snapshot", proc.Args{"s": 1}, `command "snapshot" takes only id=, got s=1`},
		{"elect", nil, `unknown command "elect" (known: transfer, snapshot)`},
	} {
		if err := n.Command(f, tc.name, tc.args); err == nil || err.Error() != tc.want {
			t.Errorf("%s %v: got %v, want %q", tc.name, tc.args, err, tc.want)
		}
	}
	if f.State[snapshot.KeyBalance] != 100 || len(f.Sent) > 0 || f.State[snapshot.KeyRecorded] != nil {
		t.Errorf("a rejected command changed the state %v or sent %v", f.State, f.Sent)
	}
}

// TestWorkload: with events set, each process makes that many random
// transfers of 1..its balance to other processes, and the money it sent is
// what left its account.
func TestWorkload(t *testing.T) {
	n, f := algotest.Booted(t, "snapshot.chandylamport", map[string]any{"balance": 50, "events": 20, "rate": 0.5}, 1, 1, 2, 3)
	for i := range 20 {
		d, ok := f.Timers[snapshot.TimerTransfer]
		if !ok || d < 1 || d > 3 {
			t.Fatalf("transfer %d: timer %v armed=%v, want 1..3 ticks (rate 0.5)", i, d, ok)
		}
		delete(f.Timers, snapshot.TimerTransfer)
		n.Timer(f, snapshot.TimerTransfer)
	}
	if _, ok := f.Timers[snapshot.TimerTransfer]; ok {
		t.Error("a 21st transfer armed")
	}
	sent := 0
	for i, s := range f.Take() {
		tr := s.Msg.(snapshot.Transfer)
		if s.To == 1 || tr.ID != i+1 || tr.Amount < 1 {
			t.Errorf("transfer %d: %v", i, s)
		}
		sent += tr.Amount
	}
	if sent == 0 || f.State[snapshot.KeyBalance] != 50-sent {
		t.Errorf("sent %d in all, balance %v", sent, f.State[snapshot.KeyBalance])
	}
}
