package overview

import (
	"math"
	"slices"
	"testing"

	"dsim/core/trace"
)

// at is an event at process node (trace.NoNode: none) at time t.
func at(t int64, node int) trace.Event { return trace.Event{T: t, Type: trace.Send, Node: node} }

// identity makes process n row n.
func identity(n int) int { return n }

// count is cell (band, col)'s count.
func count(g *Grid, band, col int) int32 { return g.Counts[band*g.Cols+col] }

func TestBuildCounts(t *testing.T) {
	// 10 processes in 5 bands of 2, times 0..99 in 10 columns of 10
	events := []trace.Event{at(0, 0), at(5, 1), at(9, 1), at(10, 2), at(55, 9), at(99, 8), at(99, 9), at(99, 9)}
	g := Build(events, identity, 10, Linear{0, 99}, 5, 10)
	if g.Bands != 5 || g.Cols != 10 || len(g.Counts) != 50 {
		t.Fatalf("grid %d×%d with %d cells", g.Bands, g.Cols, len(g.Counts))
	}
	want := map[[2]int]int32{{0, 0}: 3, {1, 1}: 1, {4, 5}: 1, {4, 9}: 3}
	var total int32
	for b := range g.Bands {
		for c := range g.Cols {
			if n := count(g, b, c); n != want[[2]int{b, c}] {
				t.Errorf("cell band %d col %d: %d events, want %d", b, c, n, want[[2]int{b, c}])
			}
			total += count(g, b, c)
		}
	}
	if total != int32(len(events)) || g.Max != 3 {
		t.Errorf("%d events counted, max %d; want %d, 3", total, g.Max, len(events))
	}
}

func TestBuildRowOrderAndOutside(t *testing.T) {
	// rows in another order than the ids, and events before t0, after t1,
	// at no process and at a process with no row
	rowOf := func(n int) int {
		switch n {
		case 7:
			return 0
		case 3:
			return 1
		}
		return -1
	}
	events := []trace.Event{at(-5, 3), at(12, 7), at(500, 3), at(15, trace.NoNode), at(15, 4)}
	g := Build(events, rowOf, 2, Linear{10, 19}, 40, 5)
	if g.Bands != 2 {
		t.Fatalf("%d bands for 2 rows, want 2", g.Bands)
	}
	for _, c := range []struct {
		band, col int
		want      int32
	}{{1, 0, 1}, {0, 1, 1}, {1, 4, 1}} {
		if n := count(g, c.band, c.col); n != c.want {
			t.Errorf("band %d col %d: %d, want %d (%v)", c.band, c.col, n, c.want, g.Counts)
		}
	}
	if g.Max != 1 {
		t.Errorf("max %d, want 1: the unplaced events do not count", g.Max)
	}
}

func TestFails(t *testing.T) {
	check := func(t int64, pass bool) trace.Event {
		return trace.Event{T: t, Type: trace.Check, Node: trace.NoNode, Pass: pass}
	}
	events := []trace.Event{check(1, false), check(2, false), check(30, true), check(55, false), at(60, 0), check(99, false)}
	g := Build(events, identity, 1, Linear{0, 99}, 40, 10)
	if want := []int{0, 5, 9}; !slices.Equal(g.Fails, want) {
		t.Errorf("fails in columns %v, want %v", g.Fails, want)
	}
	if g.Max != 1 || count(g, 0, 6) != 1 {
		t.Errorf("the checks counted in a band: %v", g.Counts)
	}
}

func TestEmptyAndDegenerate(t *testing.T) {
	g := Build(nil, identity, 0, Linear{0, 0}, 40, 100)
	if g.Bands != 0 || len(g.Counts) != 0 || g.Max != 0 {
		t.Errorf("empty world: %+v", g)
	}
	if img := g.Paint(nil, [][4]byte{{}, {}}); len(img) != 0 {
		t.Errorf("empty world painted %d bytes", len(img))
	}

	// one process, every event at time 5: t0 == t1
	g = Build([]trace.Event{at(5, 0), at(5, 0)}, identity, 1, Linear{5, 5}, 40, 8)
	if g.Bands != 1 || g.Col(5) != 0 || count(g, 0, 0) != 2 {
		t.Errorf("one process at one time: %d bands, col %d, counts %v", g.Bands, g.Col(5), g.Counts)
	}
	if x := g.X(5); x != 0 {
		t.Errorf("X(5) = %v, want 0", x)
	}

	// no columns asked for: one
	if g = Build([]trace.Event{at(3, 0)}, identity, 1, Linear{0, 9}, 1, 0); g.Cols != 1 || g.Counts[0] != 1 {
		t.Errorf("cols 0: %+v", g)
	}
}

func TestMapping(t *testing.T) {
	g := Build(nil, identity, 200, Linear{0, 999}, 40, 100)
	if g.Bands != 40 {
		t.Fatalf("%d bands", g.Bands)
	}
	for _, c := range []struct {
		t    int64
		col  int
		back float64 // T(col)
	}{{0, 0, 0}, {9, 0, 0}, {10, 1, 10}, {999, 99, 990}, {2000, 99, 990}, {-3, 0, 0}} {
		if col := g.Col(c.t); col != c.col || g.T(float64(col)) != c.back {
			t.Errorf("t=%d: col %d back to %v, want %d, %v", c.t, col, g.T(float64(col)), c.col, c.back)
		}
	}
	// every row is in the band that maps back to it
	for r := range 200 {
		b := g.BandOf(r)
		if lo, hi := g.RowsOf(b); r < lo || r >= hi || hi-lo != 5 {
			t.Errorf("row %d in band %d of rows [%d, %d)", r, b, lo, hi)
		}
	}
	// uneven: 7 rows in 3 bands
	g = Build(nil, identity, 7, Linear{0, 9}, 3, 10)
	next := 0
	for b := range 3 {
		lo, hi := g.RowsOf(b)
		if lo != next || hi <= lo {
			t.Errorf("band %d: rows [%d, %d), want from %d", b, lo, hi, next)
		}
		for r := lo; r < hi; r++ {
			if g.BandOf(r) != b {
				t.Errorf("row %d: band %d, want %d", r, g.BandOf(r), b)
			}
		}
		next = hi
	}
	if next != 7 {
		t.Errorf("the bands end at row %d, want 7", next)
	}
	if y := g.Y(7); y != 3 {
		t.Errorf("Y(7) = %v, want 3", y)
	}
}

// squeezed is a scale of times 0 to 100 whose idle stretch from 10 to 90
// takes a tenth of the width, as the diagram collapses a gap.
type squeezed struct{}

func (squeezed) Frac(t float64) float64 {
	switch {
	case t < 10:
		return t / 10 * 0.45
	case t < 90:
		return 0.45 + (t-10)/80*0.1
	}
	return 0.55 + (t-90)/10*0.45
}

func (squeezed) Time(f float64) float64 {
	switch {
	case f < 0.45:
		return f / 0.45 * 10
	case f < 0.55:
		return 10 + (f-0.45)/0.1*80
	}
	return 90 + (f-0.55)/0.45*10
}

func TestScale(t *testing.T) {
	events := []trace.Event{at(1, 0), at(50, 0), at(89, 0), at(95, 0)}
	g := Build(events, identity, 1, squeezed{}, 40, 20)
	// columns of 0.05 of the width: t=1 at 0.045, 50 at 0.5, 89 at 0.549,
	// 95 at 0.775
	for _, c := range []struct{ col, n int }{{0, 1}, {10, 2}, {15, 1}} {
		if got := count(g, 0, c.col); got != int32(c.n) {
			t.Errorf("column %d: %d events, want %d (%v)", c.col, got, c.n, g.Counts)
		}
	}
	if x := g.X(50); x != 10 {
		t.Errorf("X(50) = %v, want 10", x)
	}
	if tm := g.T(10); math.Abs(tm-50) > 1e-9 {
		t.Errorf("T(10) = %v, want 50", tm)
	}
}

func TestLevelsAndPaint(t *testing.T) {
	// band 0: 1, 1, 0, 100 events; band 1: 100 in the first column
	var events []trace.Event
	events = append(events, at(0, 0), at(1, 0))
	for range 100 {
		events = append(events, at(3, 0), at(0, 1))
	}
	g := Build(events, identity, 2, Linear{0, 3}, 2, 4)
	if g.Level(0, 4) != 0 || g.Level(1, 4) != 1 || g.Level(100, 4) != 3 || g.Level(10, 4) != 2 {
		t.Errorf("levels of 0, 1, 10, 100: %d %d %d %d", g.Level(0, 4), g.Level(1, 4), g.Level(10, 4), g.Level(100, 4))
	}
	// the pixels, a band a line
	colours := [][4]byte{{0, 0, 0, 0}, {1, 1, 1, 255}, {2, 2, 2, 255}, {3, 3, 3, 255}}
	img := g.Paint(make([]byte, 3), colours)
	var got []byte
	for k := 0; k < len(img); k += 4 {
		got = append(got, img[k])
	}
	if want := []byte{1, 1, 0, 3, 3, 0, 0, 0}; len(img) != 4*8 || !slices.Equal(got, want) {
		t.Errorf("%d bytes, cells of shades %v, want 32, %v", len(img), got, want)
	}
	if again := g.Paint(img, colours); &again[0] != &img[0] {
		t.Error("Paint did not reuse a buffer large enough")
	}
}

func BenchmarkBuild(b *testing.B) {
	events := make([]trace.Event, 100_000)
	for i := range events {
		events[i] = at(int64(i/10), i%500)
	}
	b.ReportAllocs()
	for b.Loop() {
		Build(events, identity, 500, Linear{0, 10_000}, 40, 256)
	}
}
