package check

import (
	"fmt"
	"testing"

	"dsim/core/trace"
)

// Hand-made multicast traces: mc is a process's s-th multicast, dl a
// delivery to its application.
func mc(node, s int) trace.Event {
	return trace.Event{Type: trace.State, Node: node, Key: "multicasts", New: s}
}
func dl(node int, label string) trace.Event {
	return trace.Event{Type: trace.State, Node: node, Key: "delivered", New: label}
}

func TestOrderProperties(t *testing.T) {
	tests := []verdictCase{
		{"fifo: in order", "order.fifo", []trace.Event{
			mc(1, 1), dl(1, "1:1"), mc(1, 2), dl(1, "1:2"), dl(2, "1:1"), dl(2, "1:2"),
		}, true, "order.fifo: every process delivered each process's messages in the order it multicast them: 4 deliveries of 2 multicasts at 2 processes"},
		{"fifo: the second overtakes the first", "order.fifo", []trace.Event{
			mc(1, 1), dl(1, "1:1"), mc(1, 2), dl(1, "1:2"), dl(2, "1:2"), dl(2, "1:1"),
		}, false, "order.fifo: t=0 seq=4: process 2 delivered 1:2 before 1:1, which process 1 multicast before it"},
		{"fifo: a duplicate delivery", "order.fifo", []trace.Event{
			mc(1, 1), dl(1, "1:1"), dl(2, "1:1"), dl(2, "1:1"),
		}, false, "order.fifo: t=0 seq=3: process 2 delivered 1:1 a second time"},
		{"causal: a reply after the article it read", "order.causal", []trace.Event{
			mc(1, 1), dl(1, "1:1"), dl(2, "1:1"), mc(2, 1), dl(2, "2:1"),
			dl(3, "1:1"), dl(3, "2:1"), dl(1, "2:1"),
		}, true, "order.causal: every process delivered a message after those whose multicast happened before its multicast: 6 deliveries of 2 multicasts at 3 processes"},
		{"causal: the reply first", "order.causal", []trace.Event{
			mc(1, 1), dl(1, "1:1"), dl(2, "1:1"), mc(2, 1), dl(2, "2:1"),
			dl(3, "2:1"), dl(3, "1:1"),
		}, false, "order.causal: t=0 seq=5: process 3 delivered 2:1 before 1:1, whose multicast happened before 2:1's"},
		{"causal: received but not delivered is not seen", "order.causal", []trace.Event{
			// 2 multicasts before it delivers 1:1: the two are concurrent.
			mc(1, 1), dl(1, "1:1"), mc(2, 1), dl(2, "2:1"), dl(2, "1:1"),
			dl(3, "2:1"), dl(3, "1:1"),
		}, true, "order.causal: every process delivered a message after those whose multicast happened before its multicast: 5 deliveries of 2 multicasts at 3 processes"},
		{"causal: transitively through a third process", "order.causal", []trace.Event{
			mc(1, 1), dl(2, "1:1"), mc(2, 1), dl(3, "1:1"), dl(3, "2:1"), mc(3, 1), dl(4, "3:1"),
		}, false, "order.causal: t=0 seq=6: process 4 delivered 3:1 before 1:1, whose multicast happened before 3:1's"},
		{"total: the same order", "order.total", []trace.Event{
			mc(1, 1), mc(2, 1), dl(1, "2:1"), dl(1, "1:1"), dl(2, "2:1"), dl(2, "1:1"),
		}, true, "order.total: every two processes delivered the messages both delivered in the same order: 4 deliveries of 2 multicasts at 2 processes"},
		{"total: the other way round, found at the last delivery", "order.total", []trace.Event{
			mc(1, 1), mc(2, 1), dl(1, "1:1"), dl(2, "2:1"), dl(2, "1:1"), dl(1, "2:1"),
		}, false, "order.total: t=0 seq=5: process 1 delivered 1:1 before 2:1, and process 2 delivered them the other way round"},
		{"total: the other way round, found at the other's delivery", "order.total", []trace.Event{
			mc(1, 1), mc(2, 1), dl(1, "1:1"), dl(1, "2:1"), dl(2, "2:1"), dl(2, "1:1"),
		}, false, "order.total: t=0 seq=5: process 2 delivered 2:1 before 1:1, and process 1 delivered them the other way round"},
		{"total: gaps are no disagreement", "order.total", []trace.Event{
			dl(1, "1:1"), dl(1, "2:1"), dl(2, "2:1"), dl(2, "3:1"), dl(3, "3:1"), dl(3, "1:1"),
		}, true, "order.total: every two processes delivered the messages both delivered in the same order: 6 deliveries of 0 multicasts at 3 processes"},
		{"total: fifo is not total", "order.total", []trace.Event{
			mc(1, 1), mc(2, 1), dl(1, "1:1"), dl(2, "2:1"), dl(1, "2:1"), dl(2, "1:1"),
		}, false, "order.total: t=0 seq=5: process 2 delivered 2:1 before 1:1, and process 1 delivered them the other way round"},
	}
	judgeAll(t, 10, tests)
}

// TestOrderCheckersIgnoreOtherRuns: a run without the multicast keys keeps
// nothing.
func TestOrderCheckersIgnoreOtherRuns(t *testing.T) {
	m := feed(cs(0, 1, "released"), msg(1, trace.Send, 1, 2, 1), msg(2, trace.Deliver, 1, 2, 1))
	if len(m.order.procs) != 0 || len(m.order.past) != 0 {
		t.Errorf("kept %d processes and %d multicasts", len(m.order.procs), len(m.order.past))
	}
}

// TestOrderCheckerForgets: a message delivered by every member of the group
// (the processes whose multicasts key was set, at boot) is forgotten; a
// disagreement at the end is still caught.
func TestOrderCheckerForgets(t *testing.T) {
	evs := []trace.Event{mc(1, 0), mc(2, 0)}
	for s := 1; s <= 100; s++ {
		evs = append(evs, mc(1, s), dl(1, fmt.Sprintf("1:%d", s)), dl(2, fmt.Sprintf("1:%d", s)))
	}
	m := feed(evs...)
	if len(m.order.past) != 0 || len(m.order.count) != 0 || len(m.order.procs[1].pos) != 0 || len(m.order.procs[2].pos) != 0 {
		t.Errorf("kept %d pasts, %d counts, %d and %d places", len(m.order.past), len(m.order.count), len(m.order.procs[1].pos), len(m.order.procs[2].pos))
	}
	evs = append(evs, mc(1, 101), mc(2, 1), dl(1, "1:101"), dl(2, "2:1"), dl(2, "1:101"), dl(1, "2:1"), dl(1, "1:100"))
	v, _ := feed(evs...).Check("order.total", 0)
	if want := "order.total: t=0 seq=307: process 1 delivered 1:101 before 2:1, and process 2 delivered them the other way round"; v.Text != want {
		t.Errorf("got  %s\nwant %s", v.Text, want)
	}
	v, _ = feed(evs...).Check("order.fifo", 0)
	if want := "order.fifo: t=0 seq=308: process 1 delivered 1:100 a second time"; v.Text != want {
		t.Errorf("got  %s\nwant %s", v.Text, want)
	}
}
