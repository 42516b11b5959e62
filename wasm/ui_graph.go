//go:build js && wasm

package main

// The relations view beside the topology. For a transaction world, the
// global wait-for graph at the cursor (package graph computes it from the
// sites' lock tables, as the deadlock checkers do), transactions on a
// circle, an arc per waiting pair labelled with the items, and a cycle,
// a deadlock, drawn in red and named in the caption. For an atomic commit
// world, the protocol's phases (package phases): where the protocol is,
// and each site's role, phase, vote, decision and stable log, the blocked
// ones marked. Other worlds hide the view.

import (
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/core/algo/agreement"
	"dsim/wasm/graph"
	"dsim/wasm/omtree"
	"dsim/wasm/phases"
	"dsim/wasm/replay"
)

// relView is the relations view: a box in the views' grid, hidden unless
// the world has something to draw.
type relView struct {
	box, title, caption dom.Element
	svg, table, sites   dom.Element
	pick, tree          dom.Element    // the lieutenant whose OM(m) tree is shown, and the tree
	orders              *omtree.Orders // of world, nil where it has none
	views               dom.Element    // the grid, which makes room for the box
	world               *replay.Replay
	history             *phases.History // of world, read when first needed
}

// newRelView makes the view; redraw draws it again at the cursor, when
// another lieutenant is chosen.
func newRelView(redraw func()) *relView {
	r := &relView{box: byID("relations"), title: byID("rel-title"), caption: byID("rel-caption"),
		svg: byID("rel-svg"), table: byID("rel-table"), sites: byID("rel-sites"), pick: byID("rel-pick"), tree: byID("rel-tree"), views: byID("views")}
	on(r.pick.Underlying(), "change", func(js.Value) { redraw() })
	return r
}

// update draws the relations of world w after its first n events, whose
// state is v, or hides the box.
func (r *relView) update(w *replay.Replay, v *replay.View, n int) {
	if w != r.world {
		r.world, r.history, r.orders = w, nil, nil
		// Each reads the whole trace, once per world: only for the
		// family whose view it is, so that a long run of any other
		// algorithm is not scanned (and its messages parsed) for nothing.
		family := ""
		if w != nil {
			family, _, _ = strings.Cut(w.Header.Algorithm, ".")
		}
		switch family {
		case "commit":
			r.history = phases.Read(w)
		case "agreement":
			if o, ok := omtree.Read(w); ok {
				r.orders = o
				r.fillPick()
			}
		}
	}
	if r.orders != nil {
		r.open(true, "Byzantine generals")
		r.drawTree(v, n)
		return
	}
	if r.history != nil {
		if p, ok := phases.At(w, v, r.history, n); ok {
			r.open(true, "Atomic commit")
			r.drawPhases(p)
			return
		}
	}
	g, ok := graph.WaitFor(v)
	r.open(ok, "Wait-for graph")
	if !ok {
		return
	}
	draw(r.svg, g)
	r.drawSites(graph.Augmented(v, w.Nodes))
	switch {
	case len(g.Cycle) > 0:
		r.caption.SetTextContent("Deadlock: " + strings.Join(g.Cycle, " → ") + " → " + g.Cycle[0])
		r.caption.SetAttribute("data-cycle", strings.Join(g.Cycle, " "))
	case len(g.Edges) > 0:
		r.caption.SetTextContent("No cycle: every wait can end.")
		r.caption.RemoveAttribute("data-cycle")
	default:
		r.caption.SetTextContent("No transaction waits.")
		r.caption.RemoveAttribute("data-cycle")
	}
}

// open shows the box, titled, or hides it.
func (r *relView) open(on bool, title string) {
	show(r.box, on)
	if on {
		r.views.Class().Add("with-rel")
		r.title.SetTextContent(title)
	} else {
		r.views.Class().Remove("with-rel")
	}
	show(r.pick, on && title == "Byzantine generals")
	show(r.tree, on && title == "Byzantine generals")
	// an SVG element has no hidden property: the attribute hides it
	if on && title == "Wait-for graph" {
		r.svg.RemoveAttribute("hidden")
	} else {
		r.svg.SetAttribute("hidden", "")
	}
	show(r.table, on && title == "Atomic commit")
	if !on || title != "Wait-for graph" {
		show(r.sites, false)
	}
}

// fillPick offers the lieutenants of the world's orders, the first chosen.
func (r *relView) fillPick() {
	empty(r.pick)
	for _, l := range r.orders.Lieutenants() {
		o := el("option", "", "lieutenant P"+itoa(l))
		o.SetAttribute("value", itoa(l))
		r.pick.AppendChild(o)
	}
}

// drawTree draws the chosen lieutenant's OM(m) tree after the first n
// events, whose state is v: each order it received, by the path of its
// relays, folding into majorities up to its decision; traitors marked.
func (r *relView) drawTree(v *replay.View, n int) {
	l, _ := strconv.Atoi(value(r.pick))
	tr := r.orders.At(l, n)
	traitor := func(id int) bool {
		p, ok := r.world.Pos(id)
		got, _ := v.Get(p, agreement.KeyTraitor)
		return ok && got == "true"
	}
	empty(r.tree)
	var add func(parent dom.Element, nd *omtree.Node)
	add = func(parent dom.Element, nd *omtree.Node) {
		li := el("li", "", "")
		route := ""
		for _, id := range nd.Path {
			route += "P" + itoa(id) + " → "
		}
		got := "nothing yet (" + order(omtree.Retreat) + " by default)"
		if nd.Arrived {
			got = order(nd.Received)
		}
		li.AppendChild(el("span", "route", route+"P"+itoa(l)+": "))
		li.AppendChild(el("span", "value", got))
		if sender := nd.Path[len(nd.Path)-1]; traitor(sender) {
			li.Class().Add("traitor")
			li.AppendChild(el("span", "mark", " P"+itoa(sender)+" is a traitor"))
		}
		if len(nd.Children) > 0 {
			of := []string{order(nd.Received)}
			for _, c := range nd.Children {
				of = append(of, order(c.Result))
			}
			li.AppendChild(el("span", "fold", " ⇒ majority("+strings.Join(of, ", ")+") = "+order(nd.Result)))
			ul := el("ul", "", "")
			for _, c := range nd.Children {
				add(ul, c)
			}
			li.AppendChild(ul)
		}
		parent.AppendChild(li)
	}
	ul := el("ul", "omtree", "")
	add(ul, tr.Root)
	r.tree.AppendChild(ul)
	r.tree.SetAttribute("data-result", itoa(tr.Root.Result))
	r.title.SetTextContent("OM(" + itoa(tr.M) + "): the orders a lieutenant received")
	var parts []string
	for _, id := range r.orders.Lieutenants() {
		p, _ := r.world.Pos(id)
		if traitor(id) {
			parts = append(parts, "P"+itoa(id)+" traitor")
		} else if d, ok := v.Get(p, agreement.KeyDecision); ok {
			k, _ := strconv.Atoi(d)
			parts = append(parts, "P"+itoa(id)+" "+order(k))
		} else {
			parts = append(parts, "P"+itoa(id)+" undecided")
		}
	}
	r.caption.RemoveAttribute("data-cycle")
	r.caption.SetTextContent("Decisions: " + strings.Join(parts, ", "))
}

// order names a general's order: 1 attack, 0 retreat.
func order(v int) string {
	switch v {
	case 1:
		return "attack"
	case 0:
		return "retreat"
	}
	return itoa(v)
}

// drawPhases fills the table of the commit protocol's sites.
func (r *relView) drawPhases(p phases.View) {
	empty(r.table)
	t := el("table", "", "")
	head := el("tr", "", "")
	for _, h := range []string{"site", "phase", "vote", "stable log"} {
		head.AppendChild(el("th", "", h))
	}
	t.AppendChild(head)
	blocked := 0
	for _, s := range p.Sites {
		row := el("tr", "", "")
		who := "P" + itoa(s.ID)
		if s.Role == "coordinator" {
			who += " (coordinator)"
		}
		phase := s.Phase
		switch {
		case !s.Up:
			phase = "down"
			row.Class().Add("down")
		case s.Blocked:
			blocked++
			row.Class().Add("blocked")
		}
		row.SetAttribute("data-phase", phase)
		for _, c := range []string{who, phase, s.Vote, strings.Join(s.Log, " ")} {
			row.AppendChild(el("td", "", c))
		}
		t.AppendChild(row)
	}
	r.table.AppendChild(t)
	caption := "Stage: " + p.Stage
	if blocked > 0 {
		caption += "; " + plural(blocked, "site") + " blocked, waiting for the coordinator"
		r.caption.SetAttribute("data-cycle", "blocked")
	} else {
		r.caption.RemoveAttribute("data-cycle")
	}
	r.caption.SetTextContent(caption)
}

// arcLabel is an arc's items, at the middle of its curve.
type arcLabel struct {
	x, y float64
	text string
	hot  bool
}

// drawSites draws the sites' augmented local graphs under the global
// one, each with its cycle: through P_ex, a deadlock that may be; without
// it, one found.
func (r *relView) drawSites(gs []graph.Graph) {
	empty(r.sites)
	show(r.sites, len(gs) > 0)
	for _, g := range gs {
		fig := el("figure", "site-graph", "")
		fig.SetAttribute("data-site", g.Title)
		svg := wrap(rawSVG("svg", "viewBox", "0 0 100 100", "role", "img", "aria-label", "augmented wait-for graph of "+g.Title))
		draw(svg, g)
		fig.AppendChild(svg)
		cap := g.Title
		if len(g.Cycle) > 0 {
			cap += ": " + strings.Join(g.Cycle, " → ") + " → " + g.Cycle[0]
			fig.SetAttribute("data-cycle", strings.Join(g.Cycle, " "))
		}
		fig.AppendChild(el("figcaption", "", cap))
		r.sites.AppendChild(fig)
	}
}

// draw replaces the SVG's content with g, in a 100×100 view box. Arcs
// stop at the circles' rims so that their arrowheads show; an arc with a
// twin going back bends, so that the two do not overlap.
func draw(svg dom.Element, g graph.Graph) {
	empty(svg)
	root := svg.Underlying()
	const rad = 8.0
	var plain, hot, heads, hotHeads []byte
	var labels []arcLabel
	for _, e := range g.Edges {
		a, b := g.Nodes[e.From], g.Nodes[e.To]
		x0, y0, x1, y1 := a.X*100, a.Y*100, b.X*100, b.Y*100
		dx, dy := x1-x0, y1-y0
		d := math.Hypot(dx, dy)
		if d < 2*rad {
			continue
		}
		ux, uy := dx/d, dy/d
		bend := 0.0
		for _, f := range g.Edges {
			if f.From == e.To && f.To == e.From {
				bend = 14
			}
		}
		// the control point, off the middle to the arc's left
		cx, cy := (x0+x1)/2+uy*bend, (y0+y1)/2-ux*bend
		sx, sy := x0+ux*rad, y0+uy*rad
		ex, ey := x1-ux*rad, y1-uy*rad
		path := &plain
		headPath := &heads
		if e.Cycle {
			path, headPath = &hot, &hotHeads
		}
		*path = append(*path, "M"+f1(sx)+" "+f1(sy)+"Q"+f1(cx)+" "+f1(cy)+" "+f1(ex)+" "+f1(ey)...)
		// the arrowhead along the direction from the control point
		hx, hy := ex-cx, ey-cy
		hd := math.Hypot(hx, hy)
		hx, hy = hx/hd, hy/hd
		*headPath = append(*headPath, "M"+f1(ex)+" "+f1(ey)+"L"+f1(ex-hx*3.5-hy*2)+" "+f1(ey-hy*3.5+hx*2)+"L"+f1(ex-hx*3.5+hy*2)+" "+f1(ey-hy*3.5-hx*2)+"Z"...)
		labels = append(labels, arcLabel{(sx+ex)/4 + cx/2, (sy+ey)/4 + cy/2, e.Label, e.Cycle})
	}
	add := func(tag string, attrs ...string) { root.Call("appendChild", rawSVG(tag, attrs...)) }
	add("path", "class", "wait", "d", string(plain))
	add("path", "class", "wait-head", "d", string(heads))
	add("path", "class", "wait cycle", "d", string(hot))
	add("path", "class", "wait-head cycle", "d", string(hotHeads))
	for _, l := range labels {
		cls := "wait-item"
		if l.hot {
			cls += " cycle"
		}
		t := rawSVG("text", "class", cls, "x", f1(l.x), "y", f1(l.y))
		t.Set("textContent", l.text)
		root.Call("appendChild", t)
	}
	for _, n := range g.Nodes {
		gr := rawSVG("g", "class", "txn", "data-id", itoa(n.ID))
		gr.Call("appendChild", rawSVG("circle", "cx", f1(n.X*100), "cy", f1(n.Y*100), "r", f1(rad)))
		t := rawSVG("text", "x", f1(n.X*100), "y", f1(n.Y*100))
		t.Set("textContent", n.Label)
		gr.Call("appendChild", t)
		root.Call("appendChild", gr)
	}
}
