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
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Locking Protocols", "Primary Copy" (followed here; the words are ours): one replica of each data item Q is chosen as its primary copy, at exactly one site, Q's primary site; a transaction that needs to lock Q requests the lock at Q's primary site, which grants it or delays it until it can be granted. Concurrency control for replicated data is then as simple as for unreplicated data; but if Q's primary site fails, Q is inaccessible even though other sites holding a replica may be up.
Where the text is silent: the primary copy of an item is at the item's site (config items, or by default the i-th letter at the site of ring index i), its replicas at the next replicas-1 sites in ring order (3 copies by default); the access is made at the primary copy, as it grants the lock (replica propagation is not modelled). Deadlocks are possible, as under every two-phase-locking scheme (two transactions locking two items in opposite orders), and are not handled here (see the deadlock family).`,
		Scheme:   txn.Nonreplicated,
		Replicas: 3,
	}.Register()
}
