package spacetime

import (
	"math"
	"math/rand/v2"
	"slices"
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

// drawn counts the arrows (or their heads) drawn in style s, over every
// kind for the coloured styles.
func drawn(dr *Drawing, s Style, heads bool) int {
	pick := func(p Paths) string {
		if heads {
			return p.Heads
		}
		return p.Arrows
	}
	n := countM(pick(Paths{dr.Arrows[s], dr.Heads[s]}))
	if s < NumColoured {
		for _, k := range dr.ByKind {
			n += countM(pick(k[s]))
		}
	}
	return n
}

// script makes a world of processes 1..n from events in time order.
func script(n int, b []trace.Event) *replay.Replay {
	w := &trace.World{Header: trace.Header{Topology: "complete"}, Events: b}
	for i := range b {
		b[i].Seq = uint64(i)
	}
	for i := 1; i <= n; i++ {
		w.Header.IDs = append(w.Header.IDs, i)
	}
	return replay.New(w, 0)
}

func TestFitDrawsEveryArrow(t *testing.T) {
	w := messages(5, 300, 8, 1)
	d := New(replay.New(w, 0))
	v := d.Fit(40, 800, 20, 300)
	dr := d.Draw(&v, &Marks{Cursor: len(w.Events), Selected: -1})
	want := deliveries(w)
	if dr.Arrowed != want || d.Arrows() != want {
		t.Fatalf("drew %d arrows (diagram has %d), want %d", dr.Arrowed, d.Arrows(), want)
	}
	all := 0
	for s := range NumStyles {
		all += drawn(dr, s, false)
	}
	if all != want || drawn(dr, Done, false) != want {
		t.Errorf("path segments %d (done %d), want %d all done", all, drawn(dr, Done, false), want)
	}
	if drawn(dr, Done, true) != want {
		t.Errorf("%d arrowheads, want %d", drawn(dr, Done, true), want)
	}
	if len(dr.Rows) != 5 || countM(dr.Lifelines) != 5 {
		t.Errorf("rows %d, lifelines %d", len(dr.Rows), countM(dr.Lifelines))
	}
	if crashed := string(dr.Lanes[NumLanes-1]); countM(crashed) != 1 || countM(dr.Marks[MarkCrash]) != 2 || countM(dr.Marks[MarkRecover]) != 1 {
		t.Errorf("crashed %q crash %q recover %q", crashed, dr.Marks[MarkCrash], dr.Marks[MarkRecover])
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
		{T: 6, Type: trace.Check, Node: trace.NoNode, Text: "a check", Pass: true},
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
	if drawn(dr, Done, false) != 1 || drawn(dr, InFlight, false) != 1 || drawn(dr, Later, false) != 1 {
		t.Errorf("cursor styles: done %d inflight %d later %d", drawn(dr, Done, false), drawn(dr, InFlight, false), drawn(dr, Later, false))
	}
	// each in its kind's colour: A (kind 0) done, B (kind 1) in flight
	if countM(dr.ByKind[0][Done].Arrows) != 1 || countM(dr.ByKind[1][InFlight].Arrows) != 1 {
		t.Errorf("by kind: %+v", dr.ByKind)
	}
	// select the delivery of A: A is selected, C (sent after it at 2) is
	// in its future, B is concurrent
	past, future := r.Causal(2)
	dr = d.Draw(&v, &Marks{Cursor: 6, Selected: 2, Past: past, Future: future})
	if countM(dr.Arrows[Selected]) != 1 || countM(dr.Arrows[Future]) != 1 || countM(dr.Arrows[Dim]) != 1 {
		t.Errorf("selection styles: selected %d future %d dim %d", countM(dr.Arrows[Selected]), countM(dr.Arrows[Future]), countM(dr.Arrows[Dim]))
	}
	// the causal cone is highlighted over the kinds' colours
	if drawn(dr, Done, false)+drawn(dr, InFlight, false) != 0 {
		t.Errorf("a selection left arrows in their kind's colour: %+v", dr.ByKind)
	}
	// a selected event at no process (a check) has no cone: the arrows
	// keep their cursor styles rather than all dim
	if p, f := r.Causal(len(b) - 1); p != nil || f != nil {
		t.Fatalf("the check has a causal cone")
	}
	dr = d.Draw(&v, &Marks{Cursor: 3, Selected: len(b) - 1})
	if countM(dr.Arrows[Dim]) != 0 || drawn(dr, Done, false) != 1 || drawn(dr, InFlight, false) != 1 {
		t.Errorf("selecting a check: dim %d, done %d, in flight %d", countM(dr.Arrows[Dim]), drawn(dr, Done, false), drawn(dr, InFlight, false))
	}
	// select the send of C: A is in its past
	past, future = r.Causal(3)
	dr = d.Draw(&v, &Marks{Cursor: 6, Selected: 3, Past: past, Future: future})
	if countM(dr.Arrows[Past]) != 1 || countM(dr.Arrows[Selected]) != 1 {
		t.Errorf("past %d selected %d", countM(dr.Arrows[Past]), countM(dr.Arrows[Selected]))
	}
	// rings: the send of C itself; A's send and delivery before it; C's
	// delivery after it; B (send and delivery) is concurrent
	if countM(dr.Selected) != 1 || countM(dr.ConePast) != 2 || countM(dr.ConeFuture) != 1 || countM(dr.ConeConcurrent) != 2 {
		t.Errorf("rings: selected %d past %d future %d concurrent %d", countM(dr.Selected), countM(dr.ConePast), countM(dr.ConeFuture), countM(dr.ConeConcurrent))
	}
	// with nothing selected, nothing is concurrent
	dr = d.Draw(&v, &Marks{Cursor: 6, Selected: -1})
	if dr.ConeConcurrent != "" || dr.ConePast != "" {
		t.Errorf("no selection, yet marks: past %q concurrent %q", dr.ConePast, dr.ConeConcurrent)
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
	if v.T0 != before.T0 || v.Y0 != before.Y0 || v.Scale != before.Scale {
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

// Kinds take their palette entries in order of their first send, the same
// for every indexing of the world, and the coloured styles are drawn per
// kind.
func TestKindsInOrderOfFirstSend(t *testing.T) {
	b := []trace.Event{
		{T: 0, Type: trace.Send, Node: 1, From: 1, To: 2, Kind: "OK", MsgID: 1},
		{T: 1, Type: trace.Send, Node: 2, From: 2, To: 1, Kind: "ELECTION", MsgID: 2},
		{T: 2, Type: trace.Deliver, Node: 2, From: 1, To: 2, Kind: "OK", MsgID: 1},
		{T: 2, Type: trace.Send, Node: 1, From: 1, To: 2, Kind: "OK", MsgID: 3},
		{T: 3, Type: trace.Send, Node: 1, From: 1, To: 2, Kind: "COORDINATOR", MsgID: 4},
		{T: 4, Type: trace.Deliver, Node: 1, From: 2, To: 1, Kind: "ELECTION", MsgID: 2},
		{T: 5, Type: trace.Deliver, Node: 2, From: 1, To: 2, Kind: "OK", MsgID: 3},
		{T: 6, Type: trace.Deliver, Node: 2, From: 1, To: 2, Kind: "COORDINATOR", MsgID: 4},
	}
	r := script(2, b)
	want := []KindStyle{{"OK", 0, 0}, {"ELECTION", 1, 0}, {"COORDINATOR", 2, 0}}
	for range 3 {
		d := New(r)
		if got := d.Kinds(); !slices.Equal(got, want) {
			t.Fatalf("kinds %+v, want %+v", got, want)
		}
		for f, fl := range r.Flights {
			if k := d.KindOf(f); d.Kinds()[k].Kind != fl.Kind {
				t.Errorf("flight %d of kind %q has kind %d", f, fl.Kind, k)
			}
		}
		v := d.Fit(0, 600, 0, 100)
		dr := d.Draw(&v, &Marks{Cursor: len(b), Selected: -1})
		for k, n := range []int{2, 1, 1} {
			if got := countM(dr.ByKind[k][Done].Arrows); got != n || countM(dr.ByKind[k][Done].Heads) != n {
				t.Errorf("%s: %d arrows, %d heads, want %d", want[k].Kind, got, countM(dr.ByKind[k][Done].Heads), n)
			}
		}
		if dr.Arrows[Done] != "" || dr.Arrows[InFlight] != "" {
			t.Errorf("coloured styles drawn without their kind: %q %q", dr.Arrows[Done], dr.Arrows[InFlight])
		}
	}
}

// Beyond the palette, kinds take its colours again with another dash
// pattern, so that up to Palette*NumDashes kinds no two look alike.
func TestKindStylesDistinctBeyondPalette(t *testing.T) {
	var b []trace.Event
	n := Palette*NumDashes + 3
	for k := range n {
		b = append(b, trace.Event{T: int64(k), Type: trace.Send, Node: 1, From: 1, To: 2, Kind: "K" + strconv.Itoa(k), MsgID: uint64(k + 1)})
	}
	kinds := New(script(2, b)).Kinds()
	if len(kinds) != n {
		t.Fatalf("%d kinds, want %d", len(kinds), n)
	}
	seen := map[[2]int]string{}
	for k, ks := range kinds {
		if ks.Kind != "K"+strconv.Itoa(k) || ks.Colour < 0 || ks.Colour >= Palette || ks.Dash < 0 || ks.Dash >= NumDashes {
			t.Fatalf("kind %d: %+v", k, ks)
		}
		look := [2]int{ks.Colour, ks.Dash}
		if other, ok := seen[look]; ok && k < Palette*NumDashes {
			t.Errorf("%s looks like %s: %+v", ks.Kind, other, ks)
		}
		seen[look] = ks.Kind
	}
	if kinds[Palette] != (KindStyle{"K" + strconv.Itoa(Palette), 0, 1}) {
		t.Errorf("the first kind beyond the palette: %+v", kinds[Palette])
	}
}

// Labels name long arrows only, never overlap, skip the faint styles and
// are capped.
func TestLabels(t *testing.T) {
	b := []trace.Event{
		{T: 0, Type: trace.Send, Node: 1, From: 1, To: 2, Kind: "LONG", MsgID: 1},
		{T: 0, Type: trace.Send, Node: 1, From: 1, To: 2, Kind: "SHORT", MsgID: 2},
		{T: 1, Type: trace.Deliver, Node: 2, From: 1, To: 2, Kind: "SHORT", MsgID: 2},
		{T: 50, Type: trace.Deliver, Node: 2, From: 1, To: 2, Kind: "LONG", MsgID: 1},
		{T: 60, Type: trace.Send, Node: 2, From: 2, To: 1, Kind: "LATER", MsgID: 3},
		{T: 100, Type: trace.Deliver, Node: 1, From: 2, To: 1, Kind: "LATER", MsgID: 3},
	}
	d := New(script(2, b))
	// rows at y=25 and y=75; 2 px a time unit: LONG is ~120 px long,
	// SHORT ~50 px
	v := Viewport{T0: 0, Scale: 2, Left: 0, Width: 400, Top: 0, Height: 100, RowH: 50}
	dr := d.Draw(&v, &Marks{Cursor: 4, Selected: -1})
	if len(dr.Labels) != 1 || d.Kinds()[dr.Labels[0].Kind].Kind != "LONG" || dr.Labels[0].Style != Done {
		t.Fatalf("labels %+v, want LONG's alone", dr.Labels)
	}
	if l := dr.Labels[0]; math.Abs(l.X-50) > 1e-9 || math.Abs(l.Y-50) > 1e-9 {
		t.Errorf("label at (%g, %g), want the midpoint (50, 50)", l.X, l.Y)
	}
	// with the cursor at the end, LATER is labelled too
	if dr := d.Draw(&v, &Marks{Cursor: len(b), Selected: -1}); len(dr.Labels) != 2 {
		t.Errorf("labels %+v, want LONG and LATER", dr.Labels)
	}

	// a steep arrow at the plot's right edge: its name is moved inside
	edge := New(script(4, []trace.Event{
		{T: 0, Type: trace.Send, Node: 1, From: 1, To: 4, Kind: "EDGE", MsgID: 1},
		{T: 1, Type: trace.Deliver, Node: 4, From: 1, To: 4, Kind: "EDGE", MsgID: 1},
	}))
	v = Viewport{T0: -99, Scale: 1, Left: 0, Width: 100, Top: 0, Height: 200, RowH: 50}
	dr = edge.Draw(&v, &Marks{Cursor: 2, Selected: -1})
	if w := 4*LabelCharW + 4; len(dr.Labels) != 1 || math.Abs(dr.Labels[0].X-(100-w/2)) > 1e-9 || dr.Labels[0].Y != 100 {
		t.Errorf("labels %+v, want one ending at the plot's edge", dr.Labels)
	}

	// a big diagram: never more than MaxLabels, none over another
	w := messages(8, 5000, 40, 7)
	big := New(replay.New(w, 0))
	v = big.Fit(40, 2000, 20, 1000)
	big.ZoomAt(&v, 8, 1000)
	dr = big.Draw(&v, &Marks{Cursor: len(w.Events), Selected: -1})
	// (the window holds more long arrows than that)
	if len(dr.Labels) != MaxLabels {
		t.Fatalf("%d labels, want %d", len(dr.Labels), MaxLabels)
	}
	const lw = LabelCharW + 4 // "M" is one character
	for i, a := range dr.Labels {
		if a.X-lw/2 < v.Left || a.X+lw/2 > v.Left+v.Width || a.Y < v.Top || a.Y > v.Top+v.Height {
			t.Errorf("label %+v outside the plot", a)
		}
		for _, o := range dr.Labels[:i] {
			if math.Abs(a.X-o.X) < lw && math.Abs(a.Y-o.Y) < LabelH {
				t.Errorf("labels %+v and %+v overlap", a, o)
			}
		}
	}
}
