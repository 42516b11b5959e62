// Package topo builds the process graphs scenarios ask for (rings, complete
// graphs, stars, lines, trees, grids, random connected graphs, explicit edge
// lists) and assigns process ids: 1..n, shuffled, or an explicit list in ring
// order, so textbook examples can use the ids they print.
package topo

import (
	"fmt"
	"slices"

	"dsim/core/sim"
	"dsim/core/trace"
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
	{"edges", "an explicit undirected edge list; the processes are ids (or first..first+n-1), else every id the edges name"},
}

// MaxN bounds the process count a scenario may ask for.
const MaxN = 2_000_000

// Spec describes the topology to build. Zero fields take defaults.
type Spec struct {
	Kind string
	N    int
	// IDs in ring order. Empty: First..First+N-1 (callers default First
	// to 1). Either list is shuffled by Seed when Shuffle is set.
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
	if !known(s.Kind) {
		return Graph{}, fmt.Errorf("unknown topology %s (known: %s)", trace.Quote(s.Kind), kindNames())
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
	// gen names every arc of the topology, for rows.
	var gen func(arc func(a, b int))
	var adj [][]int32
	switch s.Kind {
	case "ring":
		gen = func(arc func(a, b int)) {
			for i := range n {
				arc(i, (i+1)%n)
			}
		}
	case "biring":
		gen = func(arc func(a, b int)) {
			for i := range n {
				arc(i, (i+1)%n)
				arc(i, (i-1+n)%n)
			}
		}
	case "complete":
	case "star":
		gen = func(arc func(a, b int)) {
			for i := 1; i < n; i++ {
				arc(0, i)
				arc(i, 0)
			}
		}
	case "line":
		gen = func(arc func(a, b int)) {
			for i := 0; i+1 < n; i++ {
				arc(i, i+1)
				arc(i+1, i)
			}
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
		gen = func(arc func(a, b int)) {
			for i := 1; i < n; i++ {
				arc((i-1)/k, i)
				arc(i, (i-1)/k)
			}
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
		gen = func(arc func(a, b int)) {
			for i := range n {
				if (i+1)%c != 0 && i+1 < n {
					arc(i, i+1)
					arc(i+1, i)
				}
				if i+c < n {
					arc(i, i+c)
					arc(i+c, i)
				}
			}
		}
	case "random":
		if !(s.P >= 0 && s.P <= 1) {
			return Graph{}, fmt.Errorf("topology random: p must be between 0 and 1, got %g", s.P)
		}
		if int64(n)*int64(n) > 1<<26 && s.P > 0 {
			return Graph{}, fmt.Errorf("topology random: n=%d is too large for extra edges (at most 8192)", n)
		}
		adj = randomGraph(n, s.P, s.Seed)
	}
	if gen != nil {
		adj = rows(n, gen)
	}
	g.Adj = adj
	return g, nil
}

// rows makes adjacency lists from the arcs gen names, each list in the
// order of its arcs, without self-loops or an arc named twice in a row. gen
// runs twice, to count then to place, so that the lists share one backing
// array: a million processes cost a few allocations, not a million.
func rows(n int, gen func(arc func(a, b int))) [][]int32 {
	end := make([]int32, n+1) // list a is flat[end[a]:end[a+1]] once counted
	gen(func(a, b int) { end[a+1]++ })
	for i := range n {
		end[i+1] += end[i]
	}
	flat := make([]int32, end[n])
	fill := slices.Clone(end[:n])
	gen(func(a, b int) {
		if a != b && (fill[a] == end[a] || flat[fill[a]-1] != int32(b)) {
			flat[fill[a]] = int32(b)
			fill[a]++
		}
	})
	adj := make([][]int32, n)
	for a := range adj {
		if fill[a] > end[a] {
			adj[a] = flat[end[a]:fill[a]:fill[a]]
		}
	}
	return adj
}

// randomGraph joins the processes by a random recursive tree (each one, in
// a random order, to a random earlier one), so the graph is connected, then
// adds every other pair with probability p. Lists come out sorted.
func randomGraph(n int, p float64, seed uint64) [][]int32 {
	r := sim.Stream(seed, "topology", 0)
	var edges [][2]int32
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = -1
	}
	order := r.Perm(n)
	for k := 1; k < n; k++ {
		a, b := order[k], order[r.IntN(k)]
		parent[a] = int32(b)
		edges = append(edges, [2]int32{int32(a), int32(b)})
	}
	if p > 0 {
		for a := range n {
			for b := a + 1; b < n; b++ {
				if r.Float64() < p && parent[a] != int32(b) && parent[b] != int32(a) {
					edges = append(edges, [2]int32{int32(a), int32(b)})
				}
			}
		}
	}
	adj := rows(n, func(arc func(a, b int)) {
		for _, e := range edges {
			arc(int(e[0]), int(e[1]))
			arc(int(e[1]), int(e[0]))
		}
	})
	for _, row := range adj {
		slices.Sort(row)
	}
	return adj
}

func known(kind string) bool {
	for _, k := range Kinds {
		if k.Name == kind {
			return true
		}
	}
	return false
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

// assignIDs returns the ids in ring order: the given list, or First..
// First+N-1; either shuffled by the seed when asked.
func assignIDs(s Spec) ([]sim.NodeID, error) {
	var ids []sim.NodeID
	if len(s.IDs) > 0 {
		if s.N != 0 && s.N != len(s.IDs) {
			return nil, fmt.Errorf("n=%d but %d ids were given", s.N, len(s.IDs))
		}
		if len(s.IDs) > MaxN {
			return nil, fmt.Errorf("%d ids are more than the %d processes dsim simulates", len(s.IDs), MaxN)
		}
		seen := make(map[sim.NodeID]bool, len(s.IDs))
		for _, id := range s.IDs {
			if id < sim.MinID { // the one int32 below: the trace's "no process"
				return nil, fmt.Errorf("ids: %d is outside [%d, %d]", id, sim.MinID, sim.MaxID)
			}
			if seen[id] {
				return nil, fmt.Errorf("ids: %d appears twice", id)
			}
			seen[id] = true
		}
		ids = slices.Clone(s.IDs)
	} else {
		if s.N < 1 {
			return nil, fmt.Errorf("n must be at least 1, got %d", s.N)
		}
		if s.N > MaxN {
			return nil, fmt.Errorf("n=%d is more than the %d processes dsim simulates", s.N, MaxN)
		}
		first, last := int64(s.First), int64(s.First)+int64(s.N)-1
		if first < int64(sim.MinID) || last > int64(sim.MaxID) {
			return nil, fmt.Errorf("ids %d..%d reach outside [%d, %d]", first, last, sim.MinID, sim.MaxID)
		}
		ids = make([]sim.NodeID, s.N)
		for i := range ids {
			ids[i] = sim.NodeID(first + int64(i))
		}
	}
	if s.Shuffle {
		r := sim.Stream(s.Seed, "ids", 0)
		r.Shuffle(len(ids), func(a, b int) { ids[a], ids[b] = ids[b], ids[a] })
	}
	return ids, nil
}

// buildEdges makes an explicit undirected graph. The processes are the
// given ids, or First..First+N-1 when N is given, or else every id the edges
// name, in increasing order.
func buildEdges(s Spec) (Graph, error) {
	if len(s.Edges) == 0 {
		return Graph{}, fmt.Errorf("topology edges: no edges given")
	}
	if len(s.IDs) == 0 && s.N == 0 {
		seen := map[sim.NodeID]bool{}
		for _, e := range s.Edges {
			for _, id := range e {
				if !seen[id] {
					seen[id] = true
					s.IDs = append(s.IDs, id)
				}
			}
		}
		slices.Sort(s.IDs)
	}
	ids, err := assignIDs(s)
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
		if !slices.Contains(adj[a], b) {
			adj[a] = append(adj[a], b)
			adj[b] = append(adj[b], a)
		}
	}
	return Graph{Topology: sim.Topology{Name: "edges", IDs: ids, Adj: adj}, Kind: "edges"}, nil
}
