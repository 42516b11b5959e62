//go:build js && wasm

package main

// The topology view: processes laid out by topology (package layout),
// labelled with their ids, coloured by their state at the cursor, with the
// messages in flight moving along the links, coloured by kind as in the
// space-time diagram and its legend. In fork mode a click on a
// process crashes or recovers it, a click on a link cuts it.
//
// Every call into JavaScript costs, so the view is built with few: all
// links are one path (their arrowheads another), a process is a clone of a
// template, its tooltip is made when the pointer rests on it, and links are
// found under the pointer by arithmetic rather than by DOM hit testing.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/wasm/layout"
	"dsim/wasm/replay"
)

// maxDots bounds the messages drawn in flight.
const maxDots = 400

type topoView struct {
	a      *app
	root   dom.Element
	nodes  []js.Value // <g> per process, by position
	class  []string
	dots   []js.Value
	dotCls []string // a dot's class, by message kind (index in Diagram.Kinds)
	shown  int      // dots visible
	msgs   js.Value // <g> of the dots
	group  js.Value // <g> of the processes
	tmpl   js.Value // a process, to clone
	hot    js.Value // the link under the pointer in fork mode
	tip    js.Value
	radius float64
}

func newTopoView(a *app, root dom.Element) *topoView {
	t := &topoView{a: a, root: root}
	t.tip = el("div", "tip", "").Underlying()
	t.tip.Set("hidden", true)
	root.Underlying().Get("parentNode").Call("appendChild", t.tip)
	r := root.Underlying()
	on(r, "click", func(ev js.Value) { t.click(ev) })
	on(r, "keydown", func(ev js.Value) {
		if k := ev.Get("key").String(); k == "Enter" || k == " " {
			ev.Call("preventDefault")
			t.click(ev)
		}
	})
	on(r, "pointermove", func(ev js.Value) { t.hover(ev) })
	on(r, "pointerleave", func(js.Value) {
		t.tip.Set("hidden", true)
		t.hot.Call("setAttribute", "d", "")
	})
	t.reset()
	return t
}

func (t *topoView) point(p int) (float64, float64) {
	q := t.a.lay.Pos[p]
	return q.X * 100, q.Y * 100
}

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// reset draws the current world's links; addNodes draws its processes.
func (t *topoView) reset() {
	empty(t.root)
	t.nodes, t.class, t.dots, t.shown, t.dotCls = nil, nil, nil, 0, nil
	root := t.root.Underlying()
	add := func(e js.Value) js.Value { root.Call("appendChild", e); return e }
	t.hot = add(rawSVG("path", "class", "edge-hot"))
	a := t.a
	if a.r == nil {
		t.msgs = add(rawSVG("g", "class", "msgs"))
		return
	}
	for _, k := range a.dia.Kinds() {
		t.dotCls = append(t.dotCls, "msg "+kindClass(k))
	}
	n := len(a.r.Nodes)
	t.radius = math.Max(1.2, math.Min(6, 30/math.Sqrt(float64(max(n, 1)))))
	r := t.radius
	var lines, heads strings.Builder
	for _, e := range a.lay.Edges {
		x0, y0 := t.point(e.A)
		x1, y1 := t.point(e.B)
		// end the line at the circles' rims, so arrowheads show
		dx, dy := x1-x0, y1-y0
		l := math.Max(math.Hypot(dx, dy), 1e-9)
		ux, uy := dx/l, dy/l
		ex, ey := x1-ux*r, y1-uy*r
		fmt.Fprintf(&lines, "M%.1f %.1fL%.1f %.1f", x0+ux*r, y0+uy*r, ex, ey)
		if e.Directed {
			const size, half = 2.4, 1.1
			bx, by := ex-ux*size, ey-uy*size
			fmt.Fprintf(&heads, "M%.1f %.1fL%.1f %.1fL%.1f %.1fZ", ex, ey, bx-uy*half, by+ux*half, bx+uy*half, by-ux*half)
		}
	}
	// under the hot link, so the highlight shows on top
	root.Call("insertBefore", rawSVG("path", "class", "edge", "d", lines.String()), t.hot)
	root.Call("insertBefore", rawSVG("path", "class", "edge-head", "d", heads.String()), t.hot)

	// The processes are drawn into a group that joins the page once they
	// are all in it (see addNodes).
	t.group = rawSVG("g", "class", "nodes")
	t.tmpl = rawSVG("g", "class", "node", "tabindex", "0", "role", "button")
	t.tmpl.Call("appendChild", rawSVG("circle", "r", f1(r)))
	if r >= 1.8 {
		t.tmpl.Call("appendChild", rawSVG("text", "text-anchor", "middle", "dominant-baseline", "central",
			"font-size", f1(math.Max(r*0.95, 1))))
	}
	// messages go over the processes: on a dense ring the links are short
	t.msgs = add(rawSVG("g", "class", "msgs"))
}

// addNodes draws up to n more processes and reports whether some remain:
// a world of hundreds of processes is drawn over several tasks. They join
// the page together after the last one: every frame in between would
// otherwise work out the style and layout of all those drawn so far, which
// made a world of 20,000 processes take seconds.
func (t *topoView) addNodes(n int) bool {
	a := t.a
	if a.r == nil {
		return false
	}
	for k := 0; k < n && len(t.nodes) < len(a.r.Nodes); k++ {
		p := len(t.nodes)
		id := a.r.Nodes[p]
		x, y := t.point(p)
		g := t.tmpl.Call("cloneNode", true)
		g.Call("setAttribute", "data-id", itoa(id))
		g.Call("setAttribute", "transform", "translate("+f1(x)+" "+f1(y)+")")
		g.Call("setAttribute", "aria-label", "process "+itoa(id))
		if t.radius >= 1.8 {
			g.Get("lastChild").Set("textContent", itoa(id))
		}
		t.group.Call("appendChild", g)
		t.nodes = append(t.nodes, g)
		t.class = append(t.class, "node")
	}
	if len(t.nodes) < len(a.r.Nodes) {
		return true
	}
	if t.group.Get("parentNode").IsNull() {
		t.root.Underlying().Call("insertBefore", t.group, t.msgs)
	}
	return false
}

// update colours the processes for view v and places the messages.
func (t *topoView) update(v *replay.View) {
	if t.a.r == nil {
		return
	}
	for p := range t.nodes {
		class, label := "node", "process "+itoa(t.a.r.Nodes[p])
		if c := v.Class(p); c != replay.None {
			class += " cls-" + string(c)
			label += ", " + classLabels[c]
		}
		if class != t.class[p] {
			t.class[p] = class
			t.nodes[p].Call("setAttribute", "class", class)
			// a screen reader hears the state the colour shows
			t.nodes[p].Call("setAttribute", "aria-label", label)
		}
	}
	t.moveMessages(v)
}

// describe is a process's tooltip: its id, status and state.
func (t *topoView) describe(p int, v *replay.View) string {
	var b strings.Builder
	fmt.Fprintf(&b, "P%d", t.a.r.Nodes[p])
	if l, ok := classLabels[v.Class(p)]; ok {
		b.WriteString(" (" + l + ")")
	}
	for _, kv := range v.State[p] {
		b.WriteString("\n" + kv.Key + " = " + display(kv.Value))
	}
	return b.String()
}

// moveMessages places a dot for each message in flight at the view's time,
// along the straight line from its sender to its receiver.
func (t *topoView) moveMessages(v *replay.View) {
	a := t.a
	if a.r == nil {
		return
	}
	shown := 0
	for _, f := range v.InFlight() {
		if shown == maxDots {
			break
		}
		fl := &a.r.Flights[f]
		pa, ok1 := a.r.Pos(fl.From)
		pb, ok2 := a.r.Pos(fl.To)
		if !ok1 || !ok2 {
			continue
		}
		t0 := float64(a.r.Events[fl.Send].T)
		frac := 0.5
		if fl.End >= 0 {
			if t1 := float64(a.r.Events[fl.End].T); t1 > t0 {
				frac = math.Max(0, math.Min(1, (a.viewT-t0)/(t1-t0)))
			}
		}
		x0, y0 := t.point(pa)
		x1, y1 := t.point(pb)
		if shown == len(t.dots) {
			d := rawSVG("circle", "r", f1(math.Max(t.radius*0.35, 0.6)))
			t.msgs.Call("appendChild", d)
			t.dots = append(t.dots, d)
		}
		d := t.dots[shown]
		d.Call("setAttribute", "cx", f1(x0+(x1-x0)*frac))
		d.Call("setAttribute", "cy", f1(y0+(y1-y0)*frac))
		d.Call("setAttribute", "class", t.dotCls[a.dia.KindOf(f)])
		d.Call("setAttribute", "data-kind", fl.Kind)
		shown++
	}
	for k := shown; k < t.shown; k++ {
		t.dots[k].Call("setAttribute", "class", "msg off")
	}
	t.shown = shown
}

// local converts a pointer event's position to the view box (0..100 on
// the shorter side, centred, as preserveAspectRatio="xMidYMid meet" does).
func (t *topoView) local(ev js.Value) (float64, float64) {
	b := t.root.Underlying().Call("getBoundingClientRect")
	w, h := b.Get("width").Float(), b.Get("height").Float()
	s := math.Min(w, h) / 100
	if s <= 0 {
		return -1, -1
	}
	x := ev.Get("clientX").Float() - b.Get("left").Float() - (w-100*s)/2
	y := ev.Get("clientY").Float() - b.Get("top").Float() - (h-100*s)/2
	return x / s, y / s
}

// linkAt finds the link within reach of (x, y) in view box units.
func (t *topoView) linkAt(x, y float64) (int, bool) {
	return t.a.lay.LinkAt(layout.Point{X: x / 100, Y: y / 100}, 0.02)
}

// hover shows a process's state under the pointer, and in fork mode the
// link a click would cut.
func (t *topoView) hover(ev js.Value) {
	a := t.a
	if a.r == nil {
		return
	}
	if g := ev.Get("target").Call("closest", "g.node"); g.Truthy() {
		var id int
		fmt.Sscan(g.Call("getAttribute", "data-id").String(), &id)
		if p, ok := a.r.Pos(id); ok {
			t.tip.Set("textContent", t.describe(p, a.r.At(a.cursor)))
			t.tip.Set("hidden", false)
			box := t.root.Underlying().Get("parentNode").Call("getBoundingClientRect")
			st := t.tip.Get("style")
			st.Set("left", f1(ev.Get("clientX").Float()-box.Get("left").Float()+12)+"px")
			st.Set("top", f1(ev.Get("clientY").Float()-box.Get("top").Float()+12)+"px")
		}
		t.hot.Call("setAttribute", "d", "")
		return
	}
	t.tip.Set("hidden", true)
	d := ""
	if a.forking {
		if k, ok := t.linkAt(t.local(ev)); ok {
			e := a.lay.Edges[k]
			x0, y0 := t.point(e.A)
			x1, y1 := t.point(e.B)
			d = fmt.Sprintf("M%.1f %.1fL%.1f %.1f", x0, y0, x1, y1)
		}
	}
	t.hot.Call("setAttribute", "d", d)
}

// click handles a click (or Enter) on the view: in fork mode it intervenes,
// otherwise a process click filters the log to that process.
func (t *topoView) click(ev js.Value) {
	a := t.a
	if a.r == nil {
		return
	}
	if g := ev.Get("target").Call("closest", "g.node"); g.Truthy() {
		var id int
		fmt.Sscan(g.Call("getAttribute", "data-id").String(), &id)
		if !a.forking {
			a.log.filterNode(id)
			return
		}
		p, _ := a.r.Pos(id)
		if a.r.At(a.cursor).Up[p] {
			a.intervene(fmt.Sprintf("crash=%d", id))
		} else {
			a.intervene(fmt.Sprintf("recover=%d", id))
		}
		return
	}
	if !a.forking || ev.Get("clientX").IsUndefined() {
		return
	}
	if k, ok := t.linkAt(t.local(ev)); ok {
		e := a.lay.Edges[k]
		a.intervene(fmt.Sprintf("cut={%d, %d}", a.r.Nodes[e.A], a.r.Nodes[e.B]))
	}
}
