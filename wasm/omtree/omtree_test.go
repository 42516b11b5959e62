package omtree

import (
	"fmt"
	"testing"

	"dsim/core/trace"
	"dsim/wasm/replay"
)

// OM(1) with four generals, the commander 1 loyal (attack, 1) and the
// lieutenant 4 a traitor who relays retreat (0): the paper's figure of a
// traitorous lieutenant. Lieutenant 2 folds 1, 1, 0 into attack.
func TestTraitorousLieutenant(t *testing.T) {
	var evs []trace.Event
	send := func(from, to int, path string, value int) {
		id := uint64(len(evs)/2 + 1)
		msg := trace.Raw(fmt.Sprintf(`{"path":%s,"value":%d}`, path, value))
		evs = append(evs,
			trace.Event{T: int64(len(evs)), Type: trace.Send, Node: from, From: from, To: to, Kind: "ORDER", MsgID: id, Msg: msg},
			trace.Event{T: int64(len(evs) + 1), Type: trace.Deliver, Node: to, From: from, To: to, Kind: "ORDER", MsgID: id, Msg: msg})
	}
	for _, l := range []int{2, 3, 4} {
		send(1, l, "[1]", 1)
	}
	send(3, 2, "[1,3]", 1)
	send(4, 2, "[1,4]", 0)
	send(2, 3, "[1,2]", 1)
	send(4, 3, "[1,4]", 0)
	for i := range evs {
		evs[i].Seq = uint64(i)
	}
	w := trace.World{Header: trace.Header{World: 1, IDs: []int{1, 2, 3, 4}}, Events: evs}
	r := replay.New(&w, 0)
	o, ok := Read(r)
	if !ok || o.m != 1 || fmt.Sprint(o.Lieutenants()) != "[2 3 4]" {
		t.Fatalf("Read: ok=%v m=%d lieutenants %v", ok, o.m, o.Lieutenants())
	}
	tr := o.At(2, len(evs))
	root := tr.Root
	if root.Received != 1 || len(root.Children) != 2 || root.Children[0].Received != 1 || root.Children[1].Received != 0 || root.Result != 1 {
		t.Errorf("lieutenant 2's tree: %+v %+v %+v", root, root.Children[0], root.Children[1])
	}
	// before the relays arrive, the missing orders count as retreat
	early := o.At(2, 6) // the commander's three orders only
	if early.Root.Children[0].Arrived || early.Root.Result != Retreat {
		t.Errorf("early: %+v", early.Root)
	}
}
