package spacetime

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"dsim/core/trace"
	"dsim/wasm/replay"
)

// messages makes a trace of m messages between n processes with latencies
// 1..maxLat, plus a crash and recovery of process 1 and a few state
// changes; events are in time order as a kernel writes them.
func messages(n, m int, maxLat int64, seed uint64) *trace.World {
	rng := rand.New(rand.NewPCG(seed, 2))
	type ev struct {
		e   trace.Event
		ord int
	}
	var evs []ev
	add := func(e trace.Event) { evs = append(evs, ev{e, len(evs)}) }
	for k := range m {
		t := int64(k / 2)
		from, to := 1+rng.IntN(n), 1+rng.IntN(n)
		id := uint64(k + 1)
		add(trace.Event{T: t, Type: trace.Send, Node: from, From: from, To: to, Kind: "M", MsgID: id})
		add(trace.Event{T: t + 1 + rng.Int64N(maxLat), Type: trace.Deliver, Node: to, From: from, To: to, Kind: "M", MsgID: id})
		if k%100 == 0 {
			add(trace.Event{T: t, Type: trace.State, Node: from, Key: "role", New: "candidate"})
		}
	}
	add(trace.Event{T: 10, Type: trace.Crash, Node: 1})
	add(trace.Event{T: 20, Type: trace.Recover, Node: 1})
	sort.SliceStable(evs, func(a, b int) bool { return evs[a].e.T < evs[b].e.T })
	w := &trace.World{Header: trace.Header{World: 1, Topology: "complete"}}
	for i := 1; i <= n; i++ {
		w.Header.IDs = append(w.Header.IDs, i)
	}
	for i, x := range evs {
		x.e.Seq = uint64(i)
		w.Events = append(w.Events, x.e)
	}
	return w
}

func deliveries(w *trace.World) int {
	n := 0
	for _, e := range w.Events {
		if e.Type == trace.Deliver {
			n++
		}
	}
	return n
}

func countM(path string) int { return strings.Count(path, "M") }

func TestFitDrawsEveryArrow(t *testing.T) {
	w := messages(5, 300, 8, 1)
	d := New(replay.New(w, 0))
	v := d.Fit(40, 800, 20, 300)
	dr := d.Draw(&v, &Marks{Cursor: len(w.Events), Selected: -1})
	want := deliveries(w)
	if dr.Arrowed != want || d.Arrows() != want {
		t.Fatalf("drew %d arrows (diagram has %d), want %d", dr.Arrowed, d.Arrows(), want)
	}
	drawn := 0
	for s := range NumStyles {
		drawn += countM(dr.Arrows[s])
	}
	if drawn != want || countM(dr.Arrows[Done]) != want {
		t.Errorf("path segments %d (done %d), want %d all done", drawn, countM(dr.Arrows[Done]), want)
	}
	if countM(dr.Heads[Done]) != want {
		t.Errorf("%d arrowheads, want %d", countM(dr.Heads[Done]), want)
	}
	if len(dr.Rows) != 5 || countM(dr.Lifelines) != 5 {
		t.Errorf("rows %d, lifelines %d", len(dr.Rows), countM(dr.Lifelines))
	}
	if countM(dr.Downtime) != 1 || countM(dr.Marks[MarkCrash]) != 2 || countM(dr.Marks[MarkRecover]) != 1 {
		t.Errorf("downtime %q crash %q recover %q", dr.Downtime, dr.Marks[MarkCrash], dr.Marks[MarkRecover])
	}
	// every coordinate stays inside the plot
	for _, tick := range dr.Ticks {
		if tick.X < 40 || tick.X > 840 {
			t.Errorf("tick %v outside the plot", tick)
		}
	}
}

// When zoomed in, exactly the arrows that cross the window are drawn.
func TestZoomedDrawsOnlyVisibleArrows(t *testing.T) {
	w := messages(6, 2000, 30, 2)
	r := replay.New(w, 0)
	d := New(r)
	v := Viewport{T0: 300, Scale: 10, Left: 50, Width: 500, Top: 20, Height: 400, RowH: 40}
	t0, t1 := v.T(v.Left), v.T(v.Left+v.Width)
	want := 0
	for _, f := range r.Flights {
		if f.End >= 0 && float64(w.Events[f.End].T) >= t0 && float64(w.Events[f.Send].T) <= t1 {
			want++
		}
	}
	dr := d.Draw(&v, &Marks{Cursor: len(w.Events), Selected: -1})
	if dr.Arrowed != want || want == 0 || want > 500 {
		t.Errorf("drew %d arrows, want the %d crossing [%g, %g]", dr.Arrowed, want, t0, t1)
	}
	if want >= d.Arrows() {
		t.Errorf("the window should hold a fraction of the %d arrows", d.Arrows())
	}
}

func TestStylesFollowCursorAndSelection(t *testing.T) {
	b := []trace.Event{
		{T: 0, Type: trace.Send, Node: 1, From: 1, To: 2, Kind: "A", MsgID: 1},
		{T: 1, Type: trace.Send, Node: 3, From: 3, To: 1, Kind: "B", MsgID: 2},
		{T: 2, Type: trace.Deliver, Node: 2, From: 1, To: 2, Kind: "A", MsgID: 1},
		{T: 3, Type: trace.Send, Node: 2, From: 2, To: 3, Kind: "C", MsgID: 3},
		{T: 5, Type: trace.Deliver, Node: 1, From: 3, To: 1, Kind: "B", MsgID: 2},
		{T: 6, Type: trace.Deliver, Node: 3, From: 2, To: 3, Kind: "C", MsgID: 3},
	}
	for i := range b {
		b[i].Seq = uint64(i)
	}
	w := &trace.World{Header: trace.Header{IDs: []int{1, 2, 3}, Topology: "complete"}, Events: b}
	r := replay.New(w, 0)
	d := New(r)
	v := d.Fit(0, 600, 0, 120)
	// cursor after event 2: A done, B in flight, C later
	dr := d.Draw(&v, &Marks{Cursor: 3, Selected: -1})
	if countM(dr.Arrows[Done]) != 1 || countM(dr.Arrows[InFlight]) != 1 || countM(dr.Arrows[Later]) != 1 {
		t.Errorf("cursor styles: done %d inflight %d later %d", countM(dr.Arrows[Done]), countM(dr.Arrows[InFlight]), countM(dr.Arrows[Later]))
	}
	// select the delivery of A: A is selected, C (sent after it at 2) is
	// in its future, B is concurrent
	past, future := r.Causal(2)
	dr = d.Draw(&v, &Marks{Cursor: 6, Selected: 2, Past: past, Future: future})
	if countM(dr.Arrows[Selected]) != 1 || countM(dr.Arrows[Future]) != 1 || countM(dr.Arrows[Dim]) != 1 {
		t.Errorf("selection styles: selected %d future %d dim %d", countM(dr.Arrows[Selected]), countM(dr.Arrows[Future]), countM(dr.Arrows[Dim]))
	}
	// select the send of C: A is in its past
	past, future = r.Causal(3)
	dr = d.Draw(&v, &Marks{Cursor: 6, Selected: 3, Past: past, Future: future})
	if countM(dr.Arrows[Past]) != 1 || countM(dr.Arrows[Selected]) != 1 {
		t.Errorf("past %d selected %d", countM(dr.Arrows[Past]), countM(dr.Arrows[Selected]))
	}
	// rings: the send of C itself; A's send and delivery before it; C's
	// delivery after it; B (send and delivery) is concurrent
	if countM(dr.Selected) != 1 || countM(dr.ConePast) != 2 || countM(dr.ConeFuture) != 1 {
		t.Errorf("rings: selected %d past %d future %d", countM(dr.Selected), countM(dr.ConePast), countM(dr.ConeFuture))
	}
}

func TestHit(t *testing.T) {
	b := []trace.Event{
		{T: 0, Type: trace.Send, Node: 1, From: 1, To: 2, Kind: "A", MsgID: 1},
		{T: 10, Type: trace.Deliver, Node: 2, From: 1, To: 2, Kind: "A", MsgID: 1},
		{T: 10, Type: trace.Timer, Node: 1, Tag: "T"},
	}
	for i := range b {
		b[i].Seq = uint64(i)
	}
	d := New(replay.New(&trace.World{Header: trace.Header{IDs: []int{1, 2}}, Events: b}, 0))
	v := Viewport{T0: 0, Scale: 10, Left: 0, Width: 200, Top: 0, Height: 100, RowH: 50}
	// rows at y=25 and y=75
	cases := []struct {
		x, y float64
		want int
		ok   bool
	}{
		{0, 25, 0, true},    // the send
		{101, 74, 1, true},  // the delivery
		{99, 27, 2, true},   // the timer
		{50, 50, 1, true},   // the arrow's middle: its delivery
		{50, 10, 0, false},  // nowhere near
		{150, 75, 0, false}, // on the lifeline, after everything
	}
	for _, c := range cases {
		got, ok := d.Hit(&v, c.x, c.y)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("Hit(%g, %g) = %d %v, want %d %v", c.x, c.y, got, ok, c.want, c.ok)
		}
	}
}

func TestTicksAreRoundAndSpaced(t *testing.T) {
	for _, scale := range []float64{0.01, 0.37, 1, 3, 55, 400} {
		v := Viewport{T0: 0, Scale: scale, Width: 1000}
		ts := ticks(&v, 0, v.T(1000))
		if len(ts) < 2 {
			t.Errorf("scale %g: %d ticks", scale, len(ts))
			continue
		}
		gap := ts[1].X - ts[0].X
		step := gap / scale
		if gap < 60-1e-9 || gap > 150+1e-9 && step > 1 {
			t.Errorf("scale %g: ticks %g px apart", scale, gap)
		}
		mant := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9))
		if math.Abs(mant-1) > 1e-9 && math.Abs(mant-2) > 1e-9 && math.Abs(mant-5) > 1e-9 {
			t.Errorf("scale %g: step %g is not 1, 2 or 5 times a power of ten", scale, step)
		}
		for _, tk := range ts {
			if f, _ := strconv.ParseFloat(tk.Label, 64); math.Abs(math.Mod(f, step)) > 1e-9 {
				t.Errorf("scale %g: label %q is not a multiple of the step %g", scale, tk.Label, step)
			}
		}
	}
}

func TestZoomKeepsTimeUnderPointer(t *testing.T) {
	d := New(replay.New(messages(3, 100, 5, 3), 0))
	v := d.Fit(30, 600, 0, 200)
	before := v.T(200)
	d.ZoomAt(&v, 3, 200)
	if math.Abs(v.T(200)-before) > 1e-9 {
		t.Errorf("time under the pointer moved from %g to %g", before, v.T(200))
	}
	for range 100 {
		d.ZoomAt(&v, 0.5, 200)
	}
	if v.Scale < v.Width/(float64(d.EndT)*4)-1e-12 {
		t.Errorf("zoomed out without bound: scale %g", v.Scale)
	}
}

func BenchmarkDrawFit10k(b *testing.B) {
	w := messages(16, 10000, 20, 4)
	d := New(replay.New(w, 0))
	v := d.Fit(60, 1000, 20, 400)
	m := &Marks{Cursor: len(w.Events) / 2, Selected: -1}
	b.ResetTimer()
	for range b.N {
		d.Draw(&v, m)
	}
}

func BenchmarkDrawZoomed10k(b *testing.B) {
	w := messages(16, 10000, 20, 4)
	d := New(replay.New(w, 0))
	v := d.Fit(60, 1000, 20, 400)
	d.ZoomAt(&v, 20, 500)
	m := &Marks{Cursor: len(w.Events) / 2, Selected: -1}
	b.ResetTimer()
	for range b.N {
		d.Draw(&v, m)
	}
}

func TestFitRows(t *testing.T) {
	few := New(replay.New(messages(6, 10, 3, 5), 0))
	if v := few.Fit(0, 500, 0, 120); v.RowH != 20 || few.RowsHeight(&v) > 120 {
		t.Errorf("6 rows in 120 px: row height %g", v.RowH)
	}
	many := New(replay.New(messages(40, 10, 3, 5), 0))
	if v := many.Fit(0, 500, 0, 120); v.RowH != 22 {
		t.Errorf("40 rows in 120 px: row height %g, want 22 and scrolling", v.RowH)
	}
}

func TestRevealMovesOnlyTheAxisOutOfSight(t *testing.T) {
	d := New(replay.New(messages(10, 400, 3, 6), 0))
	v := Viewport{T0: 0, Scale: 10, Left: 40, Width: 400, Top: 20, Height: 100, RowH: 22}
	// an event in the first rows at an early time: nothing moves
	i := 0
	for d.R.NodeOf(i) < 0 || d.R.NodeOf(i) > 2 || d.R.Events[i].T > 30 {
		i++
	}
	before := v
	d.Reveal(&v, i)
	if v != before {
		t.Errorf("an event in sight moved the view: %+v", v)
	}
	// an event in the last row, early: only the rows scroll
	for i = 0; d.R.NodeOf(i) != 9 || d.R.Events[i].T > 30; i++ {
	}
	d.Reveal(&v, i)
	if v.T0 != before.T0 || v.Y0 == 0 {
		t.Errorf("last row: T0 %g Y0 %g", v.T0, v.Y0)
	}
	if y := v.Y(9); y < v.Top || y > v.Top+v.Height {
		t.Errorf("row 10 at y=%g, outside the plot", y)
	}
	// a late event: time moves to centre it
	last := len(d.R.Events) - 1
	d.Reveal(&v, last)
	if x := v.X(float64(d.R.Events[last].T)); math.Abs(x-(v.Left+v.Width/2)) > 1e-9 {
		t.Errorf("late event at x=%g, want the middle", x)
	}
}
