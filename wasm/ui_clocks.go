//go:build js && wasm

package main

// The chart of clock error over time, under the space-time diagram: each
// process's clock minus true time, a line per process, the band of all of
// them behind (its height is the skew), and a tick under the plot for each
// correction, the synchronization rounds. A run whose clocks all read
// true time has no chart. The engine, which holds the whole trace, draws
// up the chart (package clockerr), so a world the page reads in windows
// gets the whole run's.
//
// With two or more worlds whose clocks drift, "Compare worlds" draws each
// world's largest error of any process over time, one line per world:
// Cristian, Berkeley and NTP on the same drifting clocks, in one picture.

import (
	"fmt"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/wasm/clockerr"
)

const (
	chartCols = 400
	chartW    = 1000.0 // the plot's viewBox, stretched to the page's width
	chartH    = 200.0
	markH     = 8.0 // the correction ticks, under the plot
	// maxCompared is the most worlds a comparison asks the engine for.
	maxCompared = 8
)

type clockView struct {
	a                             *app
	box, compare, legend, caption dom.Element
	top, bottom, end              dom.Element // the axes' labels
	svg, cursor                   js.Value
	charts                        []*clockerr.Chart // by world; nil: none or not known yet
	known                         []bool            // the engine answered for the world
	run                           int               // the result the charts are of
	comparing                     bool
	t1                            float64 // the last time the plot spans
}

func newClockView(a *app) *clockView {
	c := &clockView{a: a, box: byID("clocks"), compare: byID("clock-compare"), legend: byID("clock-legend"),
		caption: byID("clock-caption"), top: byID("clock-top"), bottom: byID("clock-bottom"), end: byID("clock-end")}
	c.svg = byID("clock-svg").Underlying()
	onClick(c.compare, func() {
		c.comparing = !c.comparing
		c.render()
	})
	return c
}

// reset forgets the charts of the previous run.
func (c *clockView) reset(worlds int) {
	c.charts, c.known = make([]*clockerr.Chart, worlds), make([]bool, worlds)
	c.run = c.a.result.ID
	show(c.box, false)
}

// showWorld shows the chart of world i, once the engine has drawn it up,
// and asks for the other worlds' to offer a comparison.
func (c *clockView) showWorld(i int) {
	if i >= len(c.charts) {
		show(c.box, false)
		return
	}
	c.fetch(i, func() {
		if c.a.world != i {
			return
		}
		c.render()
		if c.charts[i] == nil {
			return
		}
		for k := range min(len(c.charts), maxCompared) {
			c.fetch(k, c.render)
		}
	})
}

func (c *clockView) fetch(i int, then func()) {
	if c.known[i] {
		then()
		return
	}
	run := c.run
	c.a.eng.Clocks(i, chartCols, func(ch *clockerr.Chart, err error) {
		if c.run != run || c.known[i] {
			return
		}
		c.known[i], c.charts[i] = true, ch
		if err != nil {
			c.a.showError("The clock chart could not be drawn: " + err.Error())
		}
		then()
	})
}

// compared are the worlds a comparison draws: those whose clocks drift.
func (c *clockView) compared() []int {
	var out []int
	for k, ch := range c.charts {
		if ch != nil {
			out = append(out, k)
		}
	}
	return out
}

func (c *clockView) render() {
	i := c.a.world
	if i >= len(c.charts) || c.charts[i] == nil {
		show(c.box, false)
		return
	}
	show(c.box, true)
	worlds := c.compared()
	show(c.compare, len(worlds) > 1)
	c.comparing = c.comparing && len(worlds) > 1
	c.compare.SetAttribute("aria-pressed", fmt.Sprint(c.comparing))
	c.svg.Set("innerHTML", "")
	empty(c.legend)
	ch := c.charts[i]
	if c.comparing {
		c.renderComparison(worlds)
	} else {
		c.renderWorld(ch)
	}
	c.cursor = rawSVG("line", "class", "cursor", "y1", "0", "y2", ftoa(chartH+markH))
	c.svg.Call("append", c.cursor)
	c.moveCursor(c.a.viewT)
}

// plot maps columns and errors to the viewBox, over errors lo..hi.
type plot struct {
	cols   int
	lo, hi float64
}

func (p plot) x(col int) string { return ftoa((float64(col) + 0.5) * chartW / float64(p.cols)) }
func (p plot) y(err float64) string {
	return ftoa(chartH - (err-p.lo)/(p.hi-p.lo)*chartH)
}

// span is the errors' range with 0 in it, a little wider so that no line
// runs along an edge.
func spanOf(lo, hi int64) plot {
	l, h := float64(min(lo, 0)), float64(max(hi, 0))
	pad := max((h-l)*0.08, 1)
	return plot{lo: l - pad, hi: h + pad}
}

func (c *clockView) renderWorld(ch *clockerr.Chart) {
	var lo, hi int64
	for k := range ch.Cols {
		if ch.Has[k] {
			lo, hi = min(lo, ch.Lo[k]), max(hi, ch.Hi[k])
		}
	}
	p := spanOf(lo, hi)
	p.cols = ch.Cols
	c.axes(p, ch.End)
	// the band of every process's error, whose height is the skew, where
	// not every process has its line
	n := len(c.a.worlds[c.a.world].Header.IDs)
	if n > len(ch.Procs) {
		c.band(p, ch)
	}
	for l, line := range ch.Lines {
		pts := make([]string, len(line))
		for k, pt := range line {
			pts[k] = p.x(pt.Col) + "," + p.y(float64(pt.Err))
		}
		c.line(l, pts, fmt.Sprintf("P%d", ch.Procs[l]))
	}
	for _, m := range ch.Marks {
		c.svg.Call("append", rawSVG("line", "class", "mark", "x1", p.x(m), "x2", p.x(m), "y1", ftoa(chartH), "y2", ftoa(chartH+markH)))
	}
	c.caption.SetTextContent("Each process's clock minus true time, in ticks; the ticks under the plot are clock corrections.")
	if n > len(ch.Procs) {
		c.caption.SetTextContent(fmt.Sprintf("The clocks of the first %d of %d processes minus true time, in ticks; the grey band holds all of them; the ticks under the plot are clock corrections.", len(ch.Procs), n))
	}
}

func (c *clockView) band(p plot, ch *clockerr.Chart) {
	var pts []string // along the top, then back along the bottom
	for k := range ch.Cols {
		if ch.Has[k] {
			pts = append(pts, p.x(k)+","+p.y(float64(ch.Hi[k])))
		}
	}
	for k := ch.Cols - 1; k >= 0; k-- {
		if ch.Has[k] {
			pts = append(pts, p.x(k)+","+p.y(float64(ch.Lo[k])))
		}
	}
	band := rawSVG("polygon", "class", "band", "points", strings.Join(pts, " "))
	band.Call("append", rawSVG("title"))
	band.Get("firstChild").Set("textContent", "the band of every process's error; its height is the skew")
	c.svg.Call("append", band)
}

func (c *clockView) renderComparison(worlds []int) {
	var hi int64
	worst := make([][]int64, len(worlds))
	var end int64
	for k, w := range worlds {
		ch := c.charts[w]
		worst[k] = ch.Worst()
		end = max(end, ch.End)
		for _, e := range worst[k] {
			hi = max(hi, e)
		}
	}
	p := spanOf(0, hi)
	p.cols = chartCols
	c.axes(p, end)
	for k, w := range worlds {
		ch := c.charts[w]
		var pts []string
		for col, e := range worst[k] {
			if ch.Has[col] {
				// each world's columns span its own end: place them on the common axis
				x := (float64(col) + 0.5) / float64(ch.Cols) * float64(ch.End+1) / float64(end+1) * chartW
				pts = append(pts, ftoa(x)+","+p.y(float64(e)))
			}
		}
		h := c.a.worlds[w].Header
		c.line(k, pts, fmt.Sprintf("world %d: %s", h.World, h.Algorithm))
	}
	c.caption.SetTextContent("Each world's largest clock error of any process (|clock − true time|, in ticks) over time.")
}

// axes labels the plot and draws its zero line.
func (c *clockView) axes(p plot, end int64) {
	c.svg.Call("append", rawSVG("line", "class", "zero", "x1", "0", "x2", ftoa(chartW), "y1", p.y(0), "y2", p.y(0)))
	c.top.SetTextContent(fmt.Sprintf("%+.0f", p.hi))
	c.bottom.SetTextContent(fmt.Sprintf("%+.0f", p.lo))
	c.end.SetTextContent("t=" + fmtInt(int(end)))
	c.t1 = float64(end)
}

// line draws line l, and its entry in the legend.
func (c *clockView) line(l int, pts []string, name string) {
	class := fmt.Sprintf("line c%d", l%clockerr.MaxLines)
	pl := rawSVG("polyline", "class", class, "points", strings.Join(pts, " "))
	pl.Call("setAttribute", "data-name", name)
	c.svg.Call("append", pl)
	li := el("li", class, name)
	c.legend.AppendChild(li)
}

// moveCursor puts the cursor at true time t.
func (c *clockView) moveCursor(t float64) {
	if c.cursor.IsUndefined() || c.box.Underlying().Get("hidden").Truthy() {
		return
	}
	x := ftoa(t / (c.t1 + 1) * chartW)
	c.cursor.Call("setAttribute", "x1", x)
	c.cursor.Call("setAttribute", "x2", x)
}
