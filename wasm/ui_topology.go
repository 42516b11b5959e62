//go:build js && wasm

package main

// The topology view: processes laid out by topology (package layout),
// labelled with their ids, coloured by their state at the cursor, with the
// messages in flight moving along the links. In fork mode a click on a
// process crashes or recovers it, a click on a link cuts it.

import (
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/wasm/replay"
)

// maxDots bounds the messages drawn in flight.
const maxDots = 400

type topoView struct {
	a      *app
	root   dom.Element
	nodes  []js.Value // <g> per process, by position
	titles []js.Value
	tips   []string // the titles' text
	class  []string
	dots   []js.Value
	shown  int // dots visible
	radius float64
}

func newTopoView(a *app, root dom.Element) *topoView {
	t := &topoView{a: a, root: root}
	on(root.Underlying(), "click", func(ev js.Value) { t.click(ev.Get("target")) })
	on(root.Underlying(), "keydown", func(ev js.Value) {
		if k := ev.Get("key").String(); k == "Enter" || k == " " {
			ev.Call("preventDefault")
			t.click(ev.Get("target"))
		}
	})
	return t
}

func (t *topoView) point(p int) (float64, float64) {
	q := t.a.lay.Pos[p]
	return q.X * 100, q.Y * 100
}

// reset draws the current world's processes and links.
func (t *topoView) reset() {
	empty(t.root)
	t.nodes, t.titles, t.tips, t.class, t.dots, t.shown = nil, nil, nil, nil, nil, 0
	a := t.a
	if a.r == nil {
		return
	}
	n := len(a.r.Nodes)
	t.radius = math.Max(1.2, math.Min(6, 30/math.Sqrt(float64(max(n, 1)))))
	r := t.radius
	defs := svg("defs")
	marker := svg("marker", "id", "topo-arrow", "viewBox", "0 0 10 10", "refX", "10", "refY", "5",
		"markerWidth", "4", "markerHeight", "4", "orient", "auto-start-reverse")
	marker.AppendChild(svg("path", "d", "M0 0L10 5L0 10z", "class", "edge-head"))
	defs.AppendChild(marker)
	t.root.AppendChild(defs)

	edges := svg("g", "class", "edges")
	for _, e := range a.lay.Edges {
		x0, y0 := t.point(e.A)
		x1, y1 := t.point(e.B)
		// end the line at the circles' rims, so arrowheads show
		dx, dy := x1-x0, y1-y0
		l := math.Max(math.Hypot(dx, dy), 1e-9)
		sx, sy, ex, ey := x0+dx/l*r, y0+dy/l*r, x1-dx/l*r, y1-dy/l*r
		attrs := []string{"x1", f1(sx), "y1", f1(sy), "x2", f1(ex), "y2", f1(ey), "class", "edge"}
		if e.Directed {
			attrs = append(attrs, "marker-end", "url(#topo-arrow)")
		}
		edges.AppendChild(svg("line", attrs...))
		idA, idB := itoa(a.r.Nodes[e.A]), itoa(a.r.Nodes[e.B])
		edges.AppendChild(svg("line", "x1", f1(x0), "y1", f1(y0), "x2", f1(x1), "y2", f1(y1), "class", "edge-hit",
			"data-a", idA, "data-b", idB))
	}
	t.root.AppendChild(edges)

	group := svg("g", "class", "nodes")
	font := f1(math.Max(r*0.95, 1))
	for p, id := range a.r.Nodes {
		x, y := t.point(p)
		g := svg("g", "class", "node", "data-id", itoa(id), "tabindex", "0", "role", "button",
			"transform", "translate("+f1(x)+" "+f1(y)+")")
		g.AppendChild(svg("circle", "r", f1(r)))
		if r >= 1.8 {
			label := svg("text", "text-anchor", "middle", "dominant-baseline", "central", "font-size", font)
			label.SetTextContent(itoa(id))
			g.AppendChild(label)
		}
		title := svg("title")
		g.AppendChild(title)
		group.AppendChild(g)
		t.nodes = append(t.nodes, g.Underlying())
		t.titles = append(t.titles, title.Underlying())
		t.tips = append(t.tips, "")
		t.class = append(t.class, "")
	}
	t.root.AppendChild(group)
	// messages go over the processes: on a dense ring the links are short
	t.root.AppendChild(svg("g", "class", "msgs"))
}

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// update colours the processes for view v and places the messages.
func (t *topoView) update(v *replay.View) {
	if t.a.r == nil {
		return
	}
	for p := range t.nodes {
		class := "node"
		if c := v.Class(p); c != replay.None {
			class += " cls-" + string(c)
		}
		if class != t.class[p] {
			t.class[p] = class
			t.nodes[p].Call("setAttribute", "class", class)
		}
		if tip := t.describe(p, v); tip != t.tips[p] {
			t.tips[p] = tip
			t.titles[p].Set("textContent", tip)
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

// kindClass gives each message kind one of eight colours, the same in
// every run.
func kindClass(kind string) string {
	h := fnv.New32a()
	h.Write([]byte(kind))
	return "msg k" + itoa(int(h.Sum32()%8))
}

// moveMessages places a dot for each message in flight at the view's time,
// along the straight line from its sender to its receiver.
func (t *topoView) moveMessages(v *replay.View) {
	a := t.a
	if a.r == nil {
		return
	}
	layer := t.root.Underlying().Call("querySelector", "g.msgs")
	flights := v.InFlight()
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
		if shown == len(t.dots) {
			d := rawSVG("circle", "r", f1(math.Max(t.radius*0.35, 0.6)))
			layer.Call("appendChild", d)
			t.dots = append(t.dots, d)
		}
		d := t.dots[shown]
		d.Call("setAttribute", "cx", f1(x0+(x1-x0)*frac))
		d.Call("setAttribute", "cy", f1(y0+(y1-y0)*frac))
		d.Call("setAttribute", "class", kindClass(fl.Kind))
		d.Call("setAttribute", "data-kind", fl.Kind)
		shown++
	}
	for k := shown; k < t.shown; k++ {
		t.dots[k].Call("setAttribute", "class", "msg off")
	}
	t.shown = shown
}

// click handles a click (or Enter) on the view: in fork mode it intervenes,
// otherwise a process click filters the log to that process.
func (t *topoView) click(target js.Value) {
	a := t.a
	if a.r == nil || !target.Truthy() {
		return
	}
	if g := target.Call("closest", "g.node"); g.Truthy() {
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
	if target.Get("classList").Call("contains", "edge-hit").Bool() && a.forking {
		a.intervene(fmt.Sprintf("cut={%s, %s}", target.Call("getAttribute", "data-a").String(), target.Call("getAttribute", "data-b").String()))
	}
}
