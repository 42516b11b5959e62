// Package waitdie is the wait-die scheme of deadlock prevention: an older
// requester waits, a younger one dies.
package waitdie

import (
	"dsim/core/algo"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

// WaitDie is the text's rule: "When process Pi requests a resource
// currently held by Pj, Pi is allowed to wait only if it has a smaller
// timestamp than does Pj (that is, Pi is older than Pj). Otherwise, Pi is
// rolled back (dies)." Asked for every holder and earlier waiter the
// request would wait for, so every wait goes from older to younger.
func WaitDie(req, other txn.Lock) txn.Decision {
	if deadlock.Older(req.TS, other.TS) {
		return txn.Wait
	}
	return txn.Die
}

func init() {
	deadlock.Scheme{
		Name:    "deadlock.waitdie",
		Summary: "deadlock prevention by wait-die: an older requester waits for a younger holder, a younger one dies (rolled back, restarted with its original timestamp)",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Deadlock Handling", "Deadlock Prevention": the wait-die scheme, nonpreemptive: "When process Pi requests a resource currently held by Pj, Pi is allowed to wait only if it has a smaller timestamp than does Pj (that is, Pi is older than Pj). Otherwise, Pi is rolled back (dies)." A process rolled back keeps its timestamp ("if a process is rolled back, it is not assigned a new timestamp"), so it grows older until it waits instead of dying: nobody starves. Every wait goes from an older to a younger transaction, so the global wait-for graph never has a cycle (deadlock.free).
Where the text is silent: a request waits for the conflicting holders and the conflicting requests queued before it (first come, first served); it dies if any of them is older. The lock manager that refuses it tells the transaction's home (ABORT), which releases its locks and restarts it after a random delay (config restart).`,
		Assumptions: algo.Assumptions{FIFO: true},
		Properties:  []algo.Property{deadlock.Free},
		Node: func(_ algo.Values, s txn.Site) proc.Node {
			s.OnConflict = WaitDie
			return &s
		},
		Memory: deadlock.SiteMemory,
	}.Register()
}
