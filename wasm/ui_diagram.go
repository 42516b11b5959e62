//go:build js && wasm

package main

// The space-time diagram's page side: an SVG whose few <path> elements get
// the path data package spacetime computes for the visible window, redrawn
// at most once per animation frame. Wheel zooms around the pointer, drag
// pans, hover shows the event or message under the pointer, click selects
// an event and highlights its causal past and future.
//
// Message kinds have a colour each (and past the palette, a dash pattern),
// listed in the one legend of kinds (#kinds) that the topology's message
// dots follow too; long arrows carry their kind's name.
//
// Bars along the lifelines show how long a process held each state class
// the topology colours (in the critical section, leader, crashed...), and a
// red band across the plot marks where two processes were in their
// critical sections at once.
//
// Idle stretches, such as a wait for a timeout, are collapsed to a narrow
// break (spacetime.Gap) unless the toolbar's "≈" button is off.
//
// Past spacetime.FoldMin processes, the rows of those quiet in the window
// are folded into markers (spacetime.Layout) unless the "Fold" button is
// off, and an overview strip of the whole run sits above the plot
// (ui_overview.go).

import (
	"fmt"
	"math"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/core/trace"
	"dsim/wasm/spacetime"
)

const (
	axisH    = 22.0
	minRowsH = 120.0
)

type diagramView struct {
	a     *app
	root  dom.Element
	strip *stripView
	svg   js.Value
	tip   js.Value

	arrows, heads      [spacetime.NumStyles]js.Value        // from NumColoured on
	byKind             [spacetime.NumColoured]js.Value      // <g> per coloured style
	kindPaths          [][spacetime.NumColoured][2]js.Value // arrows, heads
	labelLayer         js.Value
	labels             []js.Value // <text> pool
	labelKey           []int      // what each label shows: kind*NumStyles+style
	legend             dom.Element
	marks, late        [spacetime.NumMarks]js.Value
	life, drops, bands js.Value
	lanes              [spacetime.NumLanes]js.Value
	conePast, coneFut  js.Value
	coneConc           js.Value
	// cone says how many events are in the selected event's past, future
	// and neither (concurrent with it), keyed like the marks; coneOf is
	// the selection it counts.
	cone                dom.Element
	coneOf              []bool
	cut                 *cutTool
	stamps              *stampView
	selRing             js.Value
	net, cursor, bg     js.Value
	breaks              js.Value
	tickLayer, rowLayer js.Value
	ticks               []js.Value // <text> pool
	tickLines           js.Value
	rows                []js.Value // <text> pool

	v            spacetime.Viewport
	gutter       float64 // width of the process labels
	sizeW, sizeH float64 // the SVG's size, from its ResizeObserver
	fitted       bool
	linear       bool // idle stretches drawn to scale: the "≈" button is off
	unfolded     bool // every process has its row: the "Fold" button is off
	needs        bool
	w, h         float64
	drag         *dragState
	lastHover    int
	drawnCount   int
}

type dragState struct {
	x, y, t0, y0 float64
	moved        bool
}

func newDiagramView(a *app, root dom.Element) *diagramView {
	d := &diagramView{a: a, root: root, lastHover: -2, legend: byID("kinds")}
	tools := el("div", "dtools", "")
	for _, b := range []struct{ id, label, title string }{
		{"zoom-in", "+", "Zoom in (wheel)"}, {"zoom-out", "−", "Zoom out (wheel)"}, {"zoom-fit", "Fit", "Show the whole run"},
		{"collapse", "≈", "Collapse idle stretches"}, {"fold", "Fold", "Fold quiet processes"},
	} {
		btn := el("button", "", b.label)
		btn.SetAttribute("type", "button")
		btn.SetAttribute("id", b.id)
		btn.SetAttribute("title", b.title)
		btn.SetAttribute("aria-label", b.title)
		tools.AppendChild(btn)
	}
	tools.AppendChild(el("span", "dhint", "wheel: zoom · drag: pan · click an event: its causal past, future and concurrent events"))
	d.cone = el("span", "cone-legend", "")
	d.cone.SetAttribute("aria-live", "polite")
	show(d.cone, false)
	tools.AppendChild(d.cone)
	root.AppendChild(tools)

	s := rawSVG("svg", "class", "st", "tabindex", "0", "role", "img", "aria-label", "space-time diagram")
	d.svg = s
	add := func(tag string, attrs ...string) js.Value {
		e := rawSVG(tag, attrs...)
		s.Call("appendChild", e)
		return e
	}
	d.bg = add("rect", "class", "bg", "x", "0", "y", "0", "width", "100%", "height", "100%")
	// The simple layers come from tables (a call each would take a few
	// hundred bytes of WebAssembly), from the back; the lanes go on the
	// lifelines.
	for _, l := range []struct {
		v     *js.Value
		class string
	}{{&d.tickLines, "grid"}, {&d.bands, "band"}, {&d.life, "lifeline"}, {&d.breaks, "break"}, {&d.net, "net"}, {&d.drops, "drops"}} {
		*l.v = add("path", "class", l.class)
	}
	for l, c := range spacetime.Lanes {
		d.lanes[l] = rawSVG("path", "class", "lane "+string(c))
		s.Call("insertBefore", d.lanes[l], d.net)
	}
	for st := range spacetime.NumStyles {
		if st < spacetime.NumColoured {
			d.byKind[st] = add("g", "class", "kinds "+spacetime.StyleNames[st]) // filled by reset
			continue
		}
		d.arrows[st] = add("path", "class", "arrows "+spacetime.StyleNames[st])
		d.heads[st] = add("path", "class", "heads "+spacetime.StyleNames[st])
	}
	d.labelLayer = add("g", "class", "klabels")
	for m := range spacetime.NumMarks {
		d.marks[m] = add("path", "class", "mark "+spacetime.MarkNames[m])
		d.late[m] = add("path", "class", "mark late "+spacetime.MarkNames[m])
	}
	for _, l := range []struct {
		v          *js.Value
		tag, class string
	}{{&d.conePast, "path", "cone past"}, {&d.coneFut, "path", "cone future"}, {&d.coneConc, "path", "cone concurrent"},
		{&d.selRing, "path", "cone selected"},
		{&d.cursor, "line", "cursor"}, {&d.tickLayer, "g", "axis"}, {&d.rowLayer, "g", "labels"}} {
		*l.v = add(l.tag, "class", l.class)
	}
	d.cut = newCutTool(d, tools, add)
	d.stamps = newStampView(d, tools, add)
	root.Underlying().Call("appendChild", s)
	// after the plot, so that "#diagram svg" is still the plot's; the
	// style sheet puts it above
	d.strip = newStripView(d)
	root.AppendChild(d.strip.box)
	d.tip = el("div", "tip", "").Underlying()
	d.tip.Set("hidden", true)
	root.Underlying().Call("appendChild", d.tip)

	onClick(byID("zoom-in"), func() { d.zoom(1.6, d.v.Left+d.v.Width/2) })
	onClick(byID("zoom-out"), func() { d.zoom(1/1.6, d.v.Left+d.v.Width/2) })
	onClick(byID("zoom-fit"), func() { d.fitted = false; d.dirty() })
	collapse := byID("collapse")
	collapse.SetAttribute("aria-pressed", "true")
	onClick(collapse, func() {
		d.linear = !d.linear
		collapse.SetAttribute("aria-pressed", fmt.Sprint(!d.linear))
		d.fitted = false // the whole run, in the new time
		d.strip.build(d.a.dia)
		d.dirty()
	})
	onClick(byID("fold"), func() {
		d.unfolded = !d.unfolded
		d.pressFold()
		d.dirty()
	})
	d.wire()
	// The size comes from the observer: asked of the element while drawing,
	// after the page changed, it would make the browser lay out the page
	// twice a frame.
	js.Global().Get("ResizeObserver").New(callback(func(this js.Value, args []js.Value) any {
		r := args[0].Index(0).Get("contentRect")
		d.sizeW, d.sizeH = r.Get("width").Float(), r.Get("height").Float()
		d.dirty()
		return nil
	})).Call("observe", s)
	return d
}

func (d *diagramView) dirty() {
	d.needs = true
	d.a.frame.request()
}

// labelCharW is wider than a character of the labels' font (site/style.css).
const labelCharW = 8.0

func (d *diagramView) reset() {
	d.fitted = false
	// the gutter fits the longest label, "P" and the id, and is at least
	// 46 px wide
	n := 3
	if d.a.dia != nil {
		for _, id := range d.a.dia.R.Nodes {
			n = max(n, len(itoa(id)))
		}
		// hit tests before the next frame's must not read the folded rows
		// of another world's processes
		d.a.dia.Layout(&d.v, -1)
	}
	d.gutter = 14 + labelCharW*float64(n+1)
	d.tip.Set("hidden", true)
	d.strip.build(nil) // until showWorld builds the world's
	d.cut.reset()
	d.resetKinds()
	d.pressFold()
	d.dirty()
}

// pressFold shows whether the shown world's rows fold: the button does
// nothing up to spacetime.FoldMin processes.
func (d *diagramView) pressFold() {
	b := byID("fold")
	few := d.a.dia == nil || len(d.a.dia.R.Nodes) <= spacetime.FoldMin
	b.Underlying().Set("disabled", few)
	b.SetAttribute("aria-pressed", fmt.Sprint(!few && !d.unfolded))
}

// kindClass is the classes of message kind k's colour and dash pattern
// (site/style.css), on its arrows, labels, legend swatch and topology dots.
func kindClass(k spacetime.KindStyle) string {
	return "kc" + itoa(k.Colour) + " kd" + itoa(k.Dash)
}

// resetKinds makes the paths of the shown world's kinds and its legend.
func (d *diagramView) resetKinds() {
	for st := range spacetime.NumColoured {
		d.byKind[st].Set("textContent", "")
	}
	d.kindPaths = d.kindPaths[:0]
	d.hideLabels(0) // a pooled label's kind index would name another world's kind
	empty(d.legend)
	var kinds []spacetime.KindStyle
	if d.a.dia != nil {
		kinds = d.a.dia.Kinds()
	}
	show(d.legend, len(kinds) > 0)
	for _, k := range kinds {
		cls := kindClass(k)
		var p [spacetime.NumColoured][2]js.Value
		for st := range spacetime.NumColoured {
			name := spacetime.StyleNames[st]
			p[st][0] = rawSVG("path", "class", "arrows "+name+" "+cls)
			p[st][1] = rawSVG("path", "class", "heads "+name+" "+cls)
			d.byKind[st].Call("append", p[st][0], p[st][1])
		}
		d.kindPaths = append(d.kindPaths, p)

		// the swatch is an arrow's stroke with a topology dot on it
		swatch := rawSVG("svg", "class", "swatch "+cls, "width", "24", "height", "10", "aria-hidden", "true")
		swatch.Call("append", rawSVG("line", "x1", "1", "y1", "5", "x2", "23", "y2", "5"), rawSVG("circle", "cx", "12", "cy", "5", "r", "3"))
		li := el("li", "", "")
		li.SetAttribute("data-kind", k.Kind)
		li.AppendChild(wrap(swatch))
		li.AppendChild(el("span", "", k.Kind))
		d.legend.AppendChild(li)
	}
}

// measure takes the SVG's size; it changes with the window.
func (d *diagramView) measure() bool {
	w, h := d.sizeW, d.sizeH
	if w <= d.gutter+10 || h <= axisH+10 {
		return false
	}
	if w != d.w || h != d.h {
		d.w, d.h = w, h
		d.v.Left, d.v.Width = d.gutter, w-d.gutter
		d.v.Top, d.v.Height = axisH, h-axisH
		if d.a.dia != nil {
			// the rows share the new height (a chart or a verdict took
			// some), as Fit shares it, the time axis as it was
			d.v.RowH = d.a.dia.RowH(d.v.Height)
		}
	}
	return true
}

func (d *diagramView) zoom(f, x float64) {
	if d.a.dia == nil {
		return
	}
	d.a.dia.ZoomAt(&d.v, f, x)
	d.dirty()
}

// reveal brings event i into view if it is outside, keeping the zoom.
func (d *diagramView) reveal(i int) {
	if d.a.dia == nil || !d.fitted {
		return
	}
	d.a.dia.Reveal(&d.v, i)
	d.dirty()
}

// draw redraws if anything changed since the last frame; with no world
// shown, the frame is empty and the cursor out of sight.
// countCone fills the legend of the selected event's cone when the
// selection changed.
func (d *diagramView) countCone() {
	a := d.a
	if len(a.past) > 0 && len(d.coneOf) > 0 && &a.past[0] == &d.coneOf[0] {
		return
	}
	d.coneOf = a.past
	empty(d.cone)
	if a.past == nil {
		show(d.cone, false)
		return
	}
	past, future, concurrent := 0, 0, 0
	for i := range a.r.Events {
		switch {
		case i == a.selected || a.r.NodeOf(i) < 0:
		case a.past[i]:
			past++
		case a.future[i]:
			future++
		default:
			concurrent++
		}
	}
	for _, c := range []struct {
		class, mark string
		n           int
		what        string
	}{{"past", "○", past, "before"}, {"future", "○", future, "after"}, {"concurrent", "□", concurrent, "concurrent"}} {
		d.cone.AppendChild(el("span", c.class, fmt.Sprintf("%s %s %s", c.mark, fmtInt(c.n), c.what)))
	}
	show(d.cone, true)
}

func (d *diagramView) draw() {
	if !d.needs {
		return
	}
	d.needs = false
	a := d.a
	out, total := &spacetime.Drawing{Cursor: -10}, 0
	if a.dia != nil {
		if !d.measure() {
			return
		}
		if !d.fitted {
			a.dia.Collapse = !d.linear
			d.v = a.dia.Fit(d.gutter, d.w-d.gutter, axisH, d.h-axisH)
			d.fitted = true
		}
		a.dia.Fold = !d.unfolded
		a.dia.Layout(&d.v, a.selected)
		d.clampY()
		out = a.dia.Draw(&d.v, &spacetime.Marks{Cursor: a.cursor, Selected: a.selected, Past: a.past, Future: a.future, Stamps: d.stamps.on()})
		total = a.dia.Arrows()
		t := int64(0)
		if a.cursor > 0 {
			t = a.r.Events[a.cursor-1].T
		}
		d.strip.track(&d.v, a.dia, t)
		d.countCone()
		// the time window shown, for tests and tools reading the page
		d.svg.Call("setAttribute", "data-plot", ftoa(d.v.Left)+" "+ftoa(d.v.Width))
		d.svg.Call("setAttribute", "data-t0", itoa(int(math.Round(d.v.T(d.v.Left)))))
		d.svg.Call("setAttribute", "data-t1", itoa(int(math.Round(d.v.T(d.v.Left+d.v.Width)))))
	}
	setD := func(p js.Value, data string) { p.Call("setAttribute", "d", data) }
	// one call site for the single paths (see newDiagramView)
	for _, p := range []struct {
		v    js.Value
		data string
	}{{d.life, out.Lifelines}, {d.bands, out.Bands}, {d.breaks, out.Breaks}, {d.net, out.Net}, {d.drops, out.Drops},
		{d.conePast, out.ConePast}, {d.coneFut, out.ConeFuture}, {d.coneConc, out.ConeConcurrent}, {d.selRing, out.Selected}} {
		setD(p.v, p.data)
	}
	d.cut.draw()
	d.stamps.draw(a.r, out)
	for l, lane := range out.Lanes {
		setD(d.lanes[l], string(lane))
	}
	for st := spacetime.NumColoured; st < spacetime.NumStyles; st++ {
		setD(d.arrows[st], out.Arrows[st])
		setD(d.heads[st], out.Heads[st])
	}
	for k, paths := range out.ByKind {
		for st := range spacetime.NumColoured {
			setD(d.kindPaths[k][st][0], paths[st].Arrows)
			setD(d.kindPaths[k][st][1], paths[st].Heads)
		}
	}
	d.drawLabels(out.Labels)
	for m := range spacetime.NumMarks {
		setD(d.marks[m], out.Marks[m])
		setD(d.late[m], out.MarksLate[m])
	}
	cx := f1(out.Cursor)
	for _, kv := range [][2]string{{"x1", cx}, {"x2", cx}, {"y1", f1(axisH)}, {"y2", ftoa(d.h)}} {
		d.cursor.Call("setAttribute", kv[0], kv[1])
	}
	var grid strings.Builder
	for k, tk := range out.Ticks {
		if k == len(d.ticks) {
			t := rawSVG("text", "y", "15", "text-anchor", "middle")
			d.tickLayer.Call("appendChild", t)
			d.ticks = append(d.ticks, t)
		}
		t := d.ticks[k]
		t.Call("setAttribute", "x", f1(tk.X))
		t.Set("textContent", tk.Label)
		t.Call("removeAttribute", "visibility")
		if tk.Gap { // the break mark is its line
			t.Call("setAttribute", "class", "gap")
			continue
		}
		t.Call("removeAttribute", "class")
		fmt.Fprintf(&grid, "M%.1f %.1fV%.1f", tk.X, axisH-4, d.h)
	}
	for k := len(out.Ticks); k < len(d.ticks); k++ {
		d.ticks[k].Call("setAttribute", "visibility", "hidden")
	}
	setD(d.tickLines, grid.String())
	for k, row := range out.Rows {
		if k == len(d.rows) {
			t := rawSVG("text", "text-anchor", "end", "dominant-baseline", "central")
			d.rowLayer.Call("appendChild", t)
			d.rows = append(d.rows, t)
		}
		t := d.rows[k]
		// a marker is wider than the gutter: it starts in the plot, where
		// its row has no lifeline (site/style.css anchors it at its start)
		x, label, cls := d.gutter-6, "P"+itoa(row.Node), "row"
		switch {
		case row.Quiet > 0:
			x, label, cls = d.gutter+6, "… "+itoa(row.Quiet)+" quiet", "quiet"
		case row.Down:
			cls += " down"
		}
		t.Call("setAttribute", "x", f1(x))
		t.Call("setAttribute", "y", f1(row.Y))
		t.Set("textContent", label)
		t.Call("setAttribute", "class", cls)
		t.Call("removeAttribute", "visibility")
	}
	for k := len(out.Rows); k < len(d.rows); k++ {
		d.rows[k].Call("setAttribute", "visibility", "hidden")
	}
	d.drawnCount = out.Arrowed
	d.svg.Call("setAttribute", "data-arrows", itoa(out.Arrowed))
	d.svg.Call("setAttribute", "data-total-arrows", itoa(total))
}

// drawLabels shows the kind labels of a frame, from a pool of <text>
// elements; a label's text and class change only when it shows another
// kind or style than in the frame before.
func (d *diagramView) drawLabels(labels []spacetime.Label) {
	for n, l := range labels {
		if n == len(d.labels) {
			t := rawSVG("text", "text-anchor", "middle", "dominant-baseline", "central")
			d.labelLayer.Call("appendChild", t)
			d.labels = append(d.labels, t)
			d.labelKey = append(d.labelKey, -1)
		}
		t := d.labels[n]
		if key := l.Kind*int(spacetime.NumStyles) + int(l.Style); key != d.labelKey[n] {
			d.labelKey[n] = key
			k := d.a.dia.Kinds()[l.Kind]
			cls := "klabel " + spacetime.StyleNames[l.Style]
			if l.Style < spacetime.NumColoured {
				cls += " " + kindClass(k)
			}
			t.Call("setAttribute", "class", cls)
			t.Set("textContent", k.Kind) // script-derived: text only
		}
		t.Call("setAttribute", "x", f1(l.X))
		t.Call("setAttribute", "y", f1(l.Y))
	}
	d.hideLabels(len(labels))
}

// hideLabels hides the pooled labels from the n-th on.
func (d *diagramView) hideLabels(n int) {
	for k := n; k < len(d.labels); k++ {
		if d.labelKey[k] >= 0 {
			d.labelKey[k] = -1
			d.labels[k].Call("setAttribute", "class", "klabel off")
		}
	}
}

// clampY keeps the rows from scrolling out of the plot.
func (d *diagramView) clampY() {
	maxY := math.Max(0, d.a.dia.RowsHeight(&d.v)-d.v.Height)
	d.v.Y0 = math.Max(0, math.Min(d.v.Y0, maxY))
}

// local converts a pointer event's client coordinates to the SVG's.
func (d *diagramView) local(ev js.Value) (float64, float64) {
	r := d.svg.Call("getBoundingClientRect")
	return ev.Get("clientX").Float() - r.Get("left").Float(), ev.Get("clientY").Float() - r.Get("top").Float()
}

func (d *diagramView) wire() {
	s := d.svg
	on(s, "wheel", func(ev js.Value) {
		if d.a.dia == nil {
			return
		}
		ev.Call("preventDefault")
		x, _ := d.local(ev)
		dx, dy := ev.Get("deltaX").Float(), ev.Get("deltaY").Float()
		if ev.Get("deltaMode").Int() == 1 { // lines
			dx, dy = dx*16, dy*16
		}
		switch {
		case ev.Get("shiftKey").Bool() || math.Abs(dx) > math.Abs(dy):
			if dx == 0 {
				dx = dy
			}
			d.v.Pan(dx)
		case ev.Get("altKey").Bool():
			d.v.Y0 += dy
		default:
			d.a.dia.ZoomAt(&d.v, math.Exp(-dy*0.002), math.Max(x, d.v.Left))
		}
		d.tip.Set("hidden", true)
		d.dirty()
	}, map[string]any{"passive": false})
	on(s, "pointerdown", func(ev js.Value) {
		if d.a.dia == nil || ev.Get("button").Int() != 0 {
			return
		}
		x, y := d.local(ev)
		d.drag = &dragState{x: x, y: y, t0: d.v.T0, y0: d.v.Y0}
		s.Call("setPointerCapture", ev.Get("pointerId"))
	})
	on(s, "pointermove", func(ev js.Value) {
		if d.a.dia == nil {
			return
		}
		x, y := d.local(ev)
		if g := d.drag; g != nil {
			if math.Abs(x-g.x)+math.Abs(y-g.y) > 3 {
				g.moved = true
			}
			if g.moved {
				d.v.T0 = g.t0
				d.v.Pan(g.x - x)
				d.v.Y0 = g.y0 - (y - g.y)
				d.tip.Set("hidden", true)
				d.dirty()
				return
			}
		}
		d.hover(x, y)
	})
	on(s, "pointerup", func(ev js.Value) {
		g := d.drag
		d.drag = nil
		if g == nil || g.moved || d.a.dia == nil {
			return
		}
		x, y := d.local(ev)
		if d.cut.on {
			d.cut.click(x, y)
			return
		}
		if i, ok := d.a.dia.Hit(&d.v, x, y); ok {
			d.a.selectEvent(i, true)
		} else {
			d.a.selectEvent(-1, true)
		}
	})
	on(s, "pointerleave", func(js.Value) {
		d.tip.Set("hidden", true)
		d.lastHover = -2
	})
	on(s, "keydown", func(ev js.Value) {
		if d.a.dia == nil {
			return
		}
		step := d.v.Width / 8
		switch ev.Get("key").String() {
		case "+", "=":
			d.zoom(1.6, d.v.Left+d.v.Width/2)
		case "-", "_":
			d.zoom(1/1.6, d.v.Left+d.v.Width/2)
		case "a":
			d.v.Pan(-step)
			d.dirty()
		case "d":
			d.v.Pan(step)
			d.dirty()
		case "w":
			d.v.Y0 -= d.v.RowH
			d.dirty()
		case "s":
			d.v.Y0 += d.v.RowH
			d.dirty()
		default:
			return
		}
		ev.Call("preventDefault")
		ev.Call("stopPropagation")
	})
}

// hover shows what is under the pointer: an event or message, else a
// violation's band, for which lastHover is -3-k (k its index in Overlaps).
func (d *diagramView) hover(x, y float64) {
	i, ok := d.a.dia.Hit(&d.v, x, y)
	if !ok {
		i = -1
		if k := d.a.dia.Band(&d.v, x); k >= 0 && y >= d.v.Top {
			i = -3 - k
		}
	}
	if i == d.lastHover {
		if i != -1 {
			d.placeTip(x, y)
		}
		return
	}
	d.lastHover = i
	if i == -1 {
		d.tip.Set("hidden", true)
		d.svg.Get("style").Set("cursor", "")
		return
	}
	if ok {
		d.svg.Get("style").Set("cursor", "pointer")
		d.tip.Set("textContent", d.describe(i))
	} else {
		s := d.a.dia.Overlaps()[-3-i]
		d.tip.Set("textContent", fmt.Sprintf("mutual exclusion broken: processes %v in the critical section at once, t=%d to %d", s.Procs, s.T0, s.T1))
	}
	d.tip.Set("hidden", false)
	d.placeTip(x, y)
}

// placeTip puts the tip below and right of the pointer, or above or left
// of it where that would cross the plot's edge.
func (d *diagramView) placeTip(x, y float64) {
	w, h := d.tip.Get("offsetWidth").Float(), d.tip.Get("offsetHeight").Float()
	left, top := x+14, y+14
	if left+w > d.w {
		left = x - 14 - w
	}
	if top+h > d.h {
		top = y - 14 - h
	}
	// the tip sits in the diagram's box, the coordinates are the SVG's
	dy := d.svg.Call("getBoundingClientRect").Get("top").Float() - d.root.GetBoundingClientRect().Top()
	st := d.tip.Get("style")
	st.Set("left", f1(max(0, left))+"px")
	st.Set("top", f1(max(0, top)+dy)+"px")
}

// describe is the tooltip of event i: the event, and for a message its
// kind, fields and journey.
func (d *diagramView) describe(i int) string {
	r := d.a.r
	e := &r.Events[i]
	var b strings.Builder
	fmt.Fprintf(&b, "#%d  t=%d  %s", e.Seq, e.T, r.Text(i))
	switch e.Type {
	case trace.Send, trace.Deliver, trace.Drop:
		b.WriteString("\nkind: " + e.Kind)
		if fields := string(trace.AppendJSON(nil, e.Msg)); fields != "null" && fields != "{}" {
			b.WriteString("\nfields: " + fields)
		}
		send := i
		if s := r.SendOf(i); s >= 0 {
			send = s
		}
		fmt.Fprintf(&b, "\nsent by P%d at t=%d", e.From, r.Events[send].T)
		for _, f := range r.FlightsOf(send) {
			fl := r.Flights[f]
			switch {
			case fl.End < 0:
				fmt.Fprintf(&b, "\nnot delivered by the end of the run")
			case fl.Dropped:
				fmt.Fprintf(&b, "\ndropped at t=%d (%s)", r.Events[fl.End].T, r.Events[fl.End].Reason)
			default:
				fmt.Fprintf(&b, "\ndelivered to P%d at t=%d", fl.To, r.Events[fl.End].T)
			}
		}
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "\nscript line %d", e.Line)
	}
	return b.String()
}
