// Package layout places a world's processes for the topology view, from the
// hints its trace header carries: rings and complete graphs on a circle in
// ring order, trees by level, grids by row, a star around its hub, a line
// left to right, and arbitrary graphs by a deterministic force layout.
//
// Coordinates are in the unit square, with a margin, so the view scales them
// to whatever size it draws at.
package layout

import (
	"math"

	"dsim/core/trace"
)

// Point is a position in the unit square.
type Point struct{ X, Y float64 }

// Edge joins two processes, by position in the node list.
type Edge struct {
	A, B     int
	Directed bool // a unidirectional ring's link, from A to B
}

// Layout is where each process goes, which links to draw, and how large.
type Layout struct {
	Pos   []Point
	Edges []Edge
	Size  Sizes
}

// Sizes is how large processes are drawn, in the unit square's coordinates.
type Sizes struct {
	Node   float64 // an ordinary process's radius
	Labels bool    // ordinary processes are large enough to carry their ids
	// Notable is the radius of a process the view points out (a leader, a
	// crashed or the selected one...): large enough for its id whatever
	// the count, so that it is found at a glance among hundreds of dots.
	Notable float64
}

// Crowd is the process count on a circle above which ordinary processes
// are unlabelled dots and only the notable ones carry their ids.
const Crowd = 30

const margin = 0.1

// MaxForce bounds the process count the force layout handles; beyond it the
// quadratic cost is not worth it and a circle is used.
const MaxForce = 300

// MaxCompleteEdges bounds the links drawn for a complete graph: beyond it
// the lines only hide the processes.
const MaxCompleteEdges = 24

// New lays out nodes (process ids: the header's in ring order, then any
// others) for the topology the header describes.
func New(h *trace.Header, nodes []int) Layout {
	pos := map[int]int{}
	for i, id := range nodes {
		pos[id] = i
	}
	l := Layout{Pos: make([]Point, len(nodes)), Edges: edges(h, pos)}
	l.Size = sizes(len(nodes), place(h, l.Pos, l.Edges))
	return l
}

// place puts the processes where the topology wants them and says how
// many went on the circle (none when another shape was used).
func place(h *trace.Header, p []Point, es []Edge) int {
	n := len(p)
	// Layouts by position in the header hold only when the events name no
	// other process; otherwise everything goes on the circle.
	m := len(h.IDs)
	switch h.Topology {
	case "star":
		if m > 0 {
			circle(p[1:])
			p[0] = Point{0.5, 0.5}
			return n - 1
		}
	case "line":
		for i := range p {
			p[i] = Point{margin + (1-2*margin)*frac(i, n), 0.5}
		}
		return 0
	case "grid":
		if h.Cols > 0 && m == n {
			grid(p, h.Cols)
			return 0
		}
	case "tree":
		if m == n {
			tree(p, max(h.Arity, 1))
			return 0
		}
	case "random", "edges":
		if n <= MaxForce {
			circle(p)
			force(p, es)
			return 0
		}
	}
	circle(p)
	return n
}

// sizes chooses the radii for n processes, c of them on the circle. The
// radius shrinks with the count; on the circle no process may reach its
// neighbour, and past Crowd ordinary processes are dots. Where ordinary
// processes are too small for their ids, notable ones are drawn larger.
func sizes(n, c int) Sizes {
	r := math.Max(0.012, math.Min(0.06, 0.3/math.Sqrt(float64(max(n, 1)))))
	if c > 1 {
		// apart by a fifth of the gap between neighbours' centres, which
		// the view's rounding to a tenth of its units does not close
		gap := 2 * (0.5 - margin) * math.Sin(math.Pi/float64(c))
		r = math.Min(r, 0.4*gap)
	}
	s := Sizes{Node: r, Labels: r >= 0.018, Notable: r}
	if c > Crowd {
		// past some 800, the floor keeps the dots visible, overlapping
		s.Node, s.Labels = math.Max(0.003, math.Min(r, 0.015)), false
	}
	if !s.Labels {
		s.Notable = math.Max(s.Node, 0.045)
	}
	return s
}

// frac spreads i over [0, 1] for n items (0.5 for one).
func frac(i, n int) float64 {
	if n <= 1 {
		return 0.5
	}
	return float64(i) / float64(n-1)
}

// circle places points clockwise from the top, in order.
func circle(p []Point) {
	r := 0.5 - margin
	for i := range p {
		a := 2*math.Pi*float64(i)/float64(len(p)) - math.Pi/2
		p[i] = Point{0.5 + r*math.Cos(a), 0.5 + r*math.Sin(a)}
	}
}

func grid(p []Point, cols int) {
	rows := (len(p) + cols - 1) / cols
	for i := range p {
		p[i] = Point{margin + (1-2*margin)*frac(i%cols, cols), margin + (1-2*margin)*frac(i/cols, rows)}
	}
}

// tree places a k-ary tree in heap order (the parent of i is (i-1)/k):
// leaves left to right in depth-first order, each parent centred over its
// children, one row per level.
func tree(p []Point, k int) {
	n := len(p)
	depth := make([]int, n)
	maxDepth := 0
	for i := 1; i < n; i++ {
		depth[i] = depth[(i-1)/k] + 1
		maxDepth = max(maxDepth, depth[i])
	}
	x := make([]float64, n)
	leaves := 0
	var walk func(i int)
	walk = func(i int) {
		first, last := k*i+1, min(k*i+k, n-1)
		if first >= n {
			x[i] = float64(leaves)
			leaves++
			return
		}
		for c := first; c <= last; c++ {
			walk(c)
		}
		x[i] = (x[first] + x[last]) / 2
	}
	if n > 0 {
		walk(0)
	}
	for i := range p {
		p[i] = Point{margin + (1-2*margin)*x[i]/math.Max(float64(leaves-1), 1), margin + (1-2*margin)*frac(depth[i], maxDepth+1)}
		if leaves == 1 {
			p[i].X = 0.5
		}
	}
}

// force runs a fixed number of Fruchterman-Reingold steps from the given
// positions, then fits the result to the unit square. Only arithmetic on the
// inputs is involved, so the layout is the same on every machine.
func force(p []Point, es []Edge) {
	n := len(p)
	if n < 3 {
		return
	}
	k := math.Sqrt(1 / float64(n))
	temp := 0.1
	d := make([]Point, n)
	for range 200 {
		clear(d)
		for i := range n {
			for j := i + 1; j < n; j++ {
				dx, dy := p[i].X-p[j].X, p[i].Y-p[j].Y
				dist := math.Max(math.Hypot(dx, dy), 1e-6)
				f := k * k / dist / dist
				d[i].X += dx * f
				d[i].Y += dy * f
				d[j].X -= dx * f
				d[j].Y -= dy * f
			}
		}
		for _, e := range es {
			dx, dy := p[e.A].X-p[e.B].X, p[e.A].Y-p[e.B].Y
			dist := math.Max(math.Hypot(dx, dy), 1e-6)
			f := dist / k
			d[e.A].X -= dx * f
			d[e.A].Y -= dy * f
			d[e.B].X += dx * f
			d[e.B].Y += dy * f
		}
		for i := range n {
			l := math.Max(math.Hypot(d[i].X, d[i].Y), 1e-9)
			step := math.Min(l, temp)
			p[i].X += d[i].X / l * step
			p[i].Y += d[i].Y / l * step
		}
		temp *= 0.98
	}
	fit(p)
}

// fit scales points into the unit square with the margin, keeping the
// aspect ratio.
func fit(p []Point) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range p {
		minX, maxX = math.Min(minX, q.X), math.Max(maxX, q.X)
		minY, maxY = math.Min(minY, q.Y), math.Max(maxY, q.Y)
	}
	span := math.Max(math.Max(maxX-minX, maxY-minY), 1e-9)
	s := (1 - 2*margin) / span
	ox := (1 - (maxX-minX)*s) / 2
	oy := (1 - (maxY-minY)*s) / 2
	for i := range p {
		p[i] = Point{ox + (p[i].X-minX)*s, oy + (p[i].Y-minY)*s}
	}
}

// edges lists the links to draw: the header's adjacency (null means a
// complete graph), each undirected link once.
func edges(h *trace.Header, pos map[int]int) []Edge {
	var out []Edge
	if h.Adj == nil {
		n := len(h.IDs)
		if n*(n-1)/2 > MaxCompleteEdges {
			return nil
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				out = append(out, Edge{A: pos[h.IDs[i]], B: pos[h.IDs[j]]})
			}
		}
		return out
	}
	directed := h.Topology == "ring"
	seen := map[[2]int]bool{}
	for i, nb := range h.Adj {
		if i >= len(h.IDs) {
			break
		}
		a := pos[h.IDs[i]]
		for _, id := range nb {
			b, ok := pos[id]
			if !ok || a == b {
				continue
			}
			key := [2]int{min(a, b), max(a, b)}
			if !directed {
				if seen[key] {
					continue
				}
				seen[key] = true
			}
			out = append(out, Edge{A: a, B: b, Directed: directed})
		}
	}
	return out
}

// SegmentDistance is the distance from (px, py) to the segment from
// (x0, y0) to (x1, y1).
func SegmentDistance(px, py, x0, y0, x1, y1 float64) float64 {
	dx, dy := x1-x0, y1-y0
	l2 := dx*dx + dy*dy
	k := 0.0
	if l2 > 0 {
		k = math.Max(0, math.Min(1, ((px-x0)*dx+(py-y0)*dy)/l2))
	}
	return math.Hypot(px-(x0+k*dx), py-(y0+k*dy))
}

// LinkAt finds the link passing closest to p, within reach (both in the
// unit square's coordinates).
func (l *Layout) LinkAt(p Point, reach float64) (int, bool) {
	best, bestD := -1, reach
	for k, e := range l.Edges {
		a, b := l.Pos[e.A], l.Pos[e.B]
		if d := SegmentDistance(p.X, p.Y, a.X, a.Y, b.X, b.Y); d < bestD {
			best, bestD = k, d
		}
	}
	return best, best >= 0
}
