package check

import (
	"testing"

	"dsim/core/algo/cc"
	"dsim/core/trace"
)

// An access [k, T, item, w, run] at a site, and a transaction's status at
// its home; t is the event's time.
func access(t int64, site, tx, item, w, run int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: site, Key: "op", New: []int{int(t), tx, item, w, run}}
}
func status(t int64, home, tx, st int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: home, Key: "txn", New: []int{tx, st, tx}}
}

func TestSerializable(t *testing.T) {
	const A, B = 0, 1
	begin := []trace.Event{status(0, 1, 1, 0), status(0, 2, 2, 0)}
	judgeAll(t, 20, []verdictCase{
		{"serial", cc.Serializable, cat(begin, []trace.Event{
			access(1, 1, 1, A, 1, 1), access(2, 2, 1, B, 1, 1), status(3, 1, 1, 1),
			access(4, 1, 2, A, 0, 1), access(5, 2, 2, B, 1, 1), status(6, 2, 2, 1),
		}), true, "cc.serializable: 2 committed transactions, conflict graph acyclic"},
		// The text's nonserializable interleaving: T1 writes A before T2
		// reads it, T2 writes B before T1 writes it.
		{"cycle", cc.Serializable, cat(begin, []trace.Event{
			access(1, 1, 1, A, 1, 1), access(2, 1, 2, A, 0, 1), access(3, 2, 2, B, 1, 1),
			access(4, 2, 1, B, 1, 1), status(5, 1, 1, 1), status(6, 2, 2, 1),
		}), false, "cc.serializable: t=6 seq=7: the committed transactions' conflict graph has the cycle T1 → T2 → T1 on A, B"},
		// The cycle again, with waits (status 3, then 0 again): the same
		// runs going on, whose accesses count.
		{"waits", cc.Serializable, cat(begin, []trace.Event{
			status(1, 1, 1, 3), status(1, 1, 1, 0), access(1, 1, 1, A, 1, 1), access(2, 1, 2, A, 0, 1), access(3, 2, 2, B, 1, 1),
			status(3, 1, 1, 3), access(4, 2, 1, B, 1, 1), status(4, 1, 1, 0), status(5, 1, 1, 1), status(6, 2, 2, 1),
		}), false, "cc.serializable: t=6 seq=11: the committed transactions' conflict graph has the cycle T1 → T2 → T1 on A, B"},
		// Two reads never conflict.
		{"reads", cc.Serializable, cat(begin, []trace.Event{
			access(1, 1, 1, A, 0, 1), access(2, 1, 2, A, 0, 1), access(3, 2, 2, B, 0, 1),
			access(4, 2, 1, B, 0, 1), status(5, 1, 1, 1), status(6, 2, 2, 1),
		}), true, "cc.serializable: 2 committed transactions, conflict graph acyclic"},
		// The same cycle with T2 aborted: only committed transactions count.
		{"aborted", cc.Serializable, cat(begin, []trace.Event{
			access(1, 1, 1, A, 1, 1), access(2, 1, 2, A, 0, 1), access(3, 2, 2, B, 1, 1),
			access(4, 2, 1, B, 1, 1), status(5, 1, 1, 1), status(6, 2, 2, 2),
		}), true, "cc.serializable: 1 committed transactions, conflict graph acyclic"},
		// T2's first run, rolled back, made the conflicting read; its
		// committed second run comes after T1: serial.
		{"restart", cc.Serializable, cat(begin, []trace.Event{
			access(1, 1, 2, A, 0, 1), access(2, 1, 1, A, 1, 1), status(3, 2, 2, 2), status(4, 2, 2, 0),
			access(5, 2, 1, B, 1, 1), status(6, 1, 1, 1), access(7, 1, 2, A, 0, 2), access(8, 2, 2, B, 1, 2), status(9, 2, 2, 1),
		}), true, "cc.serializable: 2 committed transactions, conflict graph acyclic"},
		// Two sites begin a transaction of the same id: the scenario's
		// mistake, which would merge them in the graph.
		{"one id, two homes", cc.Serializable, cat(begin, []trace.Event{
			status(1, 3, 1, 0), access(2, 1, 1, A, 1, 1), status(3, 1, 1, 1),
		}), false, "cc.serializable: t=1 seq=2: T1 is begun at 1 and at 3: the conflict graph needs one id per transaction"},
		// Copies of one item at two sites are judged apart: T1 then T2 at
		// site 1, T2 then T1 at site 2, a cycle through A's two copies.
		{"copies", cc.Serializable, cat(begin, []trace.Event{
			access(1, 1, 1, A, 1, 1), access(2, 2, 2, A, 1, 1), access(3, 1, 2, A, 1, 1), access(4, 2, 1, A, 1, 1),
			status(5, 1, 1, 1), status(6, 2, 2, 1),
		}), false, "cc.serializable: t=6 seq=7: the committed transactions' conflict graph has the cycle T1 → T2 → T1 on A@1, A@2"},
		// A cycle of three, closed by the last commit: the first two alone
		// are fine. The write of C by T3 follows T1's read.
		{"three", cc.Serializable, []trace.Event{
			status(0, 1, 1, 0), status(0, 2, 2, 0), status(0, 3, 3, 0),
			access(1, 1, 1, A, 0, 1), access(2, 1, 2, A, 1, 1), access(3, 2, 2, B, 0, 1), access(4, 2, 3, B, 1, 1),
			access(5, 3, 3, 2, 0, 1), access(6, 3, 1, 2, 1, 1), status(7, 1, 1, 1), status(8, 2, 2, 1), status(9, 3, 3, 1),
		}, false, "cc.serializable: t=9 seq=11: the committed transactions' conflict graph has the cycle T1 → T2 → T3 → T1 on A, B, C"},
	})
}
