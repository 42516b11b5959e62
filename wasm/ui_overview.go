//go:build js && wasm

package main

// The overview strip above the space-time diagram past spacetime.FoldMin
// processes, where the diagram shows only a few rows and a stretch of
// time: the whole run, its processes in bands of consecutive rows, each
// stretch shaded by how many events it holds (package overview), with the
// failed checks, the cursor, and a frame around what the diagram shows.
// A click or drag on it moves the diagram there; arrow keys pan it.
//
// A world the page reads in windows gets the strip whatever its number of
// processes, and the strip is then the whole run's, which the engine
// counts (Engine.Overview): its frame is the window the page holds, and a
// click elsewhere asks for the window at that time.
//
// The cells are painted once per world shown, a pixel each on a canvas
// the page stretches to the strip; a frame moves only the cursor and the
// frame, elements placed in percent of the strip. So the strip needs no
// redraw when the page's width changes, and "#diagram svg" is still the
// diagram's one SVG.

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/wasm/overview"
	"dsim/wasm/spacetime"
)

const (
	stripCols  = 240 // columns of time
	stripBands = 40  // bands of rows, at most
)

type stripView struct {
	d      *diagramView
	box    dom.Element // the focusable slider, hidden up to FoldMin processes
	canvas js.Value
	fails  dom.Element // a tick per column with a failed check
	frame  js.Value    // what the diagram shows
	cursor js.Value
	g      *overview.Grid // nil: no strip
	pixels []byte
	drag   bool
	whole  bool   // g is the whole run's: the page holds a window of it
	margin string // the strip's left margin, the diagram's label gutter
}

func newStripView(d *diagramView) *stripView {
	s := &stripView{d: d, box: el("div", "overview", ""), fails: el("div", "fails", "")}
	s.box.SetAttribute("tabindex", "0")
	s.box.SetAttribute("role", "slider")
	s.box.SetAttribute("aria-valuemin", "0")
	s.box.SetAttribute("title", "The whole run: click or drag to show that part in the diagram; arrow keys pan")
	show(s.box, false)
	s.canvas = el("canvas", "", "").Underlying()
	s.canvas.Call("setAttribute", "aria-hidden", "true")
	s.frame = el("div", "window", "").Underlying()
	s.cursor = el("div", "cursor", "").Underlying()
	s.box.Underlying().Call("append", s.canvas, s.fails.Underlying(), s.frame, s.cursor)
	s.wire()
	return s
}

// shades are the colours of the cells by level, the first (no event)
// transparent, from the style sheet's --shade1, --shade2... (#rrggbb).
func (s *stripView) shades() [][4]byte {
	css := js.Global().Call("getComputedStyle", s.box.Underlying())
	out := [][4]byte{{}}
	for l := 1; ; l++ {
		c := strings.TrimSpace(css.Call("getPropertyValue", "--shade"+itoa(l)).String())
		v, err := strconv.ParseUint(strings.TrimPrefix(c, "#"), 16, 32)
		if len(c) != 7 || err != nil {
			return out
		}
		out = append(out, [4]byte{byte(v >> 16), byte(v >> 8), byte(v), 255})
	}
}

// build paints the run of dia (nil: none) in the strip, or hides it when
// the diagram has rows enough for every process.
func (s *stripView) build(dia *spacetime.Diagram) {
	s.g, s.whole = nil, false
	empty(s.fails)
	a := s.d.a
	if dia != nil && a.windowed(a.world) {
		s.buildWhole(dia)
		return
	}
	if dia == nil || len(dia.R.Nodes) <= spacetime.FoldMin {
		show(s.box, false)
		return
	}
	r := dia.R
	rowOf := func(id int) int {
		if p, ok := r.Pos(id); ok {
			return p
		}
		return -1
	}
	s.paint(overview.Build(r.Events, rowOf, len(r.Nodes), s.scale(dia), stripBands, stripCols), dia.EndT)
}

// buildWhole shows the whole run's grid of the world shown, which the
// engine counts once per world and run.
func (s *stripView) buildWhole(dia *spacetime.Diagram) {
	a := s.d.a
	if g := a.overviews[a.world]; g != nil {
		s.whole = true
		s.paint(g, a.result.Worlds[a.world].End)
		return
	}
	show(s.box, false)
	res, world := a.result, a.world
	a.eng.Overview(world, stripBands, stripCols, func(g *overview.Grid, err error) {
		if err != nil || a.result != res {
			return // a new run: a new strip
		}
		a.overviews[world] = g
		if a.world == world && a.dia == dia {
			s.build(dia)
			s.d.dirty()
		}
	})
}

// paint shows grid g of a run that ends at end.
func (s *stripView) paint(g *overview.Grid, end int64) {
	s.g = g
	s.pixels = g.Paint(s.pixels, s.shades())
	data := js.Global().Get("Uint8ClampedArray").New(len(s.pixels))
	js.CopyBytesToJS(data, s.pixels)
	s.canvas.Set("width", g.Cols)
	s.canvas.Set("height", g.Bands)
	s.canvas.Call("getContext", "2d").Call("putImageData", js.Global().Get("ImageData").New(data, g.Cols, g.Bands), 0, 0)
	for _, c := range g.Fails {
		tick := el("i", "", "")
		tick.Underlying().Get("style").Set("left", pct(float64(c)+0.5, float64(g.Cols)))
		s.fails.AppendChild(tick)
	}
	s.box.SetAttribute("aria-label", fmt.Sprintf("overview of the run: %d processes, t=0..%d", g.Rows, end))
	s.box.SetAttribute("aria-valuemax", fmt.Sprint(end))
	show(s.box, true)
}

// scale is the strip's time: the diagram's fitted to the whole run where
// it collapses idle stretches (its "≈" button), else linear.
func (s *stripView) scale(dia *spacetime.Diagram) overview.Scale {
	if s.d.linear {
		return overview.Linear{T0: 0, T1: dia.EndT}
	}
	dia.Collapse = true // as draw fits the diagram while the button is on
	// before the plot is measured, a phone's width
	v := dia.Fit(0, max(s.d.sizeW-s.d.gutter, 300), 0, 1)
	return fitScale{&v}
}

// fitScale is the time of a viewport that shows the whole run (Fit), as a
// fraction of its plot's width.
type fitScale struct{ v *spacetime.Viewport }

func (f fitScale) Frac(t float64) float64 { return (f.v.X(t) - f.v.Left) / f.v.Width }
func (f fitScale) Time(x float64) float64 { return f.v.T(f.v.Left + x*f.v.Width) }

// pct is x out of whole, in percent for a style.
func pct(x, whole float64) string { return strconv.FormatFloat(100*x/whole, 'f', 2, 64) + "%" }

// track moves the cursor to time t and the frame to the diagram's window:
// its time, and the rows in its plot.
func (s *stripView) track(v *spacetime.Viewport, dia *spacetime.Diagram, t int64) {
	g := s.g
	if g == nil {
		return
	}
	// under the plot, right of the process labels, as the diagram's axis
	if m := ftoa(s.d.gutter) + "px"; m != s.margin {
		s.margin = m
		s.box.Underlying().Get("style").Set("marginLeft", m)
	}
	t0, t1 := v.T(v.Left), v.T(v.Left+v.Width)
	lo, hi := dia.Shown(v)
	end := dia.EndT
	if s.whole { // the frame is the window the page holds, of every process
		a := s.d.a
		w := a.windows[a.world]
		t0, t1, lo, hi, end = float64(w.start), float64(a.r.Events[len(a.r.Events)-1].T), 0, g.Rows, a.result.Worlds[a.world].End
		t = int64(a.timeAfter(a.cursor))
	}
	cols, bands := float64(g.Cols), float64(g.Bands)
	x0, x1 := math.Max(0, g.X(t0)), math.Min(cols, g.X(t1))
	st := s.frame.Get("style")
	st.Set("left", pct(x0, cols))
	st.Set("width", pct(math.Max(0, x1-x0), cols))
	st.Set("top", pct(g.Y(lo), bands))
	st.Set("height", pct(g.Y(hi)-g.Y(lo), bands))
	s.cursor.Get("style").Set("left", pct(math.Min(g.X(float64(t)), cols), cols))
	mid := int64(math.Round((t0 + t1) / 2))
	s.box.SetAttribute("aria-valuenow", fmt.Sprint(min(max(mid, 0), end)))
	s.box.SetAttribute("aria-valuetext", fmt.Sprintf("t=%d..%d, processes %d to %d of %d shown", int64(math.Round(t0)), int64(math.Round(t1)), lo+1, hi, g.Rows))
}

// moveTo centres the diagram's window on the time at fraction fx of the
// strip's width and its rows on the band at fraction fy of its height.
func (s *stripView) moveTo(fx, fy float64) {
	d, g := s.d, s.g
	if g == nil || d.a.dia == nil || !d.fitted {
		return
	}
	if s.whole {
		s.moveWindow(g.T(fx * float64(g.Cols)))
		return
	}
	d.v.Place(g.T(fx*float64(g.Cols)), d.v.Left+d.v.Width/2)
	band := min(max(int(fy*float64(g.Bands)), 0), g.Bands-1)
	lo, hi := g.RowsOf(band)
	// the rows that fold depend on the window
	d.a.dia.Layout(&d.v, d.a.selected)
	d.a.dia.Centre(&d.v, (lo+hi)/2)
	d.tip.Set("hidden", true)
	d.dirty()
}

// moveWindow moves the cursor to time t of the whole run, asking for the
// window there when the page does not hold that time.
func (s *stripView) moveWindow(t float64) {
	a := s.d.a
	at := func() {
		i := sort.Search(len(a.r.Events), func(i int) bool { return float64(a.r.Events[i].T) >= t })
		a.setCursor(max(i, a.first+1))
		a.followCursor()
	}
	if w := a.windows[a.world]; t >= float64(w.start) && t <= float64(a.r.Events[len(a.r.Events)-1].T) {
		at()
		return
	}
	a.showWindow(a.world, int(t), "time", func(err error) {
		if err == nil {
			at()
		}
	})
}

// point moves the diagram to where a pointer event is on the strip.
func (s *stripView) point(ev js.Value) {
	r := s.canvas.Call("getBoundingClientRect")
	w, h := r.Get("width").Float(), r.Get("height").Float()
	if w <= 0 || h <= 0 {
		return
	}
	s.moveTo((ev.Get("clientX").Float()-r.Get("left").Float())/w, (ev.Get("clientY").Float()-r.Get("top").Float())/h)
}

func (s *stripView) wire() {
	b := s.box.Underlying()
	on(b, "pointerdown", func(ev js.Value) {
		if ev.Get("button").Int() != 0 {
			return
		}
		s.drag = true
		b.Call("setPointerCapture", ev.Get("pointerId"))
		s.point(ev)
	})
	on(b, "pointermove", func(ev js.Value) {
		if s.drag && !s.whole { // a window is asked for on a click, not at every move
			s.point(ev)
		}
	})
	on(b, "pointerup", func(js.Value) { s.drag = false })
	on(b, "pointercancel", func(js.Value) { s.drag = false })
	on(b, "keydown", func(ev js.Value) {
		d := s.d
		if s.g == nil || d.a.dia == nil {
			return
		}
		switch ev.Get("key").String() {
		case "ArrowLeft":
			d.v.Pan(-d.v.Width / 4)
		case "ArrowRight":
			d.v.Pan(d.v.Width / 4)
		case "ArrowUp":
			d.v.Y0 -= d.v.Height / 2
		case "ArrowDown":
			d.v.Y0 += d.v.Height / 2
		case "Home":
			d.v.Place(0, d.v.Left)
		case "End":
			d.v.Place(float64(d.a.dia.EndT), d.v.Left+d.v.Width)
		default:
			return
		}
		ev.Call("preventDefault")
		d.dirty()
	})
}
