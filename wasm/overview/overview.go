// Package overview condenses a whole run into a small grid for the strip
// above the space-time diagram past a few dozen processes: time runs along
// the columns, the processes, in the diagram's row order, are grouped into
// bands of consecutive rows, and each cell counts the events that fall in
// it. The strip shades the cells by count, marks the failed checks, and
// maps a click on a cell back to a time and a row.
//
// It is plain Go over trace events, with no dependency on the page or on
// a replay, so that it is tested natively and can run wherever a trace is.
package overview

import (
	"math"

	"dsim/core/trace"
)

// Scale places times along the strip: Frac is where time t is, from 0
// (the left edge) to 1 (the right), and Time is its inverse. It must be
// increasing.
type Scale interface {
	Frac(t float64) float64
	Time(f float64) float64
}

// Linear is the scale of times T0 to T1 inclusive, evenly: the span holds
// T1 itself, so that the last time has room and T0 == T1 is no division
// by zero.
type Linear struct{ T0, T1 int64 }

func (l Linear) span() float64          { return float64(max(l.T1-l.T0, 0) + 1) }
func (l Linear) Frac(t float64) float64 { return (t - float64(l.T0)) / l.span() }
func (l Linear) Time(f float64) float64 { return float64(l.T0) + f*l.span() }

// Grid is the count of a run's events per band of rows and column of time.
type Grid struct {
	Rows, Bands, Cols int
	Scale             Scale
	Counts            []int32 // by band*Cols + col
	Max               int32   // the largest count
	// Fails are the columns holding a failed check, ascending, each once.
	Fails []int
}

// Build counts events into at most bands bands of rows (as many as there
// are rows when fewer) and cols columns of time, placed by scale. rowOf
// is an event's process's row, from 0 to rows-1, or -1 for an event at no
// process (the scenario's checks and logs), which only a failed check's
// tick shows. Events outside the scale count in the nearest column.
// Events come in time order, as in a trace.
//
// It is one pass over the events with two allocations, for it runs over
// whole traces in WebAssembly.
func Build(events []trace.Event, rowOf func(node int) int, rows int, scale Scale, bands, cols int) *Grid {
	return BuildEach((&trace.World{Events: events}).Each, rowOf, rows, scale, bands, cols)
}

// BuildEach is Build over the events each hands its function in order, as
// trace.World.Each does for a world kept as a compact recording.
func BuildEach(each func(func(*trace.Event)), rowOf func(node int) int, rows int, scale Scale, bands, cols int) *Grid {
	cols = max(cols, 1)
	g := &Grid{Rows: max(rows, 0), Bands: min(max(bands, 1), max(rows, 0)), Cols: cols, Scale: scale}
	g.Counts = make([]int32, g.Bands*cols)
	each(func(e *trace.Event) {
		c := g.Col(e.T)
		if e.Type == trace.Check && !e.Pass {
			if n := len(g.Fails); n == 0 || g.Fails[n-1] != c {
				g.Fails = append(g.Fails, c)
			}
		}
		if e.Node == trace.NoNode {
			return
		}
		r := rowOf(e.Node)
		if r < 0 || r >= g.Rows {
			return
		}
		k := g.BandOf(r)*cols + c
		g.Counts[k]++
		g.Max = max(g.Max, g.Counts[k])
	})
	return g
}

// X is where time t falls along the columns, from 0 to Cols: the column
// of t is its integer part.
func (g *Grid) X(t float64) float64 { return g.Scale.Frac(t) * float64(g.Cols) }

// Col is the column of time t, kept inside the grid.
func (g *Grid) Col(t int64) int {
	return min(max(int(math.Floor(g.X(float64(t)))), 0), g.Cols-1)
}

// T is the time at x along the columns, the inverse of X.
func (g *Grid) T(x float64) float64 { return g.Scale.Time(x / float64(g.Cols)) }

// BandOf is the band that row r is in: the rows share the bands evenly, in
// order.
func (g *Grid) BandOf(r int) int { return r * g.Bands / g.Rows }

// RowsOf is the rows [lo, hi) of band b, the inverse of BandOf.
func (g *Grid) RowsOf(b int) (lo, hi int) {
	// the first row r with r*Bands/Rows >= b
	first := func(b int) int { return (b*g.Rows + g.Bands - 1) / g.Bands }
	return first(b), first(b + 1)
}

// Y is where row r starts along the bands, from 0 to Bands: rows are a
// fraction of a band each when there are more rows than bands.
func (g *Grid) Y(r int) float64 {
	if g.Rows == 0 {
		return 0
	}
	return float64(r) * float64(g.Bands) / float64(g.Rows)
}

// Level is the shade of count n out of levels: 0 for no event, up to
// levels-1 for the busiest cells, on a logarithmic scale so that the
// cells of a few events stand out from the empty ones next to a hot spot.
func (g *Grid) Level(n int32, levels int) int {
	if n <= 0 || g.Max <= 0 || levels < 2 {
		return 0
	}
	l := 1 + int(float64(levels-1)*math.Log1p(float64(n))/math.Log1p(float64(g.Max)))
	return min(l, levels-1)
}

// Paint fills an RGBA image of the grid, Cols pixels wide and Bands high,
// one pixel a cell (a canvas's ImageData, which the page stretches), with
// colours[l] where the cell's Level out of len(colours) is l. It reuses
// dst when it is large enough.
func (g *Grid) Paint(dst []byte, colours [][4]byte) []byte {
	n := 4 * g.Cols * g.Bands
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	for k, c := range g.Counts {
		copy(dst[4*k:4*k+4], colours[g.Level(c, len(colours))][:])
	}
	return dst
}
