package graph

import (
	"slices"
	"testing"

	"dsim/core/algo/txn"
	"dsim/wasm/replay"
)

func TestWaitFor(t *testing.T) {
	kv := func(text string) []replay.KV { return []replay.KV{{Key: txn.KeyLocks, Value: text}} }
	// S1 holds A for T1, T2 waits for it; S2 holds B for T2, T1 waits.
	v := &replay.View{State: [][]replay.KV{kv("[0,1,2,0,2,-2]"), kv("[1,2,2,1,1,-1]"), nil}}
	g, ok := WaitFor(v)
	if !ok || len(g.Nodes) != 2 || g.Nodes[0].Label != "T1" || g.Nodes[1].Label != "T2" {
		t.Fatalf("WaitFor = %+v, %v", g, ok)
	}
	if !slices.Equal(g.Cycle, []string{"T1", "T2"}) || len(g.Edges) != 2 || !g.Edges[0].Cycle || !g.Edges[1].Cycle {
		t.Errorf("the deadlock is not marked: %+v", g)
	}
	if g.Edges[0].Label != "A" || g.Edges[1].Label != "B" {
		t.Errorf("edge labels %q, %q, want A, B", g.Edges[0].Label, g.Edges[1].Label)
	}
	if _, ok := WaitFor(&replay.View{State: [][]replay.KV{nil}}); ok {
		t.Error("a world without lock tables has no wait-for graph")
	}
}

// The seed's example (Silberschatz, "Fully Distributed Approach"): S1's
// augmented graph Pex -> T2 -> T3 -> Pex, with T1 -> T2 besides.
func TestAugmented(t *testing.T) {
	v := &replay.View{State: [][]replay.KV{{{Key: "augmented", Value: "[1,2,2,3,3,0,0,2]"}}, nil}}
	gs := Augmented(v, []int{1, 2})
	if len(gs) != 1 || gs[0].Title != "S1" {
		t.Fatalf("Augmented = %+v", gs)
	}
	g := gs[0]
	if len(g.Nodes) != 4 || g.Nodes[0].Label != "Pex" || !slices.Equal(g.Cycle, []string{"Pex", "T2", "T3"}) {
		t.Errorf("S1: %+v", g)
	}
	for _, e := range g.Edges {
		if want := g.Nodes[e.From].Label != "T1"; e.Cycle != want {
			t.Errorf("edge %s -> %s: on the cycle %v, want %v", g.Nodes[e.From].Label, g.Nodes[e.To].Label, e.Cycle, want)
		}
	}
}
