package trace

import (
	"reflect"
	"testing"
)

// Two processes trade m1 (1 to 2) and m2 (2 to 1); then 1 sends m3, which
// the network drops.
func TestJudgeCut(t *testing.T) {
	events := []Event{
		{Seq: 0, Type: Send, Node: 1, From: 1, To: 2, Kind: "M", MsgID: 1},
		{Seq: 1, Type: Deliver, Node: 2, From: 1, To: 2, Kind: "M", MsgID: 1},
		{Seq: 2, Type: Send, Node: 2, From: 2, To: 1, Kind: "M", MsgID: 2},
		{Seq: 3, Type: Deliver, Node: 1, From: 2, To: 1, Kind: "M", MsgID: 2},
		{Seq: 4, Type: Send, Node: 1, From: 1, To: 2, Kind: "M", MsgID: 3},
		{Seq: 5, Type: Drop, Node: 2, From: 1, To: 2, Kind: "M", MsgID: 3, Reason: "loss"},
		{Seq: 6, Type: Check, Node: NoNode, Pass: true},
	}
	each := (&World{Events: events}).Each
	m := func(id uint64, deliver int64) Crossing {
		from, to, send := 1, 2, int64(0)
		switch id {
		case 2:
			from, to, send = 2, 1, 2
		case 3:
			send = 4
		}
		return Crossing{Send: send, Deliver: deliver, From: from, To: to, Kind: "M", MsgID: id}
	}
	for _, c := range []struct {
		name               string
		cut                Cut
		backward, inFlight []Crossing
	}{
		{"2 holds m1's delivery, 1 not its send", Cut{1: -1, 2: 1}, []Crossing{m(1, 1)}, nil},
		{"m1 sent and delivered inside", Cut{1: 0, 2: 1}, nil, nil},
		{"m1 sent inside, delivered after", Cut{1: 0}, nil, []Crossing{m(1, -1)}},
		{"1 holds m2's delivery, 2 not its send", Cut{1: 3, 2: 1}, []Crossing{m(2, 3)}, nil},
		{"everything up to m3's send: m3 in flight", Cut{1: 4, 2: 2}, nil, []Crossing{m(3, -1)}},
		{"m3 dropped inside: in no channel", Cut{1: 4, 2: 5}, nil, nil},
		{"the empty cut", Cut{}, nil, nil},
	} {
		v := JudgeCut(each, c.cut)
		if !reflect.DeepEqual(v.Backward, c.backward) || !reflect.DeepEqual(v.InFlight, c.inFlight) || v.Consistent() != (c.backward == nil) {
			t.Errorf("%s: backward %+v, in flight %+v; want %+v, %+v", c.name, v.Backward, v.InFlight, c.backward, c.inFlight)
		}
	}
}
