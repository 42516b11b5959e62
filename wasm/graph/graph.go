// Package graph draws up the relation graphs the playground shows beside
// the topology, from the state at the cursor: the global wait-for graph of
// a transaction world, computed from every site's lock table (the locks
// key of the transaction model) with the edges the deadlock checkers use,
// and, where the fully distributed detector runs, each site's augmented
// local graph with its node P_ex as the site publishes it. A cycle is
// marked when there is one.
//
// It is plain Go, tested natively; the page turns a Graph into SVG.
package graph

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"dsim/core/algo/deadlock"
	"dsim/core/algo/txn"
	"dsim/core/trace"
	"dsim/wasm/replay"
)

// Node is a vertex, placed in a unit square (0..1 both ways).
type Node struct {
	ID    int
	Label string
	X, Y  float64
}

// Edge is an arc between nodes, by index in Graph.Nodes.
type Edge struct {
	From, To int
	Label    string // what it is for: the items waited for
	Cycle    bool   // on the cycle found
}

// Graph is what one view draws.
type Graph struct {
	Title string // the site's name for an augmented graph
	Nodes []Node
	Edges []Edge
	// Cycle is the labels of the nodes of the cycle found, in order,
	// empty when the graph has none.
	Cycle []string
}

// ints reads process position p's value of key at view v.
func ints(v *replay.View, p int, key string) ([]int, bool) {
	text, has := v.Get(p, key)
	if !has {
		return nil, false
	}
	x, _ := trace.IntsOf(trace.Raw(text))
	return x, true
}

// WaitFor is the global wait-for graph at view v: the union of the edges
// of every live site's lock table, one arc per pair of transactions
// labelled with the items, a cycle marked. ok is false when no site of the
// world has a lock table (no transaction world).
func WaitFor(v *replay.View) (g Graph, ok bool) {
	var blocks []txn.Block
	var ids []int
	for p := range v.State {
		locks, has := ints(v, p, txn.KeyLocks)
		if !has {
			continue
		}
		ok = true
		for i := 1; i < len(locks); i += 3 {
			ids = append(ids, locks[i])
		}
		blocks = append(blocks, txn.Blocks(locks)...)
	}
	items := map[deadlock.Edge][]string{}
	var edges []deadlock.Edge
	for _, b := range blocks {
		if items[b.Edge] == nil {
			edges = append(edges, b.Edge)
		}
		if name := txn.ItemName(b.Item); !slices.Contains(items[b.Edge], name) {
			items[b.Edge] = append(items[b.Edge], name)
		}
	}
	g = build(ids, edges, func(e deadlock.Edge) string { return strings.Join(items[e], ", ") })
	return g, ok
}

// Augmented are the augmented local wait-for graphs the sites of view v
// publish (the fully distributed detector's), by site, P_ex among their
// nodes; none in other worlds.
func Augmented(v *replay.View, ids []int) []Graph {
	var out []Graph
	for p := range v.State {
		pairs, has := ints(v, p, deadlock.KeyAugmented)
		if !has {
			continue
		}
		var edges []deadlock.Edge
		nodes := []int{deadlock.Ex}
		for i := 0; i+1 < len(pairs); i += 2 {
			edges = append(edges, deadlock.Edge{From: pairs[i], To: pairs[i+1]})
			nodes = append(nodes, pairs[i], pairs[i+1])
		}
		g := build(nodes, edges, func(deadlock.Edge) string { return "" })
		g.Title = "S" + strconv.Itoa(ids[p])
		out = append(out, g)
	}
	return out
}

// build lays out the nodes ids (duplicates allowed) on a circle, in
// increasing id, and the edges between them, and marks a cycle: one
// without P_ex first, a deadlock, else one through it.
func build(ids []int, edges []deadlock.Edge, label func(deadlock.Edge) string) (g Graph) {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	index := make(map[int]int, len(ids))
	for i, t := range ids {
		index[t] = i
		a := 2 * math.Pi * float64(i) / float64(len(ids))
		g.Nodes = append(g.Nodes, Node{ID: t, Label: Name(t), X: 0.5 + 0.38*math.Sin(a), Y: 0.5 - 0.38*math.Cos(a)})
	}
	cycle := deadlock.Cycle(edges, func(t int) bool { return t == deadlock.Ex })
	if cycle == nil {
		cycle = deadlock.Cycle(edges, nil)
	}
	on := func(e deadlock.Edge) bool {
		for i, c := range cycle {
			if c == e.From && cycle[(i+1)%len(cycle)] == e.To {
				return true
			}
		}
		return false
	}
	for _, e := range edges {
		g.Edges = append(g.Edges, Edge{From: index[e.From], To: index[e.To], Label: label(e), Cycle: on(e)})
	}
	for _, t := range cycle {
		g.Cycle = append(g.Cycle, Name(t))
	}
	return g
}

// Name is how a node is labelled: Tn, or P_ex.
func Name(t int) string {
	if t == deadlock.Ex {
		return "Pex"
	}
	return "T" + strconv.Itoa(t)
}
