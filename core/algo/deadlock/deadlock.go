// Package deadlock holds what the deadlock-handling algorithms share
// (Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter
// "Distributed Coordination", section "Deadlock Handling"): the properties
// they promise, the state keys that show a declared deadlock, and the
// wait-for graphs: the edges a site's lock table makes, the search for a
// cycle, and the augmented local graph of the fully distributed algorithm
// with its node P_ex. The algorithms live in the sub-packages waitdie and
// woundwait (prevention), centralized, pex and cmh (detection), all on the
// sites of the transaction model (core/algo/txn).
//
// How a deadlock shows in the trace: the wait-for graphs are computed by
// the checkers from every site's locks key alone (Edges); a detector that
// declares a deadlock sets the key deadlock, at the declaring site, to the
// cycle's transaction ids in cycle order, then has a victim rolled back
// (its txn key goes to 2, aborted).
package deadlock

import (
	"slices"
	"strconv"
	"strings"

	"dsim/core/algo"
	"dsim/core/algo/cc"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

// The properties (see init), judged by core/check from the locks, txn,
// deadlock and bound keys.
const (
	Free     = "deadlock.free"
	Sound    = "deadlock.sound"
	Complete = "deadlock.complete"
)

// State keys.
const (
	KeyDeadlock  = "deadlock"  // []int: a declared cycle, in cycle order
	KeyAugmented = "augmented" // []int: a site's augmented local graph, pairs [from, to, ...], Ex for P_ex
	KeyBound     = "bound"     // int: the ticks within which a detector breaks a deadlock
	KeyWounded   = "wounded"   // []int: the transactions a wound-wait lock manager has wounded, while their locks are there
)

func init() {
	algo.DeclareFamily("deadlock", "deadlock handling for distributed transactions: prevention by timestamps (wait-die, wound-wait) and detection (centralized, fully distributed with P_ex, edge chasing)")
	algo.DeclareProperty(Free, "no cycle in the global wait-for graph at any event: the union of every site's local wait-for graph, computed from its locks key (a waiting transaction waits for each holder of the item in a conflicting mode and each earlier conflicting waiter), judged once a handler's changes are done, and leaving out the waits for a transaction the site's lock manager has wounded (the wounded key: a wait for a rollback already decided)")
	algo.DeclareProperty(Sound, "every declared deadlock (the deadlock key) is a cycle the global wait-for graph really had: at the event it is declared, or at some tick within the detector's bound before it (a deadlock broken meanwhile by another detection's victim was real, only detected late); a cycle it never had is a phantom, which the checker names (the centralized scheme without its fix declares them)")
	algo.DeclareProperty(Complete, "every deadlock is broken within the detector's bound (the bound key, in ticks): no cycle of the global wait-for graph lasts longer than the bound, until the end of the run")
}

// Ex is P_ex, the augmented graph's node for the rest of the system:
// transaction ids are positive.
const Ex = 0

// Edge is a wait-for edge: transaction From waits for To.
type Edge = txn.Edge

// Edges is a site's local wait-for graph, from its locks value (the
// transaction model's derivation, txn.WaitsFor): a waiting transaction
// waits for each holder of the item in a conflicting mode and each earlier
// waiter in a conflicting mode. The checkers, the detectors and the page
// share it.
func Edges(locks []int) []Edge { return txn.WaitsFor(locks) }

// next lists the nodes u waits for, in increasing id.
func next(edges []Edge, u int) []int {
	var out []int
	for _, e := range edges {
		if e.From == u && !slices.Contains(out, e.To) {
			out = append(out, e.To)
		}
	}
	slices.Sort(out)
	return out
}

// nodes lists the graph's nodes in increasing id.
func nodes(edges []Edge) []int {
	var out []int
	for _, e := range edges {
		for _, v := range [2]int{e.From, e.To} {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Cycle finds a cycle of the graph, in cycle order from its smallest node,
// leaving out the nodes skip says; nil if there is none. The search is a
// depth-first search from each node in increasing id, so the answer does
// not depend on the edges' order.
func Cycle(edges []Edge, skip func(int) bool) []int {
	const (
		white = iota
		grey
		black
	)
	colour := map[int]int{}
	var path, found []int
	var visit func(u int) bool
	visit = func(u int) bool {
		colour[u] = grey
		path = append(path, u)
		for _, v := range next(edges, u) {
			if skip != nil && skip(v) {
				continue
			}
			switch colour[v] {
			case grey:
				found = slices.Clone(path[slices.Index(path, v):])
				return true
			case white:
				if visit(v) {
					return true
				}
			}
		}
		path = path[:len(path)-1]
		colour[u] = black
		return false
	}
	for _, u := range nodes(edges) {
		if colour[u] == white && (skip == nil || !skip(u)) && visit(u) {
			return rotate(found)
		}
	}
	return nil
}

// rotate starts a cycle at its smallest node.
func rotate(c []int) []int {
	i := slices.Index(c, slices.Min(c))
	return append(slices.Clone(c[i:]), c[:i]...)
}

// IsCycle reports whether c, in order, is a cycle of the graph: an edge
// from each node to the next and from the last to the first.
func IsCycle(edges []Edge, c []int) bool {
	if len(c) < 2 {
		return false
	}
	for i, u := range c {
		if !slices.Contains(edges, Edge{From: u, To: c[(i+1)%len(c)]}) {
			return false
		}
	}
	return true
}

// ExCycles lists cycles through P_ex of a site's augmented graph that
// begin with prefix ([Ex] or [Ex, K1, ..., Kj], a path received), each as
// [Ex, K1, ..., Kn] without the closing P_ex: for each first process K1
// after P_ex (or the prefix) and each process Kn waiting elsewhere
// (Kn → P_ex), in increasing ids, the shortest local path from K1 (the
// prefix's last) to Kn that leaves out P_ex and the prefix. One cycle per
// pair is enough for the detection: the id rule reads only K1 and Kn.
func ExCycles(edges []Edge, prefix []int) [][]int {
	var out [][]int
	firsts := next(edges, Ex)
	if len(prefix) > 1 {
		firsts = prefix[len(prefix)-1:]
	}
	for _, k1 := range firsts {
		for _, kn := range nodes(edges) {
			if kn == Ex || !slices.Contains(edges, Edge{From: kn, To: Ex}) {
				continue
			}
			if p := shortest(edges, k1, kn, prefix); p != nil && (len(prefix) == 1 || len(p) > 1) {
				out = append(out, append(slices.Clone(prefix[:max(len(prefix)-1, 1)]), p...))
			}
		}
	}
	return out
}

// shortest is a shortest path from a to b, taking successors in
// increasing id, leaving out the nodes of avoid (but a); nil if none.
func shortest(edges []Edge, a, b int, avoid []int) []int {
	from := map[int]int{a: a}
	queue := []int{a}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u == b {
			path := []int{b}
			for path[0] != a {
				path = append([]int{from[path[0]]}, path...)
			}
			return path
		}
		for _, v := range next(edges, u) {
			if _, seen := from[v]; !seen && v != Ex && !slices.Contains(avoid, v) {
				from[v] = u
				queue = append(queue, v)
			}
		}
	}
	return nil
}

// Augmented is a site's augmented local wait-for graph (the chapter's
// fully distributed scheme): its local edges, plus
//   - Pi → P_ex for each Pi of the local graph waiting for a data item
//     at another site (elsewhere reports it),
//   - P_ex → Pj for each Pj waiting here while a process at another site
//     waits for it (waitedElsewhere reports that): the processes
//     elsewhere that wait for Pj wait, through it, for the items here.
//
// The P_ex edges are listed after the local ones, in increasing id.
func Augmented(local []Edge, waitsElsewhere, waitedElsewhere func(t int) bool) []Edge {
	out := slices.Clone(local)
	here := nodes(local)
	for _, t := range here {
		if waitsElsewhere(t) {
			out = append(out, Edge{From: t, To: Ex})
		}
	}
	for _, t := range here {
		if waitedElsewhere(t) && slices.ContainsFunc(local, func(e Edge) bool { return e.From == t }) {
			out = append(out, Edge{From: Ex, To: t})
		}
	}
	return out
}

// Sends is the id rule of the fully distributed scheme: a site whose
// augmented graph has the cycle P_ex → P_K1 → ... → P_Kn → P_ex (c is
// [Ex, K1, ..., Kn]) sends a deadlock-detection message only if
// ID(P_Kn) < ID(P_K1); without the rule (idrule false), always.
func Sends(c []int, idrule bool) bool {
	return len(c) > 1 && (!idrule || c[len(c)-1] < c[1])
}

// Pairs flattens edges for a state value: [from, to, from, to, ...].
func Pairs(edges []Edge) []int {
	out := make([]int, 0, 2*len(edges))
	for _, e := range edges {
		out = append(out, e.From, e.To)
	}
	return out
}

// Name shows a transaction, or P_ex.
func Name(t int) string {
	if t == Ex {
		return "Pex"
	}
	return "T" + strconv.Itoa(t)
}

// Text shows a cycle: "T2 -> T3 -> T4 -> T2".
func Text(c []int) string {
	var b strings.Builder
	for _, t := range c {
		b.WriteString(Name(t) + " -> ")
	}
	if len(c) > 0 {
		b.WriteString(Name(c[0]))
	}
	return b.String()
}

// Scheme is a deadlock-handling algorithm to register on the transaction
// model's sites (two-phase locking, the nonreplicated scheme: each site's
// lock manager handles its own items). Node makes a site; Params and
// State are the scheme's own, beside the model's; Messages its own kinds.
type Scheme struct {
	Name, Summary, Description string
	Params                     []algo.Param
	State                      []algo.StateKey
	Messages                   []proc.Message
	Properties                 []algo.Property
	Assumptions                algo.Assumptions
	Node                       func(v algo.Values, site txn.Site) proc.Node
	// Check, if set, rejects a bad configuration of the scheme's keys.
	Check  func(v algo.Values) error
	Memory algo.Memory
}

// Register registers the scheme.
func (s Scheme) Register() {
	algo.Register(algo.Spec{
		Name:        s.Name,
		Summary:     s.Summary,
		Description: s.Description + "\n" + cc.Model,
		Topology:    "complete",
		Assumptions: s.Assumptions,
		Config:      append(txn.Params(), s.Params...),
		Commands:    txn.Commands,
		State:       append(slices.Clone(txn.State), s.State...),
		Messages:    append(slices.Clone(txn.Messages), s.Messages...),
		Properties:  append([]algo.Property{cc.Serializable}, s.Properties...),
		Check:       txn.Check,
		New: func(v algo.Values) (proc.Factory, error) {
			cfg, err := txn.NewConfig(v)
			if err == nil && s.Check != nil {
				err = s.Check(v)
			}
			if err != nil {
				return nil, err
			}
			return func(proc.NodeID) proc.Node { return s.Node(v, txn.Site{Config: cfg, Scheme: txn.Nonreplicated}) }, nil
		},
		Memory: s.Memory,
	})
}

// PreventionState is the state the prevention schemes add to the model's.
var PreventionState = []algo.StateKey{
	{Key: KeyWounded, Doc: "at a lock site: the transactions its lock manager has wounded, while it still shows their locks (wound-wait: the older requesters queued behind them wait only for their rollback; wait-die wounds nobody and never sets it)"},
}

// Older reports whether a transaction of timestamp a is older than one of
// timestamp b (Stamp.Int keeps the order of the stamps).
func Older(a, b int) bool { return a < b }

// SiteMemory is a site's: the model's record and placement, as
// concurrency control's.
var SiteMemory = cc.Memory

// DetectorMemory is a detector site's: the model's site, its own
// record of extra bytes (measured), and the bound key its Start sets.
func DetectorMemory(extra uint64) algo.Memory {
	return algo.Memory{Boot: func(n int) uint64 { return cc.Memory.Boot(n) + extra }, BootEvents: 1}
}
