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
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Locking Protocols", "Single-Coordinator Approach": "the system maintains a single lock manager that resides in a single chosen site, say Si. All lock and unlock requests are made at site Si. When a transaction needs to lock a data item, it sends a lock request to Si. The lock manager determines whether the lock can be granted immediately. If so, it sends a message to that effect to the site at which the lock request was initiated. Otherwise, the request is delayed until it can be granted". "The transaction can read the data item from any one of the sites at which a replica of the data item resides. In the case of a write operation, all the sites where a replica of the data item resides must be involved in the writing." Advantages: "simple implementation (two messages for handling lock requests and one message for handling unlock requests)" and "simple deadlock handling" (every lock is in one table, so a deadlock is a cycle in that site's local wait-for graph); disadvantages: "bottleneck" and "vulnerability" (the site's failure stops concurrency control).
Where the text is silent: the lock manager is at the first site in ring order (index 0). The manager's site performs the access when it holds a copy of the item; otherwise the home site, once granted, sends ACCESS to the item's primary copy and waits for DONE (2 more messages) before going on, so the access is made under the lock (writes are made at the primary copy only: replica propagation is not modelled).`,
		Scheme: func(p *txn.Placement, _ proc.NodeID, _ int, _ bool) []proc.NodeID { return p.Ring[:1] },
	}.Register()
}
