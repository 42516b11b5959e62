//go:build js && wasm

package main

// The chart under the space-time diagram, of a number per process over
// time. Where clocks drift, it is the chart of clock error: each process's
// clock minus true time, a line per process, the band of all of them
// behind past a dozen lines (its height is the skew), and a tick under the
// plot for each correction, the synchronization rounds. Elsewhere it is the
// chart of the state key the algorithm marks for it (algo.StateKey.Chart),
// such as each replica's balance, in steps: two replicas diverging or
// agreeing. A world with neither has no chart. The engine, which holds the
// whole trace, draws up the chart (package series), so a world the page
// reads in windows gets the whole run's.
//
// With two or more worlds whose clocks drift, "Compare worlds" draws each
// world's largest clock error of any process over time, one line per world:
// Cristian, Berkeley and NTP on the same drifting clocks, in one picture.
//
// The clocks' first offsets can dwarf the error that synchronization
// leaves: "Zoom to synchronized" scales the chart to what the clocks keep
// to after the first correction (series.Chart.Settled). "Hide" folds the
// chart away, for a screen too short for the diagram, the chart and the
// log together.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/core/algo"
	"dsim/wasm/series"
)

const (
	chartCols = 400
	chartW    = 1000.0 // the plot's viewBox, stretched to the page's width
	chartH    = 200.0
	markH     = 8.0 // the correction ticks, under the plot
	// maxCompared is the most worlds a comparison asks the engine for.
	maxCompared = 8
)

type chartView struct {
	a                             *app
	box, compare, legend, caption dom.Element
	zoom, fold, body              dom.Element
	title                         dom.Element
	top, bottom, end              dom.Element // the axes' labels
	svg, cursor                   js.Value
	charts                        []*series.Chart // by world; nil: none or not known yet
	keys                          []string        // by world: the chart's state key, "" for clock error
	known                         []bool          // the engine answered for the world
	run                           int             // the result the charts are of
	comparing, zooming, folded    bool
	t1                            float64 // the last time the plot spans
}

func newChartView(a *app) *chartView {
	c := &chartView{a: a, box: byID("clocks"), compare: byID("clock-compare"), legend: byID("clock-legend"),
		caption: byID("clock-caption"), title: byID("clock-title"), top: byID("clock-top"), bottom: byID("clock-bottom"), end: byID("clock-end")}
	c.zoom, c.fold, c.body = byID("clock-zoom"), byID("clock-fold"), byID("clock-body")
	c.svg = byID("clock-svg").Underlying()
	onClick(c.compare, func() {
		c.comparing = !c.comparing
		c.render()
	})
	onClick(c.zoom, func() {
		c.zooming = !c.zooming
		c.render()
	})
	onClick(c.fold, func() {
		c.folded = !c.folded
		show(c.body, !c.folded)
		c.fold.SetAttribute("aria-expanded", fmt.Sprint(!c.folded))
		c.fold.SetTextContent(map[bool]string{false: "Hide", true: "Show"}[c.folded])
	})
	return c
}

// reset forgets the charts of the previous run.
func (c *chartView) reset(worlds int) {
	c.charts, c.keys, c.known = make([]*series.Chart, worlds), make([]string, worlds), make([]bool, worlds)
	c.run = c.a.result.ID
	show(c.box, false)
}

// showWorld shows the chart of world i, once the engine has drawn it up,
// and asks for the other worlds' to offer a comparison.
func (c *chartView) showWorld(i int) {
	if i >= len(c.charts) {
		show(c.box, false)
		return
	}
	c.fetch(i, func() {
		if c.a.world != i {
			return
		}
		c.render()
		if c.charts[i] == nil || c.keys[i] != "" {
			return
		}
		for k := range min(len(c.charts), maxCompared) {
			c.fetch(k, c.render)
		}
	})
}

// fetch asks the engine for world i's chart of clock error, and, when its
// clocks read true time, for the chart of its algorithm's chart key.
func (c *chartView) fetch(i int, then func()) {
	if c.known[i] {
		then()
		return
	}
	run := c.run
	var ask func(key string)
	ask = func(key string) {
		c.a.eng.Chart(i, key, chartCols, func(ch *series.Chart, err error) {
			if c.run != run || c.known[i] {
				return
			}
			if err != nil {
				c.a.showError("The chart could not be drawn: " + err.Error())
			}
			if next := chartKey(c.a.worlds[i].Header.Algorithm); ch == nil && err == nil && key == "" && next != "" {
				ask(next)
				return
			}
			c.known[i], c.charts[i], c.keys[i] = true, ch, key
			then()
		})
	}
	ask("")
}

// chartKey is the state key algorithm alg marks for the chart, or "".
func chartKey(alg string) string {
	spec, err := algo.Lookup(alg)
	if err != nil {
		return ""
	}
	for _, k := range spec.State {
		if k.Chart {
			return k.Key
		}
	}
	return ""
}

// compared are the worlds a comparison draws: those whose clocks drift.
func (c *chartView) compared() []int {
	var out []int
	for k, ch := range c.charts {
		if ch != nil && c.keys[k] == "" {
			out = append(out, k)
		}
	}
	return out
}

func (c *chartView) render() {
	i := c.a.world
	if i >= len(c.charts) || c.charts[i] == nil {
		show(c.box, false)
		return
	}
	show(c.box, true)
	worlds := c.compared()
	show(c.compare, len(worlds) > 1 && c.keys[i] == "")
	c.comparing = c.comparing && len(worlds) > 1 && c.keys[i] == ""
	c.compare.SetAttribute("aria-pressed", fmt.Sprint(c.comparing))
	show(c.zoom, c.keys[i] == "" && len(c.charts[i].Marks) > 0)
	c.zoom.SetAttribute("aria-pressed", fmt.Sprint(c.zooming))
	c.svg.Get("classList").Call("remove", "zoomed")
	c.svg.Set("innerHTML", "")
	empty(c.legend)
	ch, key := c.charts[i], c.keys[i]
	switch {
	case key != "":
		c.title.SetTextContent(strings.ToUpper(key[:1]) + key[1:])
		c.svg.Call("setAttribute", "aria-label", key+" over time")
		c.renderWorld(ch, key)
	case c.comparing:
		c.title.SetTextContent("Clock error")
		c.svg.Call("setAttribute", "aria-label", "each world's largest clock error over time")
		c.renderComparison(worlds)
	default:
		c.title.SetTextContent("Clock error")
		c.svg.Call("setAttribute", "aria-label", "clock error over time")
		c.renderWorld(ch, key)
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

// spanOf is the values' range, with 0 in it for errors, a little wider so
// that no line runs along an edge; values that are never negative (a
// balance, an error's size) are not given a negative scale.
func spanOf(lo, hi int64, zero bool) plot {
	if zero {
		lo, hi = min(lo, 0), max(hi, 0)
	}
	l, h := float64(lo), float64(hi)
	pad := max((h-l)*0.08, 1)
	p := plot{lo: l - pad, hi: h + pad}
	if lo >= 0 {
		p.lo = max(p.lo, 0)
	}
	return p
}

// renderWorld draws a line per process of chart ch, of state key key or
// of clock error for "".
func (c *chartView) renderWorld(ch *series.Chart, key string) {
	lo, hi, seen := int64(0), int64(0), false
	for k := range ch.Cols {
		if !ch.Has[k] {
			continue
		}
		if !seen {
			lo, hi, seen = ch.Lo[k], ch.Hi[k], true
		}
		lo, hi = min(lo, ch.Lo[k]), max(hi, ch.Hi[k])
	}
	zoomed := false
	if l, h, ok := ch.Settled(); ok && key == "" && c.zooming {
		lo, hi, zoomed = l, h, true
	}
	p := spanOf(lo, hi, key == "")
	p.cols = ch.Cols
	c.axes(p, ch.End, key == "")
	// the band of every process's error, whose height is the skew, where
	// not every process has its line
	n := len(c.a.worlds[c.a.world].Header.IDs)
	if n > len(ch.Procs) {
		c.band(p, ch)
	}
	for l, line := range ch.Lines {
		if len(line) == 0 {
			continue // a process without a value
		}
		pts := make([]string, len(line))
		for k, pt := range line {
			pts[k] = p.x(pt.Col) + "," + p.y(float64(pt.Val))
		}
		c.line(l, pts, fmt.Sprintf("P%d", ch.Procs[l]), line[len(line)-1].Val)
	}
	for _, m := range ch.Marks {
		c.svg.Call("append", rawSVG("line", "class", "mark", "x1", p.x(m), "x2", p.x(m), "y1", ftoa(chartH), "y2", ftoa(chartH+markH)))
	}
	what := "clock minus true time, in ticks; the ticks under the plot are clock corrections"
	if key != "" {
		what = key + " over time"
	}
	caption := "Each process's " + what + "."
	if n > len(ch.Procs) {
		caption = fmt.Sprintf("The first %d of %d processes: each one's %s; the grey band holds all of them.", len(ch.Procs), n, what)
	}
	c.caption.SetTextContent(caption + c.zoomed(zoomed))
}

// zoomed clips the plot when zoomed, and says so in the caption.
func (c *chartView) zoomed(zoomed bool) string {
	if !zoomed {
		return ""
	}
	c.svg.Get("classList").Call("add", "zoomed")
	return " Zoomed to the error once synchronized: a line leaves the plot where it goes beyond."
}

func (c *chartView) band(p plot, ch *series.Chart) {
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

func (c *chartView) renderComparison(worlds []int) {
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
	zoomed := false
	if c.zooming {
		var top int64
		for _, w := range worlds {
			if _, h, ok := c.charts[w].SettledWorst(); ok {
				top, zoomed = max(top, h), true
			}
		}
		if zoomed {
			hi = top
		}
	}
	p := spanOf(0, hi, true)
	p.cols = chartCols
	c.axes(p, end, true)
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
		c.line(k, pts, fmt.Sprintf("world %d: %s", h.World, h.Algorithm), worst[k][len(worst[k])-1])
	}
	c.caption.SetTextContent("Each world's largest clock error of any process (|clock − true time|, in ticks) over time." + c.zoomed(zoomed))
}

// axes labels the plot, and draws its zero line for errors.
func (c *chartView) axes(p plot, end int64, errors bool) {
	format := "%.0f"
	if errors {
		c.svg.Call("append", rawSVG("line", "class", "zero", "x1", "0", "x2", ftoa(chartW), "y1", p.y(0), "y2", p.y(0)))
		format = "%+.0f"
	}
	label := func(v float64) string {
		if math.Round(v) == 0 {
			return "0"
		}
		return fmt.Sprintf(format, v)
	}
	c.top.SetTextContent(label(p.hi))
	c.bottom.SetTextContent(label(p.lo))
	c.end.SetTextContent("t=" + fmtInt(int(end)))
	c.t1 = float64(end)
}

// line draws line l, whose last value is last, and its entry in the
// legend.
func (c *chartView) line(l int, pts []string, name string, last int64) {
	class := fmt.Sprintf("line c%d", l%series.MaxLines)
	pl := rawSVG("polyline", "class", class, "points", strings.Join(pts, " "), "data-name", name, "data-last", strconv.FormatInt(last, 10))
	c.svg.Call("append", pl)
	// the last value beside the name: two replicas a unit apart differ
	// by less than a pixel on the plot
	li := el("li", class, name+" ")
	li.AppendChild(el("b", "", strconv.FormatInt(last, 10)))
	li.SetAttribute("title", name+" ends at "+strconv.FormatInt(last, 10))
	c.legend.AppendChild(li)
}

// moveCursor puts the cursor at true time t.
func (c *chartView) moveCursor(t float64) {
	if c.cursor.IsUndefined() || c.box.Underlying().Get("hidden").Truthy() {
		return
	}
	x := ftoa(t / (c.t1 + 1) * chartW)
	c.cursor.Call("setAttribute", "x1", x)
	c.cursor.Call("setAttribute", "x2", x)
}
