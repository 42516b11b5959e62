// Package topo builds the process graphs scenarios ask for (rings, complete
// graphs, stars, lines, trees, grids, random connected graphs, explicit edge
// lists) and assigns process ids: 1..n, shuffled, or an explicit list in ring
// order, so textbook examples can use the ids they print.
package topo

import (
	"fmt"
	"sort"

	"dsim/core/sim"
)

// Kinds lists the topology names, with what each one is.
var Kinds = []struct{ Name, Doc string }{
	{"ring", "unidirectional ring: each process knows its right neighbour"},
	{"biring", "bidirectional ring: left and right neighbours"},
	{"complete", "every process is adjacent to every other"},
	{"star", "the first process is the hub, adjacent to all others"},
	{"line", "a path: first and last have one neighbour"},
	{"tree", "a k-ary tree (arity k) rooted at the first process"},
	{"grid", "rows x cols, four neighbours each (cols defaults to ceil(sqrt n))"},
	{"random", "a seeded random connected graph: a random spanning tree plus edges with probability p"},
	{"edges", "an explicit undirected edge list; ids come from the edges unless given"},
}

// MaxN bounds the process count a scenario may ask for.
const MaxN = 2_000_000

// Spec describes the topology to build. Zero fields take defaults.
type Spec struct {
	Kind string
	N    int
	// IDs in ring order. Empty: First..First+N-1 (callers default First
	// to 1), shuffled when Shuffle.
	IDs     []sim.NodeID
	First   int
	Shuffle bool
	Arity   int     // tree
	Cols    int     // grid
	P       float64 // random: extra edge probability
	Edges   [][2]sim.NodeID
	Seed    uint64
}

// Graph is a built topology with the layout hints the playground uses.
type Graph struct {
	sim.Topology
	Kind  string
	Arity int
	Cols  int
}

// Build makes the topology, or says which field is wrong.
func Build(s Spec) (Graph, error) {
	if s.Kind == "" {
		s.Kind = "complete"
	}
	if s.Kind == "edges" {
		return buildEdges(s)
	}
	ids, err := assignIDs(s)
	if err != nil {
		return Graph{}, err
	}
	n := len(ids)
	g := Graph{Topology: sim.Topology{Name: s.Kind, IDs: ids}, Kind: s.Kind}
	adj := make([][]int32, n)
	link := func(a, b int) {
		if a != b && !contains(adj[a], int32(b)) {
			adj[a] = append(adj[a], int32(b))
		}
	}
	both := func(a, b int) { link(a, b); link(b, a) }
	switch s.Kind {
	case "ring":
		for i := range n {
			link(i, (i+1)%n)
		}
	case "biring":
		for i := range n {
			link(i, (i+1)%n)
			link(i, (i-1+n)%n)
		}
	case "complete":
		adj = nil
	case "star":
		for i := 1; i < n; i++ {
			both(0, i)
		}
	case "line":
		for i := 0; i+1 < n; i++ {
			both(i, i+1)
		}
	case "tree":
		k := s.Arity
		if k == 0 {
			k = 2
		}
		if k < 1 {
			return Graph{}, fmt.Errorf("topology tree: arity must be at least 1, got %d", k)
		}
		g.Arity = k
		for i := 1; i < n; i++ {
			both((i-1)/k, i)
		}
	case "grid":
		c := s.Cols
		if c == 0 {
			for c*c < n {
				c++
			}
		}
		if c < 1 {
			return Graph{}, fmt.Errorf("topology grid: cols must be at least 1, got %d", c)
		}
		g.Cols = c
		for i := range n {
			if (i+1)%c != 0 && i+1 < n {
				both(i, i+1)
			}
			if i+c < n {
				both(i, i+c)
			}
		}
	case "random":
		if !(s.P >= 0 && s.P <= 1) {
			return Graph{}, fmt.Errorf("topology random: p must be between 0 and 1, got %g", s.P)
		}
		if int64(n)*int64(n) > 1<<26 && s.P > 0 {
			return Graph{}, fmt.Errorf("topology random: n=%d is too large for extra edges (at most 8192)", n)
		}
		r := sim.Stream(s.Seed, "topology", 0)
		order := r.Perm(n)
		for k := 1; k < n; k++ {
			both(order[k], order[r.IntN(k)])
		}
		if s.P > 0 {
			for a := range n {
				for b := a + 1; b < n; b++ {
					if r.Float64() < s.P {
						both(a, b)
					}
				}
			}
		}
		for i := range adj {
			sort.Slice(adj[i], func(x, y int) bool { return adj[i][x] < adj[i][y] })
		}
	default:
		return Graph{}, fmt.Errorf("unknown topology %q (known: %s)", s.Kind, kindNames())
	}
	g.Adj = adj
	return g, nil
}

func kindNames() string {
	out := ""
	for i, k := range Kinds {
		if i > 0 {
			out += ", "
		}
		out += k.Name
	}
	return out
}

func contains(a []int32, x int32) bool {
	for _, v := range a {
		if v == x {
			return true
		}
	}
	return false
}

func assignIDs(s Spec) ([]sim.NodeID, error) {
	if len(s.IDs) > 0 {
		if s.N != 0 && s.N != len(s.IDs) {
			return nil, fmt.Errorf("n=%d but %d ids were given", s.N, len(s.IDs))
		}
		seen := map[sim.NodeID]bool{}
		for _, id := range s.IDs {
			if seen[id] {
				return nil, fmt.Errorf("ids: %d appears twice", id)
			}
			seen[id] = true
		}
		return append([]sim.NodeID(nil), s.IDs...), nil
	}
	if s.N < 1 {
		return nil, fmt.Errorf("n must be at least 1, got %d", s.N)
	}
	if s.N > MaxN {
		return nil, fmt.Errorf("n=%d is more than the %d processes dsim simulates", s.N, MaxN)
	}
	first := s.First
	ids := make([]sim.NodeID, s.N)
	for i := range ids {
		ids[i] = sim.NodeID(first + i)
	}
	if s.Shuffle {
		r := sim.Stream(s.Seed, "ids", 0)
		r.Shuffle(len(ids), func(a, b int) { ids[a], ids[b] = ids[b], ids[a] })
	}
	return ids, nil
}

func buildEdges(s Spec) (Graph, error) {
	if len(s.Edges) == 0 {
		return Graph{}, fmt.Errorf("topology edges: no edges given")
	}
	ids := s.IDs
	if len(ids) == 0 {
		seen := map[sim.NodeID]bool{}
		for _, e := range s.Edges {
			for _, id := range e {
				if !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
		sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	}
	ids, err := assignIDs(Spec{IDs: ids})
	if err != nil {
		return Graph{}, err
	}
	index := make(map[sim.NodeID]int32, len(ids))
	for i, id := range ids {
		index[id] = int32(i)
	}
	adj := make([][]int32, len(ids))
	for k, e := range s.Edges {
		a, okA := index[e[0]]
		b, okB := index[e[1]]
		if !okA || !okB {
			return Graph{}, fmt.Errorf("topology edges: edge %d (%d-%d) names a process not in ids", k+1, e[0], e[1])
		}
		if a == b {
			return Graph{}, fmt.Errorf("topology edges: edge %d is a self-loop on %d", k+1, e[0])
		}
		if !contains(adj[a], b) {
			adj[a] = append(adj[a], b)
			adj[b] = append(adj[b], a)
		}
	}
	return Graph{Topology: sim.Topology{Name: "edges", IDs: ids, Adj: adj}, Kind: "edges"}, nil
}
