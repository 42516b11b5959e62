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
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Locking Protocols", "Majority Protocol" (followed here; the words are ours): every site keeps a lock manager for the data and replicas stored there; a transaction that wants to lock a data item Q replicated at n sites sends a lock request to more than half of them, each lock manager grants it or delays it as far as its copy is concerned, and the transaction does not operate on Q until it holds the lock on a majority of Q's replicas. It handles replicated data in a decentralized manner, with no central control, but is more complicated: 2(n/2 + 1) messages for a lock request and n/2 + 1 for an unlock, as the text counts them; and deadlock handling is more complex, as deadlocks can occur even when only one data item is locked: the text's example has four sites holding Q, T1 locking Q at S1 and S3 and T2 at S2 and S4, each waiting for a third lock (scenario cc/majority-deadlock).
Where the text is silent: each transaction asks the n/2+1 copies nearest its home site (its own, if it holds one, then the next in ring order), so transactions of different sites ask different majorities, any two of which meet; replicas is 3 by default. The access is made on every copy that grants the lock, as it grants it.`,
		Scheme: func(p *txn.Placement, home proc.NodeID, item int, _ bool) []proc.NodeID {
			copies := p.From(home, item)
			return copies[:len(copies)/2+1]
		},
		Replicas: 3,
	}.Register()
}
