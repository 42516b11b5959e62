// Package biased is two-phase locking by the biased protocol: a shared
// lock from one copy's lock manager, an exclusive lock from all of them.
package biased

import (
	"dsim/core/algo/cc"
)

func init() {
	cc.Locking{
		Name:    "cc.biased",
		Summary: "two-phase locking, biased protocol: a shared lock is requested from one copy's site, an exclusive lock from every copy's: reads cost 2 messages and 1 to unlock, writes 2n and n",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Locking Protocols", "Biased Protocol": "the difference from the majority protocol is that requests for shared locks are given more favorable treatment than are requests for exclusive locks. Shared locks: when a transaction needs to lock data item Q, it simply requests a lock on Q from the lock manager at one site containing a replica of Q. Exclusive locks: when a transaction needs to lock data item Q, it requests a lock on Q from the lock manager at all sites containing a replica of Q." It imposes less overhead on read operations than the majority protocol, but more on writes, and shares its complexity in handling deadlock.
Where the text is silent: a shared lock is asked of the copy nearest the home site (its own, if it holds one, then the next in ring order); an exclusive one of every copy, primary first; replicas is 3 by default. The access is made on every copy that grants the lock, as it grants it: a read at one copy, a write at all.`,
		Scheme:   cc.ReadOneWriteAll,
		Replicas: 3,
	}.Register()
}
