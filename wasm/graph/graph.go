// Package graph draws up the relation graphs the playground shows beside
// the topology, from the state at the cursor: the global wait-for graph of
// a transaction world, computed from every site's lock table (the locks
// key of the transaction model) as the deadlock checkers compute it, with
// a cycle marked when there is one.
//
// It is plain Go, tested natively; the page turns a Graph into SVG.
package graph

import (
	"math"
	"slices"
	"strconv"
	"strings"

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
	Label    string // what it is for: the item waited for
	Cycle    bool   // on the cycle found
}

// Graph is what one view draws.
type Graph struct {
	Nodes []Node
	Edges []Edge
	// Cycle is the labels of the nodes of the cycle found, in order,
	// empty when the graph has none.
	Cycle []string
}

// Wait is one arc of a wait-for graph: transaction T waits for U because
// of item.
type Wait struct{ T, U, Item int }

// Waits derives the wait-for arcs of one site's lock table, given as the
// transaction model's locks value: triples [item, T, mode], mode 1 or 2
// for a holder of a shared or exclusive lock, -1 or -2 for a waiter, the
// holders of an item before its waiters, waiters in queue order. A waiter
// waits for every holder of the item in a conflicting mode and for every
// waiter ahead of it in a conflicting mode (the queue is first come, first
// served); two shared modes do not conflict.
func Waits(locks []int) []Wait {
	var out []Wait
	for lo := 0; lo+2 < len(locks); {
		hi := lo
		for hi+2 < len(locks) && locks[hi] == locks[lo] {
			hi += 3
		}
		for w := lo; w < hi; w += 3 {
			if locks[w+2] > 0 {
				continue
			}
			for a := lo; a < w; a += 3 {
				if locks[a+1] != locks[w+1] && (locks[a+2] == 2 || locks[a+2] == -2 || locks[w+2] == -2) {
					out = append(out, Wait{locks[w+1], locks[a+1], locks[lo]})
				}
			}
		}
		lo = hi
	}
	return out
}

// Cycle finds a cycle among the arcs, as the transactions on it in order,
// nil when there is none. The search starts from the smallest id and
// follows arcs in the order given, so the same graph gives the same cycle.
func Cycle(arcs []Wait) []int {
	next := map[int][]int{}
	var ids []int
	for _, a := range arcs {
		if next[a.T] == nil && !slices.Contains(ids, a.T) {
			ids = append(ids, a.T)
		}
		next[a.T] = append(next[a.T], a.U)
	}
	slices.Sort(ids)
	const (
		fresh = iota
		onPath
		done
	)
	color := map[int]int{}
	var path []int
	var visit func(t int) []int
	visit = func(t int) []int {
		color[t] = onPath
		path = append(path, t)
		for _, u := range next[t] {
			switch color[u] {
			case onPath:
				return slices.Clone(path[slices.Index(path, u):])
			case fresh:
				if c := visit(u); c != nil {
					return c
				}
			}
		}
		color[t] = done
		path = path[:len(path)-1]
		return nil
	}
	for _, t := range ids {
		if color[t] == fresh {
			if c := visit(t); c != nil {
				return c
			}
		}
	}
	return nil
}

// KeyLocks is the transaction model's state key of a site's lock table.
const KeyLocks = "locks"

// WaitFor is the global wait-for graph at view v: the union of the arcs of
// every live site's lock table, one arc per pair of transactions labelled
// with the items, the transactions on a circle, a cycle marked. ok is
// false when no site of the world has a lock table (no transaction world).
func WaitFor(v *replay.View) (g Graph, ok bool) {
	var arcs []Wait
	var ids []int
	for p := range v.State {
		text, has := v.Get(p, KeyLocks)
		if !has {
			continue
		}
		ok = true
		locks, _ := trace.IntsOf(trace.Raw(text))
		for i := 1; i < len(locks); i += 3 {
			if !slices.Contains(ids, locks[i]) {
				ids = append(ids, locks[i])
			}
		}
		arcs = append(arcs, Waits(locks)...)
	}
	slices.Sort(ids)
	index := make(map[int]int, len(ids))
	for i, t := range ids {
		index[t] = i
		a := 2 * math.Pi * float64(i) / float64(len(ids))
		g.Nodes = append(g.Nodes, Node{ID: t, Label: "T" + strconv.Itoa(t), X: 0.5 + 0.38*math.Sin(a), Y: 0.5 - 0.38*math.Cos(a)})
	}
	cycle := Cycle(arcs)
	on := func(t, u int) bool {
		for i, c := range cycle {
			if c == t && cycle[(i+1)%len(cycle)] == u {
				return true
			}
		}
		return false
	}
	items := map[[2]int][]string{} // the items of an arc, by its ends
	for _, a := range arcs {
		from, to, item := index[a.T], index[a.U], ItemName(a.Item)
		end := [2]int{from, to}
		if items[end] == nil {
			g.Edges = append(g.Edges, Edge{From: from, To: to, Cycle: on(a.T, a.U)})
		}
		if !slices.Contains(items[end], item) {
			items[end] = append(items[end], item)
		}
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		e.Label = strings.Join(items[[2]int{e.From, e.To}], ", ")
	}
	for _, t := range cycle {
		g.Cycle = append(g.Cycle, "T"+strconv.Itoa(t))
	}
	return g, ok
}

// ItemName is the name of a data item of the transaction model from its
// code: its letter (A=0 ... Z=25) and, past Z, its number (26 is A1).
func ItemName(code int) string {
	name := string(rune('A' + code%26))
	if code >= 26 {
		name += strconv.Itoa(code / 26)
	}
	return name
}
