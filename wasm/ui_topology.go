//go:build js && wasm

package main

// The topology view: processes laid out by topology (package layout),
// labelled with their ids, coloured by their state at the cursor, with the
// messages in flight moving along the links, coloured by kind as in the
// space-time diagram and its legend, from rim to rim so that no dot hides
// a process. On a crowded circle ordinary processes are dots, and the
// notable ones (a leader, a crashed one...) are drawn large, labelled, on
// top. A click on a process opens its menu of interventions; in fork mode
// a click on a process crashes or recovers it, a click on a link cuts it.
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

	"dsim/core/algo"
	"dsim/wasm/layout"
	"dsim/wasm/replay"
)

// maxDots bounds the messages drawn in flight; up to maxNames of them
// carry their kind's name, beyond which the names would hide each other.
const (
	maxDots  = 400
	maxNames = 12
)

type topoView struct {
	a      *app
	root   dom.Element
	nodes  []js.Value // <g> per process, by position
	class  []string
	big    []bool // drawn notable
	dots   []js.Value
	names  []js.Value // kind names beside the first dots
	dotCls []string   // a dot's class, by message kind (index in Diagram.Kinds)
	shown  int        // dots visible
	named  int        // names visible
	msgs   js.Value   // <g> of the dots
	group  js.Value   // <g> of the ordinary processes
	top    js.Value   // <g> of the notable processes, over the others
	tmpl   js.Value   // a process, to clone
	hot    js.Value   // the link under the pointer in fork mode
	tip    js.Value
	menu   js.Value   // the selected process's actions
	items  []js.Value // its buttons: crash, recover, the commands, the events
	sel    int        // the selected process, by position, or -1
	radius float64    // an ordinary process's, in view box units
	large  float64    // a notable process's
	dotR   float64
}

func newTopoView(a *app, root dom.Element) *topoView {
	t := &topoView{a: a, root: root, sel: -1}
	t.tip = el("div", "tip", "").Underlying()
	t.tip.Set("hidden", true)
	t.menu = el("div", "topo-menu", "").Underlying()
	t.menu.Call("setAttribute", "role", "menu")
	t.menu.Set("hidden", true)
	root.Underlying().Get("parentNode").Call("append", t.tip, t.menu)
	// An item's data-act is its sim.intervene field, the process's id to
	// follow; the events item has none.
	on(t.menu, "click", func(ev js.Value) {
		if b := ev.Get("target").Call("closest", "button"); b.Truthy() {
			act, id := b.Get("dataset").Get("act").String(), t.a.r.Nodes[t.sel]
			t.closeMenu(false)
			if act == "" {
				t.a.log.filterNode(id)
			} else {
				t.a.intervene(act + itoa(id))
			}
		}
	})
	on(doc.Underlying(), "keydown", func(ev js.Value) {
		if ev.Get("key").String() == "Escape" {
			t.closeMenu(true)
		}
	})
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

// pathTo appends an SVG path command (M or L) to the point (x, y), with
// one decimal as f1: a world's links are thousands of them, which fmt
// formats several times slower.
func pathTo(b []byte, cmd byte, x, y float64) []byte {
	b = strconv.AppendFloat(append(b, cmd), x, 'f', 1, 64)
	return strconv.AppendFloat(append(b, ' '), y, 'f', 1, 64)
}

// reset draws the current world's links; addNodes draws its processes.
func (t *topoView) reset() {
	empty(t.root)
	t.nodes, t.class, t.big, t.dots, t.shown, t.dotCls = nil, nil, nil, nil, 0, nil
	t.names, t.named, t.items, t.sel = nil, 0, nil, -1
	t.menu.Set("hidden", true)
	t.menu.Set("textContent", "")
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
	// the menu offers what sim.intervene can do to a process
	labels, acts := []string{"crash", "recover"}, []string{"crash=", "recover="}
	if spec, err := algo.Lookup(a.r.Header.Algorithm); err == nil {
		for _, c := range spec.Commands {
			labels, acts = append(labels, c.Name), append(acts, `command="`+c.Name+`", node=`)
		}
	}
	for i, l := range append(labels, "show its events") {
		b := el("button", "", l).Underlying()
		b.Call("setAttribute", "role", "menuitem")
		if i < len(acts) {
			b.Call("setAttribute", "data-act", acts[i])
		}
		t.menu.Call("append", b)
		t.items = append(t.items, b)
	}
	size := a.lay.Size
	t.radius, t.large = size.Node*100, size.Notable*100
	t.dotR = math.Max(t.radius*0.35, 0.6)
	r := t.radius
	var lines, heads []byte
	for _, e := range a.lay.Edges {
		x0, y0 := t.point(e.A)
		x1, y1 := t.point(e.B)
		// end the line at the circles' rims, so arrowheads show
		dx, dy := x1-x0, y1-y0
		l := math.Max(math.Hypot(dx, dy), 1e-9)
		ux, uy := dx/l, dy/l
		ex, ey := x1-ux*r, y1-uy*r
		lines = pathTo(pathTo(lines, 'M', x0+ux*r, y0+uy*r), 'L', ex, ey)
		const size, half = 2.4, 1.1
		// a head only where the link is long enough to show it: on a
		// crowded ring the heads would hide the dots
		if e.Directed && l > 2*r+2*size {
			bx, by := ex-ux*size, ey-uy*size
			heads = append(pathTo(pathTo(pathTo(heads, 'M', ex, ey), 'L', bx-uy*half, by+ux*half), 'L', bx+uy*half, by-ux*half), 'Z')
		}
	}
	// under the hot link, so the highlight shows on top
	root.Call("insertBefore", rawSVG("path", "class", "edge", "d", string(lines)), t.hot)
	root.Call("insertBefore", rawSVG("path", "class", "edge-head", "d", string(heads)), t.hot)

	// The processes are drawn into a group that joins the page once they
	// are all in it (see addNodes).
	crowd := " crowd" // ordinary processes are dots (site/style.css)
	if size.Labels {
		crowd = ""
	}
	t.group = rawSVG("g", "class", "nodes"+crowd)
	t.tmpl = rawSVG("g", "class", "node", "tabindex", "0", "role", "button")
	t.tmpl.Call("appendChild", rawSVG("circle", "r", f1(r)))
	if size.Labels {
		t.tmpl.Call("appendChild", rawSVG("text", "text-anchor", "middle", "dominant-baseline", "central",
			"font-size", f1(math.Max(r*0.95, 1))))
	}
	// the labels of notable processes and of messages take their text
	// attributes from their group
	t.top = add(rawSVG("g", "class", "notables", "text-anchor", "middle", "dominant-baseline", "central", "font-size", f1(t.large*0.85)))
	// messages go over the processes: on a dense ring the links are short
	t.msgs = add(rawSVG("g", "class", "msgs", "text-anchor", "middle", "dominant-baseline", "central", "font-size", f1(math.Max(r*0.5, 1.5))))
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
		if a.lay.Size.Labels {
			g.Get("lastChild").Set("textContent", itoa(id))
		}
		t.group.Call("appendChild", g)
		t.nodes = append(t.nodes, g)
		t.class = append(t.class, "node")
		t.big = append(t.big, false)
	}
	if len(t.nodes) < len(a.r.Nodes) {
		return true
	}
	if t.group.Get("parentNode").IsNull() {
		t.root.Underlying().Call("insertBefore", t.group, t.top)
	}
	return false
}

// update colours the processes for view v, draws the notable ones large
// where ordinary ones are dots, places the messages, and offers in the
// open menu what applies at v.
func (t *topoView) update(v *replay.View) {
	if t.a.r == nil {
		return
	}
	dots := !t.a.lay.Size.Labels
	for p := range t.nodes {
		class, label := "node", "process "+itoa(t.a.r.Nodes[p])
		c := v.Class(p)
		if c != replay.None {
			class += " cls-" + string(c)
			label += ", " + classLabels[c]
		}
		if class != t.class[p] {
			t.class[p] = class
			t.nodes[p].Call("setAttribute", "class", class)
			// a screen reader hears the state the colour shows
			t.nodes[p].Call("setAttribute", "aria-label", label)
		}
		if big := dots && (c != replay.None || p == t.sel); big != t.big[p] {
			t.grow(p, big)
		}
	}
	if t.sel >= 0 {
		t.showItems(v)
	}
	t.moveMessages(v)
}

// grow draws process p large, labelled and over the dots, or as a dot
// again.
func (t *topoView) grow(p int, big bool) {
	t.big[p] = big
	g := t.nodes[p]
	r, layer := t.radius, t.group
	if big {
		r, layer = t.large, t.top
		g.Call("appendChild", rawSVG("text")).Set("textContent", itoa(t.a.r.Nodes[p]))
	} else {
		g.Get("lastChild").Call("remove")
	}
	g.Get("firstChild").Call("setAttribute", "r", f1(r))
	layer.Call("appendChild", g)
}

// rim is how far from process p's centre a message's dot stays clear of
// it.
func (t *topoView) rim(p int) float64 {
	if p < len(t.big) && t.big[p] {
		return t.large + t.dotR
	}
	return t.radius + t.dotR
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
// along the straight line from its sender's rim to its receiver's, and
// names its kind beside it when there are few and room for the names.
func (t *topoView) moveMessages(v *replay.View) {
	a := t.a
	if a.r == nil {
		return
	}
	flights := v.InFlight()
	name := len(flights) <= maxNames && a.lay.Size.Labels
	shown := 0
	for _, f := range flights {
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
		l := math.Max(math.Hypot(x1-x0, y1-y0), 1e-9)
		ux, uy := (x1-x0)/l, (y1-y0)/l
		if r0, r1 := t.rim(pa), t.rim(pb); l > r0+r1 {
			x0, y0, x1, y1 = x0+ux*r0, y0+uy*r0, x1-ux*r1, y1-uy*r1
		} else {
			frac = 0.5 // no room between the rims: the middle covers least
		}
		x, y := f1(x0+(x1-x0)*frac), f1(y0+(y1-y0)*frac)
		if shown == len(t.dots) {
			d := rawSVG("circle", "r", f1(t.dotR))
			t.msgs.Call("appendChild", d)
			t.dots = append(t.dots, d)
		}
		d := t.dots[shown]
		cls := t.dotCls[a.dia.KindOf(f)]
		d.Call("setAttribute", "cx", x)
		d.Call("setAttribute", "cy", y)
		d.Call("setAttribute", "class", cls)
		d.Call("setAttribute", "data-kind", fl.Kind)
		if name {
			if shown == len(t.names) {
				t.names = append(t.names, t.msgs.Call("appendChild", rawSVG("text")))
			}
			// beside the dot, off the link: to its left as it goes
			n := t.names[shown]
			n.Call("setAttribute", "transform", "translate("+x+" "+y+") translate("+f1(uy*t.dotR*3)+" "+f1(-ux*t.dotR*3)+")")
			n.Call("setAttribute", "class", cls)
			n.Set("textContent", fl.Kind)
		}
		shown++
	}
	for k := shown; k < t.shown; k++ {
		t.dots[k].Call("setAttribute", "class", "msg off")
	}
	t.shown = shown
	if !name {
		shown = 0
	}
	for k := shown; k < t.named; k++ {
		t.names[k].Call("setAttribute", "class", "msg off")
	}
	t.named = shown
}

// place puts e (the tooltip, the menu) at (x, y) in client coordinates or,
// where it would cross the view's right edge, ending at alt.
func (t *topoView) place(e js.Value, x, alt, y float64) {
	box := t.root.Underlying().Get("parentNode").Call("getBoundingClientRect")
	w := e.Get("offsetWidth").Float()
	if x -= box.Get("left").Float(); x+w > box.Get("width").Float() {
		x = alt - box.Get("left").Float() - w
	}
	st := e.Get("style")
	st.Set("left", f1(math.Max(x, 0))+"px")
	st.Set("top", f1(y-box.Get("top").Float())+"px")
}

// nodeAt is the process event ev is on, if any.
func (t *topoView) nodeAt(ev js.Value) (int, bool) {
	g := ev.Get("target").Call("closest", "g.node")
	if !g.Truthy() {
		return 0, false
	}
	var id int
	fmt.Sscan(g.Call("getAttribute", "data-id").String(), &id)
	return t.a.r.Pos(id)
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
	if p, ok := t.nodeAt(ev); ok {
		t.tip.Set("textContent", t.describe(p, a.r.At(a.cursor)))
		t.tip.Set("hidden", false)
		x := ev.Get("clientX").Float()
		t.place(t.tip, x+12, x-12, ev.Get("clientY").Float()+12)
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
			d = string(pathTo(pathTo(nil, 'M', x0, y0), 'L', x1, y1))
		}
	}
	t.hot.Call("setAttribute", "d", d)
}

// click handles a click (or Enter) on the view: in fork mode it intervenes,
// otherwise a process click opens the process's menu, and a click
// elsewhere closes it.
func (t *topoView) click(ev js.Value) {
	a := t.a
	if a.r == nil {
		return
	}
	if p, ok := t.nodeAt(ev); ok {
		if !a.forking {
			t.openMenu(p)
			return
		}
		id := a.r.Nodes[p]
		if a.r.At(a.cursor).Up[p] {
			a.intervene(fmt.Sprintf("crash=%d", id))
		} else {
			a.intervene(fmt.Sprintf("recover=%d", id))
		}
		return
	}
	t.closeMenu(false)
	if !a.forking || ev.Get("clientX").IsUndefined() {
		return
	}
	if k, ok := t.linkAt(t.local(ev)); ok {
		e := a.lay.Edges[k]
		a.intervene(fmt.Sprintf("cut={%d, %d}", a.r.Nodes[e.A], a.r.Nodes[e.B]))
	}
}

// openMenu selects process p and shows beside it what applies to it at
// the cursor (see showItems). Playback pauses, but the cursor can still
// move under the open menu, and the menu follows it.
func (t *topoView) openMenu(p int) {
	t.a.pause()
	t.menu.Call("setAttribute", "aria-label", "process "+itoa(t.a.r.Nodes[p]))
	t.sel = p
	t.update(t.a.r.At(t.a.cursor))
	t.tip.Set("hidden", true) // the menu has what the tooltip would cover
	t.menu.Set("hidden", false)
	n := t.nodes[p].Call("getBoundingClientRect")
	t.place(t.menu, n.Get("right").Float()+4, n.Get("left").Float()-4, n.Get("top").Float())
	t.menu.Call("querySelector", "button:not([hidden])").Call("focus")
}

// showItems shows the menu's items that apply to the selected process in
// view v: crash it if it is up, else recover it; give it a command while
// it is up; show its events in the log. A focused item that goes hands
// the focus to the first one left.
func (t *topoView) showItems(v *replay.View) {
	lost := false
	for i, b := range t.items {
		// crash is items[0], recover items[1], the events the last
		hide := i < len(t.items)-1 && v.Up[t.sel] == (i == 1)
		lost = lost || hide && b.Equal(doc.Underlying().Get("activeElement"))
		b.Set("hidden", hide)
	}
	if lost {
		t.menu.Call("querySelector", "button:not([hidden])").Call("focus")
	}
}

// closeMenu hides the menu and deselects its process, giving the process
// the focus back when the menu was left by key.
func (t *topoView) closeMenu(refocus bool) {
	p := t.sel
	if p < 0 {
		return
	}
	t.menu.Set("hidden", true)
	t.sel = -1
	t.update(t.a.r.At(t.a.cursor))
	if refocus {
		t.nodes[p].Call("focus")
	}
}
