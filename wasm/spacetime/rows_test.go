package spacetime

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/trace"
)

// quietRun is n processes of which few do anything: 3 sends to 7 (t=0..5),
// 10's timer fires at t=20, 16 sends to 18 (t=30..90) and 12 to 15
// (t=100..110).
func quietRun(n int) *Diagram {
	return New(script(n, []trace.Event{
		{T: 0, Type: trace.Send, Node: 3, From: 3, To: 7, Kind: "A", MsgID: 1},
		{T: 5, Type: trace.Deliver, Node: 7, From: 3, To: 7, Kind: "A", MsgID: 1},
		{T: 20, Type: trace.Timer, Node: 10, Tag: "T"},
		{T: 30, Type: trace.Send, Node: 16, From: 16, To: 18, Kind: "A", MsgID: 2},
		{T: 90, Type: trace.Deliver, Node: 18, From: 16, To: 18, Kind: "A", MsgID: 2},
		{T: 100, Type: trace.Send, Node: 12, From: 12, To: 15, Kind: "A", MsgID: 3},
		{T: 110, Type: trace.Deliver, Node: 15, From: 12, To: 15, Kind: "A", MsgID: 3},
	}))
}

// rowNames names a drawing's rows: "P3" for a process, "…2" for a marker
// of two folded ones.
func rowNames(dr *Drawing) []string {
	var out []string
	for _, r := range dr.Rows {
		if r.Quiet > 0 {
			out = append(out, fmt.Sprint("…", r.Quiet))
		} else {
			out = append(out, fmt.Sprint("P", r.Node))
		}
	}
	return out
}

// window is a viewport onto times t0..t0+25 tall enough for every row.
func window(t0 float64) Viewport {
	return Viewport{T0: t0, Scale: 10, Width: 250, Height: 1000, RowH: 20}
}

func TestFoldKeepsTheRowsActiveInView(t *testing.T) {
	d := quietRun(30)
	d.Fold = true
	for _, c := range []struct {
		t0       float64
		selected int
		want     []string
	}{
		{0, -1, []string{"…2", "P3", "…3", "P7", "…2", "P10", "…20"}},
		// the arrow crosses the window with no event in it
		{50, -1, []string{"…15", "P16", "…1", "P18", "…12"}},
		// a selected delivery keeps its process and its sender
		{0, 6, []string{"…2", "P3", "…3", "P7", "…2", "P10", "…1", "P12", "…2", "P15", "…15"}},
	} {
		v := window(c.t0)
		d.Layout(&v, c.selected)
		if got := rowNames(d.Draw(&v, &Marks{Cursor: 7, Selected: -1})); !slices.Equal(got, c.want) {
			t.Errorf("t0=%g selected %d: rows %v, want %v", c.t0, c.selected, got, c.want)
		}
		if got, want := d.RowsHeight(&v), float64(len(c.want))*v.RowH; got != want {
			t.Errorf("t0=%g: RowsHeight %g, want %g", c.t0, got, want)
		}
	}
}

func TestFoldNeedsManyProcessesAndTheToggle(t *testing.T) {
	for _, c := range []struct {
		n    int
		fold bool
	}{{FoldMin, true}, {30, false}} {
		d := quietRun(c.n)
		d.Fold = c.fold
		v := window(0)
		d.Layout(&v, -1)
		if got := d.Draw(&v, &Marks{Cursor: 7, Selected: -1}).Rows; len(got) != c.n {
			t.Errorf("%d processes, fold %v: %d rows, want all", c.n, c.fold, len(got))
		}
	}
}

func TestHitAfterFolding(t *testing.T) {
	d := quietRun(30)
	d.Fold = true
	v := window(0)
	d.Layout(&v, -1)
	// the rows: …2, P3, …3, P7, …2, P10: P10's is the sixth, at y=110
	if i, ok := d.Hit(&v, 200, 110); !ok || i != 2 {
		t.Errorf("Hit on P10's timer = %d %v, want 2", i, ok)
	}
	if i, ok := d.Hit(&v, 50, 70); !ok || i != 1 {
		t.Errorf("Hit on P7's delivery = %d %v, want 1", i, ok)
	}
	// P10's own row, were nothing folded, is empty
	if i, ok := d.Hit(&v, 200, 190); ok {
		t.Errorf("Hit where P10 would be unfolded = %d", i)
	}
}

func TestRevealAfterFolding(t *testing.T) {
	d := quietRun(30)
	d.Fold = true
	v := window(0)
	v.Height = 60 // three rows
	d.Layout(&v, -1)
	d.Reveal(&v, 6) // P15's delivery at t=110
	if y := v.Y(d.R.NodeOf(6)); y < v.Top || y > v.Top+v.Height {
		t.Errorf("revealed event at y=%g, outside 0..60", y)
	}
}

func TestCentreAndShown(t *testing.T) {
	d := quietRun(30)
	d.Fold = true
	v := window(0)
	v.Height = 60 // three rows
	d.Layout(&v, -1)
	// the rows: …2, P3, …3, P7, …2, P10, …20 (positions 0-1, 2, 3-5, 6,
	// 7-8, 9, 10-29)
	for _, c := range []struct {
		p      int
		y0     float64
		lo, hi int
	}{
		{6, 40, 3, 9},    // P7's row, the fourth, in the middle
		{4, 20, 2, 7},    // folded into the third row
		{0, 0, 0, 6},     // the top stays at the top
		{20, 100, 9, 30}, // folded into the last marker, below P10
	} {
		d.Centre(&v, c.p)
		if v.Y0 != c.y0 {
			t.Errorf("Centre(%d): Y0 %g, want %g", c.p, v.Y0, c.y0)
		}
		if lo, hi := d.Shown(&v); lo != c.lo || hi != c.hi {
			t.Errorf("after Centre(%d): shown [%d, %d), want [%d, %d)", c.p, lo, hi, c.lo, c.hi)
		}
	}

	d.Fold = false
	d.Layout(&v, -1)
	d.Centre(&v, 20)
	if lo, hi := d.Shown(&v); v.Y0 != 380 || lo != 19 || hi != 22 {
		t.Errorf("unfolded, Centre(20): Y0 %g, shown [%d, %d), want 380, [19, 22)", v.Y0, lo, hi)
	}
}
