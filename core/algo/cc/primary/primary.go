// Package primary is two-phase locking by primary copy: the locks of an
// item are those of its primary copy's site.
package primary

import (
	"dsim/core/algo/cc"
	"dsim/core/algo/txn"
)

func init() {
	cc.Locking{
		Name:    "cc.primary",
		Summary: "two-phase locking by primary copy: a lock on a replicated item is requested only at its primary copy's site: 2 messages per remote lock request and 1 to unlock, however many replicas",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Locking Protocols", "Primary Copy": "one of the replicas is chosen as the primary copy. Thus, for each data item Q, the primary copy of Q must reside in precisely one site, which we call the primary site of Q. When a transaction needs to lock a data item Q, it requests a lock at the primary site of Q. Again, the response to the request is delayed until the request can be granted." Concurrency control for replicated data is then handled like that of unreplicated data, simply; but if the primary site of Q fails, Q is inaccessible even though other sites holding a replica may be accessible.
Where the text is silent: the primary copy of an item is at the item's site (config items, or by default the i-th letter at the site of ring index i), its replicas at the next replicas-1 sites in ring order (3 copies by default); the access is made at the primary copy, as it grants the lock (replica propagation is not modelled).`,
		Scheme:   txn.Nonreplicated,
		Replicas: 3,
	}.Register()
}
