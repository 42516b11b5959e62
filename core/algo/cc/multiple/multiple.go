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
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Locking Protocols": "Nonreplicated Scheme" and the multiple-coordinator approach (followed here; the words are ours): each site keeps a local lock manager that administers the lock and unlock requests for the data items stored at that site; a transaction that wants to lock Q at site Si sends a lock request to Si's lock manager, which grants it when Q is not locked in an incompatible mode and otherwise delays it until it can be granted. The scheme is simple to implement, with two messages for a lock request and one for an unlock, but deadlock handling is more complex: deadlocks spanning sites are possible, and are not handled here (see the deadlock family).
Where the text is silent: with replicas above 1 the locks are still those of the item's site (its primary copy), as in cc.primary.`,
		Scheme: txn.Nonreplicated,
	}.Register()
}
