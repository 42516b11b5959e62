package graph

import (
	"slices"
	"testing"

	"dsim/wasm/replay"
)

func TestWaits(t *testing.T) {
	// Item A (0): T1 and T2 share it, T3 waits for X, T4 for S behind it.
	// Item B (1): T5 holds X, T6 waits for S.
	locks := []int{0, 1, 1, 0, 2, 1, 0, 3, -2, 0, 4, -1, 1, 5, 2, 1, 6, -1}
	got := Waits(locks)
	want := []Wait{{3, 1, 0}, {3, 2, 0}, {4, 3, 0}, {6, 5, 1}}
	if !slices.Equal(got, want) {
		t.Errorf("Waits = %v, want %v (a shared waiter waits for the exclusive waiter ahead, not for the shared holders)", got, want)
	}
	// A holder upgrading waits for the other holders, not for itself.
	if got := Waits([]int{0, 1, 1, 0, 2, 1, 0, 1, -2}); !slices.Equal(got, []Wait{{1, 2, 0}}) {
		t.Errorf("upgrade: Waits = %v", got)
	}
}

func TestCycle(t *testing.T) {
	if c := Cycle([]Wait{{1, 2, 0}, {2, 3, 0}}); c != nil {
		t.Errorf("a chain has no cycle, got %v", c)
	}
	if c := Cycle([]Wait{{4, 2, 0}, {2, 3, 0}, {3, 4, 1}, {1, 2, 0}}); !slices.Equal(c, []int{2, 3, 4}) {
		t.Errorf("cycle = %v, want [2 3 4]", c)
	}
}

func TestWaitFor(t *testing.T) {
	kv := func(text string) []replay.KV { return []replay.KV{{Key: KeyLocks, Value: text}} }
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
	if ItemName(16) != "Q" || ItemName(27) != "B1" {
		t.Errorf("ItemName(16), ItemName(27) = %s, %s", ItemName(16), ItemName(27))
	}
}
