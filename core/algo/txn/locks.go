package txn

import "slices"

// Mode is a lock's mode: shared (lock-S, for reading) or exclusive
// (lock-X, for writing). In the locks key a waiting request shows as the
// negative of its mode.
type Mode int

const (
	S Mode = 1
	X Mode = 2
)

// Compatible is the text's compatibility matrix: only shared locks are
// compatible with each other.
func Compatible(a, b Mode) bool { return a == S && b == S }

// Lock is a transaction's lock or request on an item: its id, its
// timestamp (for the conflict policies) and its mode.
type Lock struct {
	T    int
	TS   int
	Mode Mode
}

// Decision is what a conflict policy decides when a request conflicts
// with another transaction's lock or earlier request.
type Decision int

const (
	Wait  Decision = iota // the requester waits (queued)
	Die                   // the requester is rolled back
	Wound                 // the other transaction is rolled back; the requester waits for its locks
)

// Policy decides, for a request req that would wait for other, whether
// it waits, dies or wounds other: the hook of the deadlock-prevention
// schemes (wait-die, wound-wait). Nil: every request waits.
type Policy func(req, other Lock) Decision

// Outcome is what a request came to: granted at once, or queued (then
// the transactions it wounds), or refused by the policy (Die).
type Outcome struct {
	Granted bool
	Die     bool
	Wound   []int
}

// Granted is a lock granted from the queue.
type Granted struct {
	Item int
	Lock Lock
}

type queue struct {
	item    int
	holders []Lock
	waiters []Lock // first come, first served
}

// LockTable is a site's lock manager: per item, the transactions holding
// it and those waiting for it, in the order they asked.
type LockTable struct {
	Policy Policy
	qs     []*queue // in increasing item code
}

func (lt *LockTable) find(item int) (int, bool) {
	return slices.BinarySearchFunc(lt.qs, item, func(q *queue, it int) int { return q.item - it })
}

func (lt *LockTable) queue(item int) *queue {
	i, ok := lt.find(item)
	if !ok {
		lt.qs = slices.Insert(lt.qs, i, &queue{item: item})
	}
	return lt.qs[i]
}

// Request asks for l on item. It is granted at once when it is compatible
// with every other holder and nobody waits ahead of it (so a shared
// request does not overtake a waiting exclusive one: no writer starves);
// a transaction holding the item in S that asks for X is granted the
// upgrade when it is the only holder. Otherwise the policy, if any, is
// asked about every transaction the request would wait for: a Die refuses
// it (nothing is queued); otherwise it is queued, and Outcome.Wound lists
// the transactions the policy wounded.
func (lt *LockTable) Request(item int, l Lock) Outcome {
	q := lt.queue(item)
	if i := q.held(l.T); i >= 0 && q.holders[i].Mode >= l.Mode {
		return Outcome{Granted: true}
	}
	if len(q.waiters) == 0 && q.grantable(l) {
		q.grant(l)
		return Outcome{Granted: true}
	}
	var out Outcome
	if lt.Policy != nil {
		for _, o := range q.blockers(l, len(q.waiters)) {
			switch lt.Policy(l, o) {
			case Die:
				lt.drop(q)
				return Outcome{Die: true}
			case Wound:
				if !slices.Contains(out.Wound, o.T) {
					out.Wound = append(out.Wound, o.T)
				}
			}
		}
	}
	q.waiters = append(q.waiters, l)
	return out
}

// held is the index of T among the holders, or -1.
func (q *queue) held(t int) int {
	return slices.IndexFunc(q.holders, func(h Lock) bool { return h.T == t })
}

// grantable reports whether l is compatible with every other holder.
func (q *queue) grantable(l Lock) bool {
	for _, h := range q.holders {
		if h.T != l.T && !Compatible(h.Mode, l.Mode) {
			return false
		}
	}
	return true
}

func (q *queue) grant(l Lock) {
	if i := q.held(l.T); i >= 0 {
		q.holders[i].Mode = max(q.holders[i].Mode, l.Mode)
		return
	}
	q.holders = append(q.holders, l)
}

// blockers are the locks a request l, queued behind the first ahead
// waiters, waits for: the conflicting holders and earlier waiters of other
// transactions.
func (q *queue) blockers(l Lock, ahead int) []Lock {
	var out []Lock
	for _, o := range append(slices.Clone(q.holders), q.waiters[:ahead]...) {
		if o.T != l.T && !Compatible(o.Mode, l.Mode) {
			out = append(out, o)
		}
	}
	return out
}

// regrant grants the queue's waiters in order while the first can be.
func (q *queue) regrant(grants []Granted) []Granted {
	for len(q.waiters) > 0 && q.grantable(q.waiters[0]) {
		l := q.waiters[0]
		q.waiters = q.waiters[1:]
		q.grant(l)
		grants = append(grants, Granted{q.item, l})
	}
	return grants
}

// drop forgets an item's queue once nobody holds or waits for it.
func (lt *LockTable) drop(q *queue) {
	if len(q.holders) == 0 && len(q.waiters) == 0 {
		if i, ok := lt.find(q.item); ok {
			lt.qs = slices.Delete(lt.qs, i, i+1)
		}
	}
}

// Unlock releases T's lock on item and withdraws its request for it, and
// grants the queue in order: it returns the grants, for the site to send.
func (lt *LockTable) Unlock(t, item int) []Granted {
	i, ok := lt.find(item)
	if !ok {
		return nil
	}
	q := lt.qs[i]
	mine := func(l Lock) bool { return l.T == t }
	q.holders = slices.DeleteFunc(q.holders, mine)
	q.waiters = slices.DeleteFunc(q.waiters, mine)
	grants := q.regrant(nil)
	lt.drop(q)
	return grants
}

// Release releases all T's locks at this site and withdraws its requests
// (strict two-phase locking: at commit or abort), and returns the grants.
func (lt *LockTable) Release(t int) []Granted {
	var grants []Granted
	for _, item := range lt.itemsOf(t, true) {
		grants = append(grants, lt.Unlock(t, item)...)
	}
	return grants
}

// Cancel withdraws T's waiting requests (an abort) and returns the grants
// that lets through.
func (lt *LockTable) Cancel(t int) []Granted {
	var grants []Granted
	for _, item := range lt.itemsOf(t, false) {
		i, _ := lt.find(item)
		q := lt.qs[i]
		q.waiters = slices.DeleteFunc(q.waiters, func(l Lock) bool { return l.T == t })
		grants = q.regrant(grants)
		lt.drop(q)
	}
	return grants
}

// itemsOf lists the items T waits for (and holds, with held).
func (lt *LockTable) itemsOf(t int, held bool) []int {
	var out []int
	for _, q := range lt.qs {
		mine := func(l Lock) bool { return l.T == t }
		if slices.ContainsFunc(q.waiters, mine) || held && slices.ContainsFunc(q.holders, mine) {
			out = append(out, q.item)
		}
	}
	return out
}

// Holders lists the locks held on item.
func (lt *LockTable) Holders(item int) []Lock {
	if i, ok := lt.find(item); ok {
		return slices.Clone(lt.qs[i].holders)
	}
	return nil
}

// Waiters lists the requests waiting for item, first come first.
func (lt *LockTable) Waiters(item int) []Lock {
	if i, ok := lt.find(item); ok {
		return slices.Clone(lt.qs[i].waiters)
	}
	return nil
}

// State is the table as the locks key shows it.
func (lt *LockTable) State() []int {
	out := []int{}
	for _, q := range lt.qs {
		for _, h := range q.holders {
			out = append(out, q.item, h.T, int(h.Mode))
		}
		for _, w := range q.waiters {
			out = append(out, q.item, w.T, -int(w.Mode))
		}
	}
	return out
}

// WaitsFor is the table's local wait-for graph.
func (lt *LockTable) WaitsFor() []Edge { return WaitsFor(lt.State()) }

// Edge is a wait-for edge: transaction From waits for To.
type Edge struct{ From, To int }

// WaitsFor derives the wait-for edges from a locks value: a waiting
// transaction waits for every holder of the item in a conflicting mode and
// every earlier waiter in a conflicting mode (not for itself: an upgrade
// waits for the other holders), holders being listed before waiters. Edges
// are listed once, in the order found.
func WaitsFor(locks []int) []Edge {
	var out []Edge
	for _, w := range Blocks(locks) {
		if !slices.Contains(out, w.Edge) {
			out = append(out, w.Edge)
		}
	}
	return out
}

// Block is a wait-for edge and the item it is for.
type Block struct {
	Edge
	Item int
}

// Blocks is WaitsFor with the item of each edge: an edge is listed once
// per item it is for.
func Blocks(locks []int) []Block {
	var out []Block
	for i := 0; i+2 < len(locks); i += 3 {
		item, t, mode := locks[i], locks[i+1], locks[i+2]
		if mode >= 0 {
			continue
		}
		for j := 0; j+2 < len(locks) && j < i; j += 3 {
			w := Block{Edge{t, locks[j+1]}, item}
			if locks[j] == item && w.From != w.To && !Compatible(Mode(abs(locks[j+2])), Mode(-mode)) && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
