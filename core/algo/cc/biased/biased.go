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
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Locking Protocols", "Biased Protocol" (followed here; the words are ours): like the majority protocol, with a lock manager at every site, but shared locks are favoured over exclusive ones: a shared lock on Q is requested from the lock manager of one site holding a replica of Q, an exclusive lock from those of all the sites holding one. Reads cost less than under the majority protocol, writes more, and deadlock handling is as complex.
Where the text is silent: a shared lock is asked of the copy nearest the home site (its own, if it holds one, then the next in ring order); an exclusive one of every copy, primary first; replicas is 3 by default. The access is made on every copy that grants the lock, as it grants it: a read at one copy, a write at all.`,
		Scheme:   cc.ReadOneWriteAll,
		Replicas: 3,
	}.Register()
}
