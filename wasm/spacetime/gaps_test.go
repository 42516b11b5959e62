package spacetime

import (
	"math"
	"strconv"
	"testing"

	"dsim/core/trace"
	"dsim/wasm/replay"
)

// idle is a run of two processes exchanging a message a tick from t=0 to
// 10, silent until a message at t=99, then busy again to t=110: one gap,
// 10..99.
func idle() *Diagram {
	d := idleRun()
	d.Collapse = true
	return d
}

// linearFit is the viewport d.Fit gives without collapsing.
func (d *Diagram) linearFit() Viewport {
	d.Collapse = false
	defer func() { d.Collapse = true }()
	return d.Fit(40, 800, 20, 300)
}

func idleRun() *Diagram {
	w := &trace.World{Header: trace.Header{World: 1, Topology: "complete", IDs: []int{1, 2}}}
	id := uint64(0)
	msg := func(t int64) {
		id++
		w.Events = append(w.Events,
			trace.Event{T: t, Type: trace.Send, Node: 1, From: 1, To: 2, Kind: "M", MsgID: id},
			trace.Event{T: t + 1, Type: trace.Deliver, Node: 2, From: 1, To: 2, Kind: "M", MsgID: id})
	}
	for t := int64(0); t < 10; t++ {
		msg(t)
	}
	for t := int64(99); t < 110; t++ {
		msg(t)
	}
	// a check of the scenario, in the gap but at no process: not drawn,
	// it does not split the gap
	w.Events = append(w.Events, trace.Event{T: 50, Type: trace.Check, Node: trace.NoNode, Pass: true})
	// the kernel writes events in time order
	for i := range w.Events {
		for j := i; j > 0 && w.Events[j].T < w.Events[j-1].T; j-- {
			w.Events[j], w.Events[j-1] = w.Events[j-1], w.Events[j]
		}
	}
	for i := range w.Events {
		w.Events[i].Seq = uint64(i)
	}
	return New(replay.New(w, 0))
}

func TestGapsAreTheLongIdleStretches(t *testing.T) {
	d := idle()
	if g := d.Gaps(); len(g) != 1 || g[0] != (Gap{10, 99}) {
		t.Fatalf("gaps %v, want [{10 99}]", g)
	}
}

func TestCollapsedGapIsNarrowAndKeepsOrder(t *testing.T) {
	d := idle()
	v := d.Fit(40, 800, 20, 300)
	if !v.Collapsed() {
		t.Fatal("not collapsed")
	}
	before, after := v.X(10), v.X(99)
	if math.Abs(after-before-GapW) > 1e-9 {
		t.Errorf("gap drawn %g px wide, want %g", after-before, GapW)
	}
	// every event keeps its order, and the run still fits the plot
	for tm := 0.0; tm < 110; tm++ {
		if v.X(tm+1) <= v.X(tm) {
			t.Errorf("x(%g) = %g not before x(%g) = %g", tm, v.X(tm), tm+1, v.X(tm+1))
		}
	}
	if x := v.X(float64(d.EndT)); math.Abs(x-(40+800-12)) > 1e-6 {
		t.Errorf("the run ends at x=%g, want %g", x, 40+800-12.0)
	}
	if x := v.X(0); math.Abs(x-(40+12)) > 1e-6 {
		t.Errorf("the run begins at x=%g, want %g", x, 40+12.0)
	}
	// outside the gap, time is linear: the busy stretches are wider than
	// linear time over the whole run would draw them
	lin := d.linearFit()
	if lin.Collapsed() || math.Abs(lin.X(99)-lin.X(10)-89*lin.Scale) > 1e-9 {
		t.Errorf("not collapsed: the gap is %g px, want %g", lin.X(99)-lin.X(10), 89*lin.Scale)
	}
	if v.X(10)-v.X(0) <= lin.X(10)-lin.X(0) {
		t.Errorf("collapsing did not widen the busy stretch: %g px, linear %g", v.X(10)-v.X(0), lin.X(10)-lin.X(0))
	}
}

func TestCollapsedRoundTrips(t *testing.T) {
	d := idle()
	v := d.Fit(40, 800, 20, 300)
	for _, zoom := range []float64{1, 3, 0.2} {
		d.ZoomAt(&v, zoom, 300)
		for x := 0.0; x < 900; x += 7 {
			if got := v.X(v.T(x)); math.Abs(got-x) > 1e-6 {
				t.Fatalf("zoom %g: X(T(%g)) = %g", zoom, x, got)
			}
		}
		for tm := -5.0; tm < 120; tm += 0.5 {
			if got := v.T(v.X(tm)); math.Abs(got-tm) > 1e-6 {
				t.Fatalf("zoom %g: T(X(%g)) = %g", zoom, tm, got)
			}
		}
	}
	// zooming keeps the time under the pointer there, in the gap too
	v = d.Fit(40, 800, 20, 300)
	x := (v.X(10) + v.X(99)) / 2
	tm := v.T(x)
	d.ZoomAt(&v, 1.5, x)
	if got := v.X(tm); math.Abs(got-x) > 1e-6 {
		t.Errorf("zoom moved t=%g from x=%g to %g", tm, x, got)
	}
	// panning by dx moves everything dx to the left
	x0 := v.X(5)
	v.Pan(30)
	if got := v.X(5); math.Abs(got-(x0-30)) > 1e-6 {
		t.Errorf("pan 30: x %g, want %g", got, x0-30)
	}
}

func TestCollapsedTicksAndBreaks(t *testing.T) {
	d := idle()
	v := d.Fit(40, 800, 20, 300)
	out := d.Draw(&v, &Marks{Cursor: len(d.R.Events), Selected: -1})
	gaps := 0
	for _, tk := range out.Ticks {
		if tk.Gap {
			gaps++
			if tk.Label != "≈89" || math.Abs(tk.X-(v.X(10)+v.X(99))/2) > 1e-6 {
				t.Errorf("gap label %q at %g", tk.Label, tk.X)
			}
			continue
		}
		if l := (v.X(10) + v.X(99)) / 2; math.Abs(tk.X-l) < gapLabelRoom {
			t.Errorf("tick %q at %g, over the gap's label at %g", tk.Label, tk.X, l)
		}
		tm, err := strconv.ParseFloat(tk.Label, 64)
		if err != nil || tm > 10 && tm < 99 {
			t.Errorf("tick %q inside the collapsed gap", tk.Label)
		}
		if math.Abs(v.X(tm)-tk.X) > 1e-6 {
			t.Errorf("tick %q at x=%g, want %g", tk.Label, tk.X, v.X(tm))
		}
	}
	if gaps != 1 || out.Breaks == "" {
		t.Errorf("%d gap labels, break mark %q", gaps, out.Breaks)
	}
	// hit testing and arrows follow the mapping: the first event after
	// the gap is found at its mark
	i := 0
	for d.R.Events[i].T < 99 {
		i++
	}
	if got, ok := d.Hit(&v, v.X(99), v.Y(d.R.NodeOf(i))); !ok || d.R.Events[got].T != 99 {
		t.Errorf("hit at t=99: %d %v", got, ok)
	}
	// linear time draws no break
	lin := d.linearFit()
	if out := d.Draw(&lin, &Marks{Cursor: 0, Selected: -1}); out.Breaks != "" {
		t.Errorf("linear time has breaks %q", out.Breaks)
	}
	// zoomed out until the gap is narrower than GapW, it is drawn linear
	v.Scale = 0.2
	if w := v.X(99) - v.X(10); math.Abs(w-89*v.Scale) > 1e-9 || w >= GapW {
		t.Errorf("zoomed out: gap %g px, want %g", w, 89*v.Scale)
	}
}
