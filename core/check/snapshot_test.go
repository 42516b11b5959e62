package check

import (
	"testing"

	"dsim/core/algo/snapshot"
	"dsim/core/trace"
)

// Hand-made bank traces of two processes with 100 each: balances, transfers
// (sends and deliveries paired by id; a MSG is a marker), recordings and
// channel states.
func bal(t int64, node int, old any, v int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: snapshot.KeyBalance, Old: old, New: v}
}
func money(t int64, typ trace.Type, from, to int, id uint64) trace.Event {
	e := msg(t, typ, from, to, id)
	e.Kind, e.Msg = "TRANSFER", snapshot.Transfer{ID: 1, Amount: 30}
	return e
}
func rec(t int64, node int, v ...int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: snapshot.KeyRecorded, New: v}
}
func chn(t int64, node int, v ...int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: snapshot.KeyChannel, New: v}
}

func TestSnapshotProperties(t *testing.T) {
	boot := []trace.Event{bal(0, 1, nil, 100), bal(0, 2, nil, 100)}
	const (
		passConsistent = "snapshot.consistent: 1 snapshots: every recorded cut consistent (2 process states) and each of 2 recorded channel states the transfers in flight across it"
		passConserved  = "snapshot.conserved: 1 complete snapshots each record the bank's total of 200"
	)
	tests := []struct {
		name                  string
		events                []trace.Event
		consistent, conserved string
		pass                  [2]bool
	}{
		{"the 30 in flight is the channel's state", []trace.Event{
			bal(1, 1, 100, 70), money(1, trace.Send, 1, 2, 1),
			rec(2, 1, 1, 70), msg(2, trace.Send, 1, 2, 2),
			rec(2, 2, 1, 100), msg(2, trace.Send, 2, 1, 3),
			msg(3, trace.Deliver, 2, 1, 3), chn(3, 1, 1, 2),
			money(4, trace.Deliver, 1, 2, 1), bal(4, 2, 100, 130),
			msg(5, trace.Deliver, 1, 2, 2), chn(5, 2, 1, 1, 1, 30),
		}, passConsistent, passConserved, [2]bool{true, true}},
		{"the marker overtakes the 30: the channel misses it", []trace.Event{
			bal(1, 1, 100, 70), money(1, trace.Send, 1, 2, 1),
			rec(2, 1, 1, 70), msg(2, trace.Send, 1, 2, 2),
			rec(2, 2, 1, 100), msg(2, trace.Send, 2, 1, 3),
			msg(3, trace.Deliver, 2, 1, 3), chn(3, 1, 1, 2),
			msg(4, trace.Deliver, 1, 2, 2), chn(4, 2, 1, 1),
			money(5, trace.Deliver, 1, 2, 1), bal(5, 2, 100, 130),
		}, "snapshot.consistent: t=5 seq=12: snapshot 1: transfer 1 of 30 from 1 to 2 was in flight across the cut and is missing from the channel state 2 recorded",
			"snapshot.conserved: t=4 seq=11: snapshot 1 records a total of 170 (balances 170, channels 0), but the bank holds 200", [2]bool{}},
		{"sent after recording, received before: counted twice", []trace.Event{
			rec(1, 1, 1, 100), msg(1, trace.Send, 1, 2, 2),
			bal(2, 1, 100, 70), money(2, trace.Send, 1, 2, 1),
			money(3, trace.Deliver, 1, 2, 1), bal(3, 2, 100, 130),
			msg(4, trace.Deliver, 1, 2, 2), rec(4, 2, 1, 130), chn(4, 2, 1, 1), msg(4, trace.Send, 2, 1, 3),
			msg(5, trace.Deliver, 2, 1, 3), chn(5, 1, 1, 2),
		}, "snapshot.consistent: t=3 seq=6: snapshot 1: transfer 1 of 30 from 1 to 2 was sent after 1 recorded its state and received before 2 did: the cut is inconsistent",
			"snapshot.conserved: t=5 seq=13: snapshot 1 records a total of 230 (balances 230, channels 0), but the bank holds 200", [2]bool{}},
		{"recorded as the message arrives, before receiving it", []trace.Event{
			rec(1, 1, 1, 100), bal(1, 1, 100, 70), money(1, trace.Send, 1, 2, 1),
			money(2, trace.Deliver, 1, 2, 1), rec(2, 2, 1, 100), bal(2, 2, 100, 130),
			chn(3, 2, 1, 1), chn(3, 1, 1, 2),
		}, passConsistent, passConserved, [2]bool{true, true}},
		{"a channel recorded with the wrong amount", []trace.Event{
			bal(1, 1, 100, 70), money(1, trace.Send, 1, 2, 1),
			rec(2, 1, 1, 70), rec(2, 2, 1, 100),
			money(3, trace.Deliver, 1, 2, 1), bal(3, 2, 100, 130),
			chn(4, 2, 1, 1, 1, 40), chn(4, 1, 1, 2),
		}, "snapshot.consistent: t=4 seq=8: snapshot 1: process 2 recorded its channel from 1 as [#1 (40)], but the transfers in flight on it across the cut are [#1 (30)]",
			"snapshot.conserved: t=4 seq=9: snapshot 1 records a total of 210 (balances 170, channels 40), but the bank holds 200", [2]bool{}},
		{"a transfer still in flight on a channel recorded empty", []trace.Event{
			bal(1, 1, 100, 70), money(1, trace.Send, 1, 2, 1),
			rec(2, 1, 1, 70), rec(2, 2, 1, 100), chn(3, 2, 1, 1), chn(3, 1, 1, 2),
		}, "snapshot.consistent: snapshot 1: transfer 1 of 30 from 1 to 2 is still in flight across the cut and missing from the channel state 2 recorded",
			"snapshot.conserved: t=3 seq=7: snapshot 1 records a total of 170 (balances 170, channels 0), but the bank holds 200", [2]bool{}},
		{"an incomplete snapshot is not added up", []trace.Event{
			rec(1, 1, 1, 100), chn(2, 1, 1, 2),
		}, "snapshot.consistent: 1 snapshots: every recorded cut consistent (1 process states) and each of 1 recorded channel states the transfers in flight across it",
			"snapshot.conserved: 0 complete snapshots each record the bank's total of 200; 1 incomplete, not judged", [2]bool{true, true}},
		{"not a recorded state", []trace.Event{
			{T: 1, Type: trace.State, Node: 1, Key: snapshot.KeyRecorded, New: 3},
		}, "snapshot.consistent: t=1 seq=2: process 1's recorded state is 3, not [snapshot, balance]",
			"snapshot.conserved: 0 complete snapshots each record the bank's total of 200", [2]bool{false, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := feed(append(boot[:2:2], tc.events...)...)
			for i, c := range []struct{ property, want string }{{snapshot.Consistent, tc.consistent}, {snapshot.Conserved, tc.conserved}} {
				v, err := m.Check(c.property, 10)
				if err != nil {
					t.Fatal(err)
				}
				if v.Text != c.want || v.Pass != tc.pass[i] {
					t.Errorf("got pass=%v %q\nwant pass=%v %q", v.Pass, v.Text, tc.pass[i], c.want)
				}
				if firstSeq.MatchString(c.want) && v.At == 0 {
					t.Errorf("%s: At = 0, want the seq the text names", c.property)
				}
			}
		})
	}
}

// TestSnapshotCheckersIgnoreOtherRuns: a run without balances keeps nothing
// per message, even of a message that looks like a transfer.
func TestSnapshotCheckersIgnoreOtherRuns(t *testing.T) {
	m := feed(cs(0, 1, "released"), money(1, trace.Send, 1, 2, 1), money(2, trace.Deliver, 1, 2, 1))
	if len(m.snap.sent) != 0 || m.snap.pending != nil || len(m.snap.procs) != 0 {
		t.Errorf("kept %d messages, %v pending and %d processes", len(m.snap.sent), m.snap.pending, len(m.snap.procs))
	}
}
