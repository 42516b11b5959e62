// Package majority is two-phase locking by the majority protocol: a lock
// on a replicated item is held once a majority of its copies' lock
// managers grant it.
package majority

import (
	"dsim/core/algo/cc"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

func init() {
	cc.Locking{
		Name:    "cc.majority",
		Summary: "two-phase locking, majority protocol: a lock request goes to a majority of an item's n copies (n/2+1), each site's lock manager handling its copy: 2(n/2+1) messages per lock request and n/2+1 to unlock; can deadlock on a single item",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Locking Protocols", "Majority Protocol": "a system maintains a lock manager at each site. Each manager controls the locks for all the data or replicas of data stored at that site. When a transaction wishes to lock a data item Q that is replicated in n different sites, it must send a lock request to more than one-half of the n sites in which Q is stored. Each lock manager determines whether the lock can be granted immediately (as far as it is concerned)... The transaction does not operate on Q until it has successfully obtained a lock on a majority of the replicas of Q." It deals with replicated data in a decentralized manner, avoiding a central control, but is more complicated: "it requires 2(n/2 + 1) messages for handling lock requests and (n/2 + 1) messages for handling unlock requests", and "deadlock handling is more complex. Since the lock and unlock requests are not made at one site, deadlocks can occur even if only one data item is being locked": two transactions each locking copies of one item, neither reaching a majority (scenario cc/majority-deadlock).
Where the text is silent: each transaction asks the n/2+1 copies nearest its home site (its own, if it holds one, then the next in ring order), so transactions of different sites ask different majorities, any two of which meet; replicas is 3 by default. The access is made on every copy that grants the lock, as it grants it.`,
		Scheme: func(p *txn.Placement, home proc.NodeID, item int, _ bool) []proc.NodeID {
			copies := p.From(home, item)
			return copies[:len(copies)/2+1]
		},
		Replicas: 3,
	}.Register()
}
