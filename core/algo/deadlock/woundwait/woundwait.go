// Package woundwait is the wound-wait scheme of deadlock prevention: an
// older requester wounds the younger holder, a younger requester waits.
package woundwait

import (
	"slices"

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

// Site is a site of the transaction model with the wound-wait policy.
type Site struct {
	txn.Site
	wounded []int
}

// conflict is the policy, noting the transactions it wounds.
func (p *Site) conflict(req, other txn.Lock) txn.Decision {
	d := WoundWait(req, other)
	if d == txn.Wound && !slices.Contains(p.wounded, other.T) {
		p.wounded = append(p.wounded, other.T)
	}
	return d
}

// changed shows the wounded whose locks are still here.
func (p *Site) changed(ctx proc.Context) {
	locks := p.Table.State()
	p.wounded = slices.DeleteFunc(p.wounded, func(t int) bool {
		for i := 1; i < len(locks); i += 3 {
			if locks[i] == t {
				return false
			}
		}
		return true
	})
	ctx.Set(deadlock.KeyWounded, slices.Clone(p.wounded))
}

func init() {
	deadlock.Scheme{
		Name:    "deadlock.woundwait",
		Summary: "deadlock prevention by wound-wait: an older requester wounds the younger holder (rolled back, restarted with its original timestamp), a younger one waits",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Deadlock Handling", "Deadlock Prevention": the wound-wait scheme, preemptive: "When process Pi requests a resource currently held by Pj, Pi is allowed to wait only if it has a larger timestamp than does Pj (that is, Pi is younger than Pj). Otherwise, Pj is rolled back (Pj is wounded by Pi)." A process rolled back keeps its timestamp, so nobody starves.
Where the text is silent: the lock manager that wounds a transaction tells its home (ABORT), which rolls it back, releasing its locks (UNLOCK), and restarts it after a random delay (config restart); the older requester is queued meanwhile and granted the item when the wounded's unlock arrives (taking the lock away at once would let a wounded transaction whose ABORT is still on its way commit after losing it). A transaction already committed, whose unlocks are on their way, is not rolled back. The site shows the transactions it has wounded in the wounded key until their locks there are gone: a wait for one of them is a wait for a rollback already decided, not a wait-for edge that can close a cycle, and deadlock.free leaves it out; every other wait goes from a younger to an older transaction, so the global wait-for graph never has a cycle.`,
		Assumptions: algo.Assumptions{FIFO: true},
		Properties:  []algo.Property{deadlock.Free},
		State:       deadlock.PreventionState,
		Node: func(_ algo.Values, s txn.Site) proc.Node {
			p := &Site{Site: s}
			p.OnConflict = p.conflict
			p.OnLocks = p.changed
			return p
		},
		Memory: deadlock.SiteMemory,
	}.Register()
}
