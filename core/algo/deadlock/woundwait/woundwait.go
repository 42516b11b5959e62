// Package woundwait is the wound-wait scheme of deadlock prevention: an
// older requester wounds the younger holder, a younger requester waits.
package woundwait

import (
	"dsim/core/algo"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

// WoundWait is the text's rule: "When process Pi requests a resource
// currently held by Pj, Pi is allowed to wait only if it has a larger
// timestamp than does Pj (that is, Pi is younger than Pj). Otherwise, Pj
// is rolled back (Pj is wounded by Pi)."
func WoundWait(req, other txn.Lock) txn.Decision {
	if deadlock.Older(req.TS, other.TS) {
		return txn.Wound
	}
	return txn.Wait
}

func init() {
	deadlock.Scheme{
		Name:    "deadlock.woundwait",
		Summary: "deadlock prevention by wound-wait: an older requester wounds the younger holder (rolled back, restarted with its original timestamp), a younger one waits",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Deadlock Handling", "Deadlock Prevention": the wound-wait scheme, preemptive: "When process Pi requests a resource currently held by Pj, Pi is allowed to wait only if it has a larger timestamp than does Pj (that is, Pi is younger than Pj). Otherwise, Pj is rolled back (Pj is wounded by Pi)." A process rolled back keeps its timestamp, so nobody starves.
Where the text is silent: the lock manager that wounds a transaction preempts its locks at that site at once (txn.Site.Preempt), granting the older requester what they free, so that it never waits for a transaction being rolled back (every wait goes from a younger to an older transaction: the global wait-for graph never has a cycle, deadlock.free); it tells the wounded's home (ABORT), which rolls it back, releasing its other locks, and restarts it after a random delay (config restart). A transaction already committed, whose unlocks are on their way, is not rolled back: its lock is only released early.`,
		Assumptions: algo.Assumptions{FIFO: true},
		Properties:  []algo.Property{deadlock.Free},
		Node: func(_ algo.Values, s txn.Site) proc.Node {
			s.OnConflict, s.Preempt = WoundWait, true
			return &s
		},
		Memory: deadlock.SiteMemory,
	}.Register()
}
