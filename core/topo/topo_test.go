package topo

import (
	"slices"
	"strings"
	"testing"

	"dsim/core/sim"
)

func build(t *testing.T, s Spec) Graph {
	t.Helper()
	if s.First == 0 && len(s.IDs) == 0 {
		s.First = 1
	}
	g, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// adjIDs renders the adjacency by id, for readable comparisons.
func adjIDs(g Graph) map[sim.NodeID][]sim.NodeID {
	out := map[sim.NodeID][]sim.NodeID{}
	for i, row := range g.Adj {
		out[g.IDs[i]] = []sim.NodeID{}
		for _, j := range row {
			out[g.IDs[i]] = append(out[g.IDs[i]], g.IDs[j])
		}
	}
	return out
}

func checkAdj(t *testing.T, g Graph, want map[sim.NodeID][]sim.NodeID) {
	t.Helper()
	got := adjIDs(g)
	if len(got) != len(want) {
		t.Fatalf("adjacency %v, want %v", got, want)
	}
	for id, w := range want {
		if !slices.Equal(got[id], w) {
			t.Fatalf("neighbours of %d: %v, want %v (all %v)", id, got[id], w, got)
		}
	}
}

type ids = []sim.NodeID

func TestRings(t *testing.T) {
	checkAdj(t, build(t, Spec{Kind: "ring", N: 4}), map[sim.NodeID][]sim.NodeID{1: {2}, 2: {3}, 3: {4}, 4: {1}})
	checkAdj(t, build(t, Spec{Kind: "biring", N: 4}), map[sim.NodeID][]sim.NodeID{1: {2, 4}, 2: {3, 1}, 3: {4, 2}, 4: {1, 3}})
	checkAdj(t, build(t, Spec{Kind: "biring", N: 2}), map[sim.NodeID][]sim.NodeID{1: {2}, 2: {1}})
	checkAdj(t, build(t, Spec{Kind: "ring", N: 1}), map[sim.NodeID][]sim.NodeID{1: {}})
}

func TestCompleteStarLine(t *testing.T) {
	if g := build(t, Spec{Kind: "complete", N: 5}); g.Adj != nil || len(g.IDs) != 5 {
		t.Fatalf("complete: %+v; the kernel reads nil adjacency as complete", g)
	}
	if g := build(t, Spec{N: 3}); g.Kind != "complete" {
		t.Fatalf("default kind %q", g.Kind)
	}
	checkAdj(t, build(t, Spec{Kind: "star", N: 4}), map[sim.NodeID][]sim.NodeID{1: {2, 3, 4}, 2: {1}, 3: {1}, 4: {1}})
	checkAdj(t, build(t, Spec{Kind: "line", N: 4}), map[sim.NodeID][]sim.NodeID{1: {2}, 2: {1, 3}, 3: {2, 4}, 4: {3}})
}

func TestTree(t *testing.T) {
	g := build(t, Spec{Kind: "tree", N: 13, Arity: 3})
	if g.Arity != 3 {
		t.Fatalf("arity hint %d", g.Arity)
	}
	for i := 1; i < 13; i++ {
		if parent := int32((i - 1) / 3); g.Adj[i][0] != parent {
			t.Errorf("first neighbour of index %d is %d, want its parent %d", i, g.Adj[i][0], parent)
		}
	}
	checkAdj(t, g, map[sim.NodeID][]sim.NodeID{
		1: {2, 3, 4}, 2: {1, 5, 6, 7}, 3: {1, 8, 9, 10}, 4: {1, 11, 12, 13},
		5: {2}, 6: {2}, 7: {2}, 8: {3}, 9: {3}, 10: {3}, 11: {4}, 12: {4}, 13: {4},
	})
	if g := build(t, Spec{Kind: "tree", N: 7}); g.Arity != 2 || !slices.Equal(g.Adj[0], []int32{1, 2}) {
		t.Fatalf("default arity: %+v", g)
	}
	if _, err := Build(Spec{Kind: "tree", N: 5, First: 1, Arity: -1}); err == nil {
		t.Fatal("arity -1 accepted")
	}
}

func TestGrid(t *testing.T) {
	g := build(t, Spec{Kind: "grid", N: 10, Cols: 4})
	// 1  2  3  4
	// 5  6  7  8
	// 9 10
	checkAdj(t, g, map[sim.NodeID][]sim.NodeID{
		1: {2, 5}, 2: {1, 3, 6}, 3: {2, 4, 7}, 4: {3, 8},
		5: {1, 6, 9}, 6: {2, 5, 7, 10}, 7: {3, 6, 8}, 8: {4, 7},
		9: {5, 10}, 10: {6, 9},
	})
	if g := build(t, Spec{Kind: "grid", N: 10}); g.Cols != 4 {
		t.Fatalf("default cols for 10: %d, want ceil(sqrt 10) = 4", g.Cols)
	}
	if _, err := Build(Spec{Kind: "grid", N: 4, First: 1, Cols: -2}); err == nil {
		t.Fatal("cols -2 accepted")
	}
}

func connected(g Graph) bool {
	seen := make([]bool, len(g.IDs))
	stack := []int32{0}
	seen[0] = true
	count := 1
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range g.Adj[i] {
			if !seen[j] {
				seen[j] = true
				count++
				stack = append(stack, j)
			}
		}
	}
	return count == len(g.IDs)
}

func edgeCount(t *testing.T, g Graph) int {
	t.Helper()
	m := 0
	for i, row := range g.Adj {
		if !slices.IsSorted(row) {
			t.Fatalf("row %d unsorted: %v", i, row)
		}
		for k, j := range row {
			if j == int32(i) || (k > 0 && row[k-1] == j) {
				t.Fatalf("row %d has a self-loop or a duplicate: %v", i, row)
			}
			if !slices.Contains(g.Adj[j], int32(i)) {
				t.Fatalf("edge %d-%d is one-way", i, j)
			}
		}
		m += len(row)
	}
	return m / 2
}

func TestRandomGraph(t *testing.T) {
	for seed := range uint64(30) {
		g := build(t, Spec{Kind: "random", N: 40, P: 0.05, Seed: seed})
		if !connected(g) {
			t.Fatalf("seed %d: not connected", seed)
		}
		edgeCount(t, g)
	}
	a := build(t, Spec{Kind: "random", N: 40, P: 0.1, Seed: 3})
	b := build(t, Spec{Kind: "random", N: 40, P: 0.1, Seed: 3})
	c := build(t, Spec{Kind: "random", N: 40, P: 0.1, Seed: 4})
	if !slices.EqualFunc(a.Adj, b.Adj, slices.Equal) {
		t.Fatal("one seed gave two graphs")
	}
	if slices.EqualFunc(a.Adj, c.Adj, slices.Equal) {
		t.Fatal("two seeds gave one graph")
	}
	if m := edgeCount(t, build(t, Spec{Kind: "random", N: 50, Seed: 1})); m != 49 {
		t.Fatalf("p=0: %d edges, want a spanning tree's 49", m)
	}
	if m := edgeCount(t, build(t, Spec{Kind: "random", N: 30, P: 1, Seed: 1})); m != 30*29/2 {
		t.Fatalf("p=1: %d edges, want all %d", m, 30*29/2)
	}
	for _, s := range []Spec{{Kind: "random", N: 5, P: 1.5}, {Kind: "random", N: 5, P: -0.1}, {Kind: "random", N: 9000, P: 0.01}} {
		s.First = 1
		if _, err := Build(s); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
}

func TestEdges(t *testing.T) {
	g := build(t, Spec{Kind: "edges", Edges: [][2]sim.NodeID{{7, 3}, {3, 9}, {9, 7}, {3, 7}}})
	if !slices.Equal(g.IDs, ids{3, 7, 9}) {
		t.Fatalf("ids %v, want the edges' ids in order", g.IDs)
	}
	checkAdj(t, g, map[sim.NodeID][]sim.NodeID{7: {3, 9}, 3: {7, 9}, 9: {3, 7}})

	g = build(t, Spec{Kind: "edges", N: 4, Edges: [][2]sim.NodeID{{1, 2}}})
	checkAdj(t, g, map[sim.NodeID][]sim.NodeID{1: {2}, 2: {1}, 3: {}, 4: {}})

	g = build(t, Spec{Kind: "edges", IDs: ids{5, 1, 3}, Edges: [][2]sim.NodeID{{1, 5}}})
	if !slices.Equal(g.IDs, ids{5, 1, 3}) {
		t.Fatalf("given ids %v not kept in ring order", g.IDs)
	}
	for name, s := range map[string]Spec{
		"no edges":   {Kind: "edges", N: 3},
		"unknown id": {Kind: "edges", IDs: ids{1, 2}, Edges: [][2]sim.NodeID{{1, 3}}},
		"outside n":  {Kind: "edges", N: 2, First: 1, Edges: [][2]sim.NodeID{{1, 3}}},
		"self-loop":  {Kind: "edges", Edges: [][2]sim.NodeID{{1, 2}, {2, 2}}},
	} {
		if _, err := Build(s); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestExplicitIDsRing builds the textbook ring 3,5,0,1,4,6 and walks it
// through the kernel's Neighbor.
func TestExplicitIDsRing(t *testing.T) {
	g := build(t, Spec{Kind: "ring", IDs: ids{3, 5, 0, 1, 4, 6}})
	if !slices.Equal(g.IDs, ids{3, 5, 0, 1, 4, 6}) {
		t.Fatalf("ids %v", g.IDs)
	}
	checkAdj(t, g, map[sim.NodeID][]sim.NodeID{3: {5}, 5: {0}, 0: {1}, 1: {4}, 4: {6}, 6: {3}})
	ctxs := map[sim.NodeID]sim.Context{}
	s, err := sim.New(sim.Config{Topology: g.Topology, Link: sim.DefaultLink, Factory: func(id sim.NodeID) sim.Node {
		return &probe{ctxs: ctxs}
	}})
	if err != nil {
		t.Fatal(err)
	}
	s.Run(sim.Until{})
	var walk ids
	for id, k := sim.NodeID(3), 0; k < 7; k++ {
		walk = append(walk, id)
		if nb := ctxs[id].Neighbors(); len(nb) != 1 || nb[0] != ctxs[id].Neighbor(1) {
			t.Fatalf("Neighbors of %d = %v, Neighbor(1) = %d", id, nb, ctxs[id].Neighbor(1))
		}
		id = ctxs[id].Neighbor(1)
	}
	if !slices.Equal(walk, ids{3, 5, 0, 1, 4, 6, 3}) {
		t.Fatalf("walk %v", walk)
	}
	if got := ctxs[3].Neighbor(-1); got != 6 {
		t.Fatalf("predecessor of 3: %d", got)
	}
}

type probe struct{ ctxs map[sim.NodeID]sim.Context }

func (p *probe) Start(ctx sim.Context)                        { p.ctxs[ctx.Self()] = ctx }
func (p *probe) Receive(sim.Context, sim.NodeID, sim.Message) {}
func (p *probe) Timer(sim.Context, string)                    {}
func (p *probe) Command(sim.Context, string, sim.Args) error  { return nil }

func TestShuffledIDs(t *testing.T) {
	a := build(t, Spec{Kind: "ring", N: 20, Shuffle: true, Seed: 5})
	b := build(t, Spec{Kind: "ring", N: 20, Shuffle: true, Seed: 5})
	c := build(t, Spec{Kind: "ring", N: 20, Shuffle: true, Seed: 6})
	if !slices.Equal(a.IDs, b.IDs) {
		t.Fatal("one seed, two orders")
	}
	if slices.Equal(a.IDs, c.IDs) {
		t.Fatal("two seeds, one order")
	}
	sorted := slices.Sorted(slices.Values(a.IDs))
	for i, id := range sorted {
		if id != sim.NodeID(i+1) {
			t.Fatalf("shuffled ids %v are not a permutation of 1..20", a.IDs)
		}
	}
	if slices.IsSorted(a.IDs) {
		t.Fatal("not shuffled")
	}
	g := build(t, Spec{Kind: "ring", IDs: ids{10, 20, 30, 40, 50}, Shuffle: true, Seed: 1})
	if slices.Equal(g.IDs, ids{10, 20, 30, 40, 50}) || !slices.Equal(slices.Sorted(slices.Values(g.IDs)), ids{10, 20, 30, 40, 50}) {
		t.Fatalf("shuffling an explicit list gave %v", g.IDs)
	}
	if g, _ := Build(Spec{Kind: "line", N: 3, First: 0}); !slices.Equal(g.IDs, ids{0, 1, 2}) {
		t.Fatalf("ids from 0: %v", g.IDs)
	}
}

func TestBuildErrors(t *testing.T) {
	for name, c := range map[string]struct {
		s    Spec
		want string
	}{
		"unknown kind":   {Spec{Kind: "torus"}, `unknown topology "torus"`},
		"n zero":         {Spec{Kind: "ring"}, "n must be at least 1"},
		"n negative":     {Spec{Kind: "ring", N: -3}, "n must be at least 1"},
		"n too large":    {Spec{Kind: "ring", N: MaxN + 1}, "more than"},
		"duplicate id":   {Spec{Kind: "ring", IDs: ids{1, 2, 1}}, "appears twice"},
		"n vs ids":       {Spec{Kind: "ring", N: 4, IDs: ids{1, 2, 3}}, "n=4 but 3 ids"},
		"id range":       {Spec{Kind: "ring", IDs: ids{1, -1 << 31}}, "outside"},
		"first overflow": {Spec{Kind: "ring", N: 10, First: 1<<31 - 5}, "outside"},
	} {
		_, err := Build(c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
}

// Every listed kind builds.
func TestKindsAllBuild(t *testing.T) {
	for _, k := range Kinds {
		s := Spec{Kind: k.Name, N: 6, First: 1}
		if k.Name == "edges" {
			s.Edges = [][2]sim.NodeID{{1, 2}}
		}
		g, err := Build(s)
		if err != nil || len(g.IDs) != 6 || g.Kind != k.Name {
			t.Errorf("%s: %+v, %v", k.Name, g, err)
		}
	}
}

// TestBuildAllocsDoNotGrowWithN: the adjacency lists of the sparse
// topologies share one backing array (a million-process ring used to cost a
// million allocations).
func TestBuildAllocsDoNotGrowWithN(t *testing.T) {
	for _, kind := range []string{"ring", "biring", "star", "line", "tree", "grid", "random"} {
		allocs := testing.AllocsPerRun(2, func() {
			if _, err := Build(Spec{Kind: kind, N: 20000}); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 32 {
			t.Errorf("%s of 20000: %.0f allocations", kind, allocs)
		}
	}
}

// BenchmarkBuildRing builds the shuffled million-process ring of the
// Chang-Roberts benchmark.
func BenchmarkBuildRing(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(Spec{Kind: "ring", N: 1_000_000, First: 1, Shuffle: true, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
