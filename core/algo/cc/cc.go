// Package cc holds what the concurrency-control schemes share: the
// property they promise (cc.serializable, judged by core/check from the op
// and txn keys alone) and the registration of a two-phase-locking scheme
// on the transaction model's sites (core/algo/txn), which differ only in
// the lock managers a request goes to. The schemes live in the
// sub-packages: single, multiple, majority, biased, primary (locking) and
// timestamp (timestamp ordering), after Silberschatz, Galvin and Gagne,
// "Operating System Concepts", chapter "Distributed Coordination", section
// "Concurrency Control".
package cc

import (
	"dsim/core/algo"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

// Serializable is the property every scheme promises.
const Serializable = "cc.serializable"

func init() {
	algo.DeclareFamily("cc", "concurrency control: locking protocols and timestamp ordering for distributed transactions")
	algo.DeclareProperty(Serializable, "the committed transactions are conflict serializable: their conflict graph (an edge Ti -> Tj when an operation of Ti precedes a conflicting one of Tj on the same copy of an item at its site, conflicting meaning at least one is a write; from the op and txn keys) is acyclic; a failure names the cycle")
}

// Locking describes a two-phase-locking scheme to register: scheme picks
// the lock managers of each request.
type Locking struct {
	Name, Summary, Description string
	Scheme                     txn.Scheme
	// Replicas is the default of the replicas key: 1, or the copies
	// a replicated scheme is shown with.
	Replicas int
}

// Register registers a two-phase-locking scheme: the model's sites, with
// strict two-phase locking, asking the scheme's lock managers.
func (l Locking) Register() {
	algo.Register(algo.Spec{
		Name:        l.Name,
		Summary:     l.Summary,
		Description: l.Description + "\n" + Model,
		Topology:    "complete",
		Assumptions: algo.Assumptions{FIFO: true},
		Config:      Params(l.Replicas),
		Commands:    txn.Commands,
		State:       txn.State,
		Messages:    txn.Messages,
		Properties:  []algo.Property{Serializable},
		Check:       txn.Check,
		New: func(v algo.Values) (proc.Factory, error) {
			cfg, err := txn.NewConfig(v)
			if err != nil {
				return nil, err
			}
			return func(proc.NodeID) proc.Node { return &txn.Site{Config: cfg, Scheme: l.Scheme} }, nil
		},
		Memory: Memory,
	})
}

// ReadOneWriteAll is the biased protocol's choice of lock managers: one
// copy for a read (the nearest the home site), every copy for a write.
// Timestamp ordering reads and writes the copies the same way.
func ReadOneWriteAll(p *txn.Placement, home proc.NodeID, item int, write bool) []proc.NodeID {
	if write {
		return p.Sites(item)
	}
	return p.From(home, item)[:1]
}

// Params are the model's configuration keys, with replicas copies by
// default (0: the model's default, 1).
func Params(replicas int) []algo.Param {
	ps := txn.Params()
	for i := range ps {
		if ps[i].Name == "replicas" && replicas > 0 {
			ps[i].Default = replicas
		}
	}
	return ps
}

// Memory is a site's record and its share of the world's placement.
var Memory = algo.Memory{Boot: algo.Bytes(240)}

// Model says, for every scheme's description, how the transactions run.
const Model = `The transactions (the model the chapter's transactions follow: read(Q), write(Q), lock-S(Q), lock-X(Q)): a transaction is begun at its home site (command begin, or config txns at random), whose transaction manager drives its operations one at a time; for each it sends a lock request (REQUEST, carrying the access) to the scheme's lock managers, each of which grants it at once or queues it first come, first served (a shared request waits behind a waiting exclusive one, so no writer starves), and answers GRANT, performing the access on its copy of the item if it holds one (else the home sends ACCESS to the primary copy's site, answered DONE). A lock manager at the home site itself costs no message. After its last operation the transaction commits and releases its locks, one UNLOCK per lock (strict two-phase locking: every lock held to the end). A transaction rolled back (the abort command, or another family's die, wound or deadlock victim) releases its locks and withdraws its requests the same way and restarts after a random delay (config restart, doubling its range at each further rollback), keeping its timestamp. Timestamps are the chapter's: a site's logical counter concatenated with its id, the counter advanced past any later timestamp a request brings.
Assumptions: reliable FIFO links (an UNLOCK must not overtake the REQUEST it answers), no crash.`
