package laiyang

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
	return algotest.Booted(t, "snapshot.laiyang", map[string]any{"balance": 100}, self, 1, 2, 3)
}

func state(t *testing.T, f *algotest.Fake, key string, want []int) {
	t.Helper()
	if got, _ := f.State[key].([]int); !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", key, f.State[key], want)
	}
}

func transfer(t *testing.T, n proc.Node, f *algotest.Fake, to, amount int) {
	t.Helper()
	if err := n.Command(f, "transfer", proc.Args{"to": to, "amount": amount}); err != nil {
		t.Fatal(err)
	}
}

// TestColours: rules 1 to 3. A white process's transfers are white and
// counted per channel; turning red records the state and sends each other
// process a CONTROL with the white messages sent to it; later transfers are
// red.
func TestColours(t *testing.T) {
	n, f := start(t, 1)
	transfer(t, n, f, 2, 10)
	transfer(t, n, f, 2, 5)
	transfer(t, n, f, 3, 1)
	if err := n.Command(f, "snapshot", nil); err != nil {
		t.Fatal(err)
	}
	state(t, f, snapshot.KeyRecorded, []int{ID, 84})
	transfer(t, n, f, 3, 4)
	want := []algotest.Sent{
		{To: 2, Msg: Msg{ID: 1, Amount: 10}}, {To: 2, Msg: Msg{ID: 2, Amount: 5}}, {To: 3, Msg: Msg{ID: 3, Amount: 1}},
		{To: 2, Msg: Control{Whites: 2}}, {To: 3, Msg: Control{Whites: 1}},
		{To: 3, Msg: Msg{ID: 4, Amount: 4, Red: true}},
	}
	if got := f.Take(); !slices.Equal(got, want) {
		t.Errorf("sent %v\nwant %v", got, want)
	}
	if err := n.Command(f, "snapshot", nil); err != nil || len(f.Take()) > 0 {
		t.Errorf("a second snapshot at a red process: %v, sent %v", err, f.Sent)
	}
	if err := n.Command(f, "snapshot", proc.Args{"id": 2}); err == nil || err.Error() != `command "snapshot" takes no arguments (two colours make one snapshot), got id=2` {
		t.Errorf("snapshot id=2: %v", err)
	}
}

// TestRedMessage: rule 4. A white process records its state before it
// receives its first red message, which is not in any channel's state;
// the white messages it receives after turning red are, and a channel's
// state is whole once as many white messages arrived on it as its CONTROL
// said were sent.
func TestRedMessage(t *testing.T) {
	n, f := start(t, 2)
	n.Receive(f, 1, Msg{ID: 1, Amount: 10}) // white, before recording: in the state
	n.Receive(f, 3, Msg{ID: 1, Amount: 7, Red: true})
	state(t, f, snapshot.KeyRecorded, []int{ID, 110})
	if got := f.Take(); !slices.Equal(got, []algotest.Sent{{To: 3, Msg: Control{}}, {To: 1, Msg: Control{}}}) {
		t.Errorf("sent %v, want a CONTROL of 0 whites to 3 and 1", got)
	}
	n.Receive(f, 1, Control{Whites: 3}) // two whites from 1 still on the way
	if f.State[snapshot.KeyChannel] != nil {
		t.Errorf("channel %v recorded before its white messages arrived", f.State[snapshot.KeyChannel])
	}
	n.Receive(f, 1, Msg{ID: 4, Amount: 2, Red: true}) // red: not in the channel
	n.Receive(f, 1, Msg{ID: 3, Amount: 6})
	n.Receive(f, 1, Msg{ID: 2, Amount: 9}) // overtaken by #3 and #4: the channels reorder
	state(t, f, snapshot.KeyChannel, []int{ID, 1, 3, 6, 2, 9})
	n.Receive(f, 3, Control{Whites: 0})
	state(t, f, snapshot.KeyChannel, []int{ID, 3})
	if f.State[snapshot.KeyBalance] != 134 || f.Logs[len(f.Logs)-1] != "snapshot 1: recorded here, the state and every incoming channel" {
		t.Errorf("balance %v, logs %q", f.State[snapshot.KeyBalance], f.Logs)
	}
}

// TestControlFirst: a CONTROL is red, so a white process receiving one
// records its state first; an empty channel is recorded at once.
func TestControlFirst(t *testing.T) {
	n, f := start(t, 3)
	n.Receive(f, 2, Control{Whites: 0})
	state(t, f, snapshot.KeyRecorded, []int{ID, 100})
	state(t, f, snapshot.KeyChannel, []int{ID, 2})
}
