package layout

import (
	"math"
	"reflect"
	"testing"

	"dsim/core/trace"
)

func ids(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

func near(a, b Point) bool { return math.Abs(a.X-b.X) < 1e-9 && math.Abs(a.Y-b.Y) < 1e-9 }

func TestRingIsACircleInRingOrder(t *testing.T) {
	h := &trace.Header{Topology: "ring", IDs: []int{3, 5, 0, 1}, Adj: [][]int{{5}, {0}, {1}, {3}}}
	l := New(h, h.IDs)
	want := []Point{{0.5, 0.1}, {0.9, 0.5}, {0.5, 0.9}, {0.1, 0.5}} // clockwise from the top
	for i, p := range want {
		if !near(l.Pos[i], p) {
			t.Errorf("process %d at %v, want %v", h.IDs[i], l.Pos[i], p)
		}
	}
	wantEdges := []Edge{{0, 1, true}, {1, 2, true}, {2, 3, true}, {3, 0, true}}
	if !reflect.DeepEqual(l.Edges, wantEdges) {
		t.Errorf("edges %v, want %v", l.Edges, wantEdges)
	}
}

func TestBiringLinksOnce(t *testing.T) {
	h := &trace.Header{Topology: "biring", IDs: ids(3), Adj: [][]int{{2, 3}, {3, 1}, {1, 2}}}
	l := New(h, h.IDs)
	if len(l.Edges) != 3 {
		t.Errorf("edges %v, want 3 undirected", l.Edges)
	}
	for _, e := range l.Edges {
		if e.Directed {
			t.Errorf("biring edge %v is directed", e)
		}
	}
}

func TestCompleteGraphEdgesOnlyWhenFew(t *testing.T) {
	small := &trace.Header{Topology: "complete", IDs: ids(4)}
	if got := len(New(small, small.IDs).Edges); got != 6 {
		t.Errorf("complete 4: %d edges, want 6", got)
	}
	big := &trace.Header{Topology: "complete", IDs: ids(20)}
	if got := len(New(big, big.IDs).Edges); got != 0 {
		t.Errorf("complete 20: %d edges drawn, want none", got)
	}
}

func TestTreeByLevel(t *testing.T) {
	h := &trace.Header{Topology: "tree", IDs: ids(7), Arity: 2}
	p := New(h, h.IDs).Pos
	// levels: {0}, {1,2}, {3,4,5,6}
	if !(p[0].Y < p[1].Y && p[1].Y == p[2].Y && p[2].Y < p[3].Y && p[3].Y == p[6].Y) {
		t.Errorf("levels wrong: %v", p)
	}
	if math.Abs(p[0].X-0.5) > 1e-9 || math.Abs(p[1].X-(p[3].X+p[4].X)/2) > 1e-9 {
		t.Errorf("parents not centred over their children: %v", p)
	}
	for i := 3; i < 6; i++ {
		if !(p[i].X < p[i+1].X) {
			t.Errorf("leaves out of order: %v", p[3:])
		}
	}
}

func TestGridByRows(t *testing.T) {
	h := &trace.Header{Topology: "grid", IDs: ids(7), Cols: 3}
	p := New(h, h.IDs).Pos
	if p[4].X != p[1].X || p[4].Y != p[3].Y || !(p[3].Y > p[0].Y) || p[6].X != p[0].X {
		t.Errorf("grid positions %v", p)
	}
}

func TestStarHubInTheCentre(t *testing.T) {
	h := &trace.Header{Topology: "star", IDs: ids(5)}
	p := New(h, h.IDs).Pos
	if !near(p[0], Point{0.5, 0.5}) {
		t.Errorf("hub at %v", p[0])
	}
	for _, q := range p[1:] {
		if d := math.Hypot(q.X-0.5, q.Y-0.5); math.Abs(d-0.4) > 1e-9 {
			t.Errorf("leaf %v at distance %g", q, d)
		}
	}
}

func TestLineLeftToRight(t *testing.T) {
	h := &trace.Header{Topology: "line", IDs: ids(3)}
	p := New(h, h.IDs).Pos
	want := []Point{{0.1, 0.5}, {0.5, 0.5}, {0.9, 0.5}}
	for i := range want {
		if !near(p[i], want[i]) {
			t.Errorf("line %v, want %v", p, want)
		}
	}
}

func TestForceLayoutDeterministicAndSpread(t *testing.T) {
	// two triangles joined by one link
	h := &trace.Header{Topology: "edges", IDs: ids(6), Adj: [][]int{{2, 3}, {1, 3}, {1, 2, 4}, {3, 5, 6}, {4, 6}, {4, 5}}}
	a, b := New(h, h.IDs), New(h, h.IDs)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("force layout differs between runs")
	}
	p := a.Pos
	for i := range p {
		if p[i].X < 0 || p[i].X > 1 || p[i].Y < 0 || p[i].Y > 1 {
			t.Errorf("process %d outside the square: %v", i+1, p[i])
		}
		for j := i + 1; j < len(p); j++ {
			if math.Hypot(p[i].X-p[j].X, p[i].Y-p[j].Y) < 0.05 {
				t.Errorf("processes %d and %d overlap", i+1, j+1)
			}
		}
	}
	dist := func(i, j int) float64 { return math.Hypot(p[i].X-p[j].X, p[i].Y-p[j].Y) }
	// linked processes end up closer than the far ends of the two triangles
	if !(dist(0, 1) < dist(0, 5) && dist(4, 5) < dist(1, 4)) {
		t.Errorf("force layout does not pull linked processes together: %v", p)
	}
}

func TestExtraProcessesFallBackToCircle(t *testing.T) {
	h := &trace.Header{Topology: "grid", IDs: ids(4), Cols: 2}
	l := New(h, []int{1, 2, 3, 4, 9})
	if len(l.Pos) != 5 || !near(l.Pos[0], Point{0.5, 0.1}) {
		t.Errorf("positions %v", l.Pos)
	}
}

func TestLinkAt(t *testing.T) {
	h := &trace.Header{Topology: "line", IDs: ids(3), Adj: [][]int{{2}, {1, 3}, {2}}}
	l := New(h, h.IDs)
	// the line runs along y=0.5: 1 at x=0.1, 2 at 0.5, 3 at 0.9
	cases := []struct {
		p    Point
		want int
		ok   bool
	}{
		{Point{0.3, 0.51}, 0, true},
		{Point{0.7, 0.49}, 1, true},
		{Point{0.3, 0.6}, 0, false}, // out of reach
		{Point{0.95, 0.5}, 1, true}, // past the end, within reach of it
	}
	for _, c := range cases {
		got, ok := l.LinkAt(c.p, 0.06)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("LinkAt(%v) = %d %v, want %d %v", c.p, got, ok, c.want, c.ok)
		}
	}
	if d := SegmentDistance(0, 1, -1, 0, 1, 0); d != 1 {
		t.Errorf("distance to the middle of a segment: %g", d)
	}
	if d := SegmentDistance(4, 4, 0, 0, 1, 0); math.Abs(d-5) > 1e-12 {
		t.Errorf("distance to an end: %g", d)
	}
}

func TestCrowdedRingDotsAndNotables(t *testing.T) {
	for _, n := range []int{50, 200} {
		h := &trace.Header{Topology: "ring", IDs: ids(n)}
		l := New(h, h.IDs)
		s := l.Size
		if s.Labels {
			t.Errorf("n=%d: ordinary processes labelled", n)
		}
		if s.Notable < 2*s.Node || s.Notable < 0.03 {
			t.Errorf("n=%d: notable radius %g beside %g", n, s.Notable, s.Node)
		}
		for i := range l.Pos {
			for j := i + 1; j < n; j++ {
				if d := math.Hypot(l.Pos[i].X-l.Pos[j].X, l.Pos[i].Y-l.Pos[j].Y); d <= 2*s.Node {
					t.Fatalf("n=%d: processes %d and %d overlap (%g apart, radius %g)", n, i+1, j+1, d, s.Node)
				}
			}
		}
	}
	// a small ring keeps labelled processes, as large as they were
	h := &trace.Header{Topology: "ring", IDs: ids(5)}
	if s := New(h, h.IDs).Size; !s.Labels || s.Node != 0.06 || s.Notable != s.Node {
		t.Errorf("n=5: sizes %+v", s)
	}
}
