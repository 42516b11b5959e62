package check

import (
	"testing"

	"dsim/core/algo/deadlock"
	"dsim/core/algo/txn"
	"dsim/core/trace"
)

// Hand-made lock tables ([item, T, mode, ...]: 2 holds X, -2 waits for
// X), declarations and bounds.
func locks(t int64, node int, v ...int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: txn.KeyLocks, New: v}
}
func declare(t int64, node int, c ...int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: deadlock.KeyDeadlock, New: c}
}
func bound(t int64, node int, b int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: deadlock.KeyBound, New: b}
}

func TestDeadlockProperties(t *testing.T) {
	// The seed's example: at site 1, T2 holds A (0) and T1 waits for it, T3
	// holds B (1) and T2 waits for it; at site 2, T2 holds C (2) and T4
	// waits for it, T4 holds D (3) and T3 waits for it: the global cycle
	// T2 -> T3 -> T4 -> T2 spans both sites, neither local graph has one.
	seed := []trace.Event{
		bound(0, 1, 10), bound(0, 2, 10),
		locks(1, 1, 0, 2, 2, 1, 3, 2), locks(1, 2, 2, 2, 2, 3, 4, 2),
		locks(2, 1, 0, 2, 2, 0, 1, -2, 1, 3, 2, 1, 2, -2),
		locks(3, 2, 2, 2, 2, 2, 4, -2, 3, 4, 2, 3, 3, -2),
	}
	// Then site 1 declares it and T3 (the victim) is rolled back: its
	// lock at site 1 goes first, then its request at site 2.
	resolved := append(seed[:len(seed):len(seed)],
		declare(6, 1, 2, 3, 4),
		locks(8, 1, 0, 2, 2, 0, 1, -2, 1, 2, 2), locks(9, 2, 2, 2, 2, 2, 4, -2, 3, 4, 2))
	judgeAll(t, 20, []verdictCase{
		{"free: chains only", deadlock.Free, seed[:4], true,
			"deadlock.free: no cycle in the global wait-for graph at any event (2 lock-table changes)"},
		{"free: the seed's cycle across two sites", deadlock.Free, seed, false,
			"deadlock.free: t=3 seq=5: the global wait-for graph has the cycle T2 -> T3 -> T4 -> T2 (site 2's lock table changed)"},
		{"free: a local cycle", deadlock.Free, []trace.Event{bound(0, 1, 5), locks(1, 1, 0, 1, 2, 0, 2, -2, 1, 2, 2, 1, 1, -2)}, false,
			"deadlock.free: t=1 seq=1: the global wait-for graph has the cycle T1 -> T2 -> T1 (site 1's lock table changed)"},

		{"sound: the declared cycle is real", deadlock.Sound, resolved, true,
			"deadlock.sound: each of the 1 declared deadlocks was a cycle of the global wait-for graph when declared"},
		{"sound: a phantom is named", deadlock.Sound, append(resolved[:len(resolved):len(resolved)], declare(10, 1, 2, 3, 4)), false,
			"deadlock.sound: t=10 seq=9: site 1 declared the deadlock T2 -> T3 -> T4 -> T2, a phantom: T2 -> T3 is no edge of the global wait-for graph"},
		{"sound: out of order", deadlock.Sound, append(seed[:len(seed):len(seed)], declare(6, 2, 2, 4, 3)), false,
			"deadlock.sound: t=6 seq=6: site 2 declared the deadlock T2 -> T4 -> T3 -> T2, a phantom: T2 -> T4 is no edge of the global wait-for graph"},

		{"complete: broken within the bound", deadlock.Complete, resolved, true,
			"deadlock.complete: each of the 1 times the global wait-for graph became cyclic, its cycles were broken within the bound of 10 ticks"},
		{"complete: still there at the end", deadlock.Complete, seed, false,
			"deadlock.complete: at t=20 the cycle T2 -> T3 -> T4 -> T2 has lasted since t=3, longer than the bound of 10 ticks"},
		{"complete: an event past the bound names itself", deadlock.Complete, append(seed[:len(seed):len(seed)], locks(14, 1, 0, 2, 2, 0, 1, -2, 1, 3, 2, 1, 2, -2, 5, 7, 2)), false,
			"deadlock.complete: t=14 seq=6: the cycle T2 -> T3 -> T4 -> T2 has lasted since t=3, longer than the bound of 10 ticks"},
		{"complete: no bound, judged at the end", deadlock.Complete, seed[2:], false,
			"deadlock.complete: at t=20 the cycle T2 -> T3 -> T4 -> T2 remains (no detector declared a bound)"},
	})
}
