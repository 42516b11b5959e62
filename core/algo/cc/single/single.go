// Package single is two-phase locking with a single lock manager: one
// site, the first, manages every lock.
package single

import (
	"dsim/core/algo/cc"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

func init() {
	cc.Locking{
		Name:    "cc.single",
		Summary: "two-phase locking, single lock-manager approach: the first site manages every lock: 2 messages per lock request (request, grant) and 1 to unlock, plus the access where the manager's site holds no copy",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Locking Protocols", "Single-Coordinator Approach" (followed here; the words are ours unless quoted): the system keeps a single lock manager at one chosen site, to which every lock and unlock request is sent; it grants a request at once, with a message to the requesting site, when the item is not locked in an incompatible mode, and otherwise delays it until it can be granted. A data item may be read at any site holding a replica; a write involves every replica. Advantages: a simple implementation, two messages for a lock request and one for an unlock, and simple deadlock handling (every lock is in one table, so a deadlock is a cycle in that site's wait-for graph); disadvantages: the site is a bottleneck, and its failure stops concurrency control. Deadlocks are possible (two-phase locking) and not handled here (see the deadlock family).
Where the text is silent: the lock manager is at the first site in ring order (index 0). The manager's site performs the access when it holds a copy of the item; otherwise the home site, once granted, sends ACCESS to the item's primary copy and waits for DONE (2 more messages) before going on, so the access is made under the lock (writes are made at the primary copy only: replica propagation is not modelled).`,
		Scheme: func(p *txn.Placement, _ proc.NodeID, _ int, _ bool) []proc.NodeID { return p.Ring[:1] },
	}.Register()
}
