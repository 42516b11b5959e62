// Package multiple is two-phase locking with multiple coordinators, the
// chapter's nonreplicated scheme: every site's lock manager handles the
// items stored at that site.
package multiple

import (
	"dsim/core/algo/cc"
	"dsim/core/algo/txn"
)

func init() {
	cc.Locking{
		Name:    "cc.multiple",
		Summary: "two-phase locking, multiple coordinators (the nonreplicated scheme): each site's lock manager handles its own items: 2 messages per remote lock request (request, grant) and 1 to unlock",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Locking Protocols": "Nonreplicated Scheme" and "Multiple-Coordinator Approach": "each site maintains a local lock manager whose function is to administer the lock and unlock requests for those data items that are stored in that site"; a transaction that wishes to lock Q at site Si sends a message to Si's lock manager, which grants the request when Q is not locked in an incompatible mode, and otherwise delays it until it can be granted. "This scheme has the advantage of simple implementation. It requires two message transfers for handling lock requests and one message transfer for handling unlock requests. However, deadlock handling is more complex": deadlocks spanning sites are possible and not handled here (see the deadlock family).
Where the text is silent: with replicas above 1 the locks are still those of the item's site (its primary copy), as in cc.primary.`,
		Scheme: txn.Nonreplicated,
	}.Register()
}
