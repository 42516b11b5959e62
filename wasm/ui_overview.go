//go:build js && wasm

package main

// The overview strip above the space-time diagram past spacetime.FoldMin
// processes, where the diagram shows only a few rows and a stretch of
// time: the whole run, its processes in bands of consecutive rows, each
// stretch shaded by how many events it holds (package overview), with the
// failed checks, the cursor, and a frame around what the diagram shows.
// A click or drag on it moves the diagram there; arrow keys pan it.
//
// The cells are drawn once per world shown; a frame moves only the cursor
// and the frame. The strip's SVG stretches the grid to its size (the view
// box is the grid, one unit a column or a band), so that it needs no
// redraw when the page's width changes.

import (
	"fmt"
	"math"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/wasm/overview"
	"dsim/wasm/spacetime"
)

const (
	stripCols   = 240 // columns of time
	stripBands  = 40  // bands of rows, at most
	stripLevels = 4   // shades, the first of which is no event
)

type stripView struct {
	d      *diagramView
	box    dom.Element // the focusable slider, hidden up to FoldMin processes
	svg    js.Value
	shades [stripLevels]js.Value // 0 unused: no event is the background
	fails  js.Value
	frame  js.Value // what the diagram shows
	cursor js.Value
	g      *overview.Grid // nil: no strip
	drag   bool
}

func newStripView(d *diagramView) *stripView {
	s := &stripView{d: d, box: el("div", "overview", "")}
	s.box.SetAttribute("tabindex", "0")
	s.box.SetAttribute("role", "slider")
	s.box.SetAttribute("aria-valuemin", "0")
	show(s.box, false)
	s.svg = rawSVG("svg", "preserveAspectRatio", "none", "aria-hidden", "true")
	s.svg.Call("append", rawSVG("rect", "class", "bg", "width", "100%", "height", "100%"))
	for l := 1; l < stripLevels; l++ {
		s.shades[l] = rawSVG("path", "class", "shade l"+itoa(l))
		s.svg.Call("append", s.shades[l])
	}
	// strokes keep their width however the view box is stretched
	s.fails = rawSVG("path", "class", "fails", "vector-effect", "non-scaling-stroke")
	s.frame = rawSVG("rect", "class", "window", "vector-effect", "non-scaling-stroke")
	s.cursor = rawSVG("line", "class", "cursor", "vector-effect", "non-scaling-stroke")
	s.svg.Call("append", s.fails, s.frame, s.cursor)
	s.box.Underlying().Call("append", s.svg)
	s.wire()
	return s
}

// build draws the run of dia (nil: none) in the strip, or hides it when
// the diagram has rows enough for every process.
func (s *stripView) build(dia *spacetime.Diagram) {
	s.g = nil
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
	g := overview.Build(r.Events, rowOf, len(r.Nodes), 0, dia.EndT, stripBands, stripCols)
	s.g = g
	s.svg.Call("setAttribute", "viewBox", fmt.Sprintf("0 0 %d %d", g.Cols, g.Bands))
	for l, d := range g.Paths(stripLevels)[1:] {
		s.shades[l+1].Call("setAttribute", "d", d)
	}
	var fails []byte
	for _, c := range g.Fails {
		fails = fmt.Appendf(fails, "M%g 0V%d", float64(c)+0.5, g.Bands)
	}
	s.fails.Call("setAttribute", "d", string(fails))
	s.box.SetAttribute("aria-label", fmt.Sprintf("overview of the run: %d processes, t=0..%d", len(r.Nodes), dia.EndT))
	s.box.SetAttribute("aria-valuemax", fmt.Sprint(dia.EndT))
	show(s.box, true)
}

// show moves the cursor to time t and the frame to the diagram's window:
// its time, and the rows in its plot.
func (s *stripView) show(v *spacetime.Viewport, dia *spacetime.Diagram, t int64) {
	g := s.g
	if g == nil {
		return
	}
	t0, t1 := v.T(v.Left), v.T(v.Left+v.Width)
	cols := float64(g.Cols)
	x0, x1 := math.Max(0, g.X(t0)), math.Min(cols, g.X(t1))
	lo, hi := dia.Shown(v)
	y0, y1 := g.Y(lo), g.Y(hi)
	for _, kv := range [][2]string{
		{"x", f1(x0)}, {"width", f1(math.Max(0, x1-x0))}, {"y", f1(y0)}, {"height", f1(y1 - y0)},
	} {
		s.frame.Call("setAttribute", kv[0], kv[1])
	}
	cx := ftoa(g.X(float64(t)))
	for _, kv := range [][2]string{{"x1", cx}, {"x2", cx}, {"y1", "0"}, {"y2", itoa(g.Bands)}} {
		s.cursor.Call("setAttribute", kv[0], kv[1])
	}
	mid := int64(math.Round((t0 + t1) / 2))
	s.box.SetAttribute("aria-valuenow", fmt.Sprint(min(max(mid, g.T0), g.T1)))
	s.box.SetAttribute("aria-valuetext", fmt.Sprintf("t=%d..%d, processes %d to %d shown", int64(math.Round(t0)), int64(math.Round(t1)), lo+1, hi))
}

// moveTo centres the diagram's window on the time at fraction fx of the
// strip's width and its rows on the band at fraction fy of its height.
func (s *stripView) moveTo(fx, fy float64) {
	d, g := s.d, s.g
	if g == nil || d.a.dia == nil || !d.fitted {
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

// point moves the diagram to where a pointer event is on the strip.
func (s *stripView) point(ev js.Value) {
	r := s.svg.Call("getBoundingClientRect")
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
		if s.drag {
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
