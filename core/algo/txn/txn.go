// Package txn is the transaction model the concurrency-control and
// deadlock-handling families share (Silberschatz, Galvin and Gagne,
// "Operating System Concepts", chapter "Distributed Coordination", sections
// "Concurrency Control" and "Deadlock Handling", on the transactions of the
// chapter before it: read(Q), write(Q), lock-S(Q), lock-X(Q), two-phase
// locking). It has no family of its own: it names the data items and their
// placement, parses a transaction's operations, gives transactions their
// timestamps, keeps a site's lock table (LockTable) and runs the sites of
// two-phase locking (Site), which the families configure or compose.
//
// How the model shows in the trace (the checkers' only input):
//   - locks, at every site that manages locks: its whole table after each
//     change, as triples [item, T, mode, ...]: mode 1 holds S, 2 holds X,
//     -1 waits for S, -2 waits for X; items in increasing code, holders
//     before waiters, waiters in queue order (WaitsFor derives the edges);
//   - op, at the site where a data access happens: [k, T, item, w, run]
//     after the k-th access at that site (w = 1 write, 0 read), made by the
//     run-th run of T (1 at its begin, one more at each restart: the
//     checkers leave out the accesses of runs that were rolled back, even
//     one a lock manager performs late, as its grant crosses the unlock);
//   - txn, at the home site: [T, status, ts] at each change of a
//     transaction's status: 0 running (at its begin, at each restart, the
//     status 0 after a 2, which starts a new run, and after a wait), 1
//     committed, 2 aborted, 3 waiting for the grant of a lock it has
//     requested (from a remote lock manager: from the request to the
//     grant); ts its timestamp (Stamp.Int).
package txn

import (
	"fmt"
	"strconv"
	"strings"

	"dsim/core/algo"
	"dsim/core/proc"
)

// State keys.
const (
	KeyLocks = "locks" // [item, T, mode, ...]: a site's lock table
	KeyOp    = "op"    // [k, T, item, w, run]: the k-th data access at a site
	KeyTxn   = "txn"   // [T, status, ts]: a transaction's status at its home site
)

// Statuses of a transaction in the txn key.
const (
	Running   = 0
	Committed = 1
	Aborted   = 2
	Waiting   = 3
)

// State documents the keys, for the algorithms' specs.
var State = []algo.StateKey{
	{Key: KeyLocks, Doc: "at a site that manages locks, its whole lock table after each change: triples [item, T, mode, ...], mode 1 holds S, 2 holds X, -1 waits for S, -2 waits for X; items in increasing code (A=0, B=1, ..., Z=25, A1=26), holders before waiters, waiters in queue order"},
	{Key: KeyOp, Doc: "at the site where a data access happens: [k, T, item, w, run] after its k-th access (w = 1 write, 0 read), made by T's run-th run (1 at its begin, one more at each restart)"},
	{Key: KeyTxn, Doc: "at a transaction's home site: [T, status, ts] at each change of its status (0 running: at its begin, at each restart (a 0 after a 2: a new run) and after a wait, 1 committed, 2 aborted, 3 waiting for the grant of a lock it has requested: from a lock manager elsewhere, from the request to the grant; from its own site's, while queued); ts its timestamp, counter*(2^31) + the home site's id"},
}

// ItemName is the name of the item with code c: its letter, then its
// number when above zero ("Q" for 16, "A1" for 26).
func ItemName(c int) string {
	if c < 0 {
		return "?" + strconv.Itoa(c)
	}
	name := string(rune('A' + c%26))
	if c >= 26 {
		name += strconv.Itoa(c / 26)
	}
	return name
}

// ParseItem reads an item's name: one capital letter and optional digits.
func ParseItem(s string) (int, error) {
	if len(s) == 0 || s[0] < 'A' || s[0] > 'Z' {
		return 0, fmt.Errorf("item %q is not a capital letter with optional digits", s)
	}
	n := 0
	if len(s) > 1 {
		v, err := strconv.Atoi(s[1:])
		if err != nil || v < 0 || v > 1<<20 || s[1] == '+' || s[1] == '-' {
			return 0, fmt.Errorf("item %q is not a capital letter with optional digits", s)
		}
		n = v
	}
	return int(s[0]-'A') + 26*n, nil
}

// Op is one operation of a transaction: read(Q) or write(Q), or abort
// (the transaction aborts itself there).
type Op struct {
	Write bool
	Item  int
	Abort bool
}

func (o Op) String() string {
	switch {
	case o.Abort:
		return "abort"
	case o.Write:
		return "write(" + ItemName(o.Item) + ")"
	}
	return "read(" + ItemName(o.Item) + ")"
}

// ParseOps reads a transaction's operations in the text's notation,
// "read(A) write(B)", or the short "r(A) w(B)"; "abort" aborts it there.
// The error names the bad token.
func ParseOps(s string) ([]Op, error) {
	var ops []Op
	for _, tok := range strings.Fields(s) {
		if tok == "abort" {
			ops = append(ops, Op{Abort: true})
			continue
		}
		name, arg, ok := strings.Cut(tok, "(")
		if !ok || !strings.HasSuffix(arg, ")") {
			return nil, fmt.Errorf("operation %q: want read(Q), write(Q), r(Q), w(Q) or abort", tok)
		}
		var op Op
		switch name {
		case "read", "r":
		case "write", "w":
			op.Write = true
		default:
			return nil, fmt.Errorf("operation %q: want read(Q), write(Q), r(Q), w(Q) or abort", tok)
		}
		item, err := ParseItem(strings.TrimSuffix(arg, ")"))
		if err != nil {
			return nil, fmt.Errorf("operation %q: %v", tok, err)
		}
		op.Item = item
		ops = append(ops, op)
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("no operations in %q", s)
	}
	return ops, nil
}

// Stamp is a transaction's timestamp as the chapter makes it unique: a
// site's local counter concatenated with the site's identifier, compared
// lexicographically.
type Stamp struct {
	C    int
	Site proc.NodeID
}

// Int encodes the stamp as one int for the state: C*(MaxID+1) + Site, in
// the same order as Less for sites of nonnegative ids.
func (s Stamp) Int() int { return s.C*(int(proc.MaxID)+1) + int(s.Site) }

// Less orders stamps: the counter first, the site's id breaking ties.
func (s Stamp) Less(o Stamp) bool { return s.C < o.C || s.C == o.C && s.Site < o.Site }

// StampOf decodes Int's encoding.
func StampOf(ts int) Stamp {
	m := int(proc.MaxID) + 1
	c := ts / m
	return Stamp{C: c, Site: proc.NodeID(ts - c*m)}
}

func (s Stamp) String() string {
	return "<" + strconv.Itoa(s.C) + "," + strconv.Itoa(int(s.Site)) + ">"
}

// Name shows a transaction id: "T3".
func Name(t int) string { return "T" + strconv.Itoa(t) }
