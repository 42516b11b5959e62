//go:build js && wasm

package main

// The event log: a table of the world's events with filters by process,
// type and message kind, and a text search. Only the rows in sight exist
// (a pool of <tr> recycled as the log scrolls), so a trace of any length
// scrolls smoothly. A click selects the event; the selection is shared
// with the diagram.

import (
	"fmt"
	"math"
	"sort"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/core/trace"
	"dsim/wasm/replay"
)

const (
	rowH      = 24.0 // must match #log tr height in style.css
	rowsExtra = 8    // rows drawn above and below the visible ones
)

// rowShows is what a pooled row was last filled with.
type rowShows struct {
	index int
	class string
}

type logView struct {
	a      *app
	table  dom.Element
	scroll js.Value
	body   js.Value
	top    js.Value // spacer rows
	bottom js.Value
	pool   [][4]js.Value // tr, seq, t, text
	shows  []rowShows    // what each pooled row shows
	count  dom.Element

	node, typ, kind, search dom.Element
	// beyond holds the buttons that search the whole run past the window
	// the page holds, for a world it reads in windows.
	beyond dom.Element
	// nodeOpts are the process filter's options while the menu waits to
	// be opened: ten thousand options take a third of a second to build,
	// too long for the task that shows a world.
	nodeOpts [][2]string

	rows  []int // filtered event indexes
	first int   // index into rows of the first pooled row

	// The scroll box's height and position, kept from its resize and
	// scroll events: reading them from the element after the page changed
	// would make the browser lay the page out there and then.
	viewH, scrollTop float64
}

func newLogView(a *app, table, scroll, filters dom.Element) *logView {
	l := &logView{a: a, table: table, scroll: scroll.Underlying()}
	head := el("tr", "", "")
	for _, h := range []string{"#", "t", "event"} {
		head.AppendChild(el("th", "", h))
	}
	empty(table.QuerySelector("thead"))
	table.QuerySelector("thead").AppendChild(head)
	l.body = table.QuerySelector("tbody").Underlying()
	l.top = el("tr", "spacer", "").Underlying()
	l.bottom = el("tr", "spacer", "").Underlying()
	l.body.Call("appendChild", l.top)
	l.body.Call("appendChild", l.bottom)

	label := func(text string, control dom.Element) {
		lab := el("label", "", text+" ")
		lab.AppendChild(control)
		filters.AppendChild(lab)
	}
	l.node = el("select", "", "")
	l.node.SetAttribute("id", "log-node")
	l.typ = el("select", "", "")
	l.typ.SetAttribute("id", "log-type")
	l.kind = el("select", "", "")
	l.kind.SetAttribute("id", "log-kind")
	l.search = el("input", "", "")
	l.search.SetAttribute("id", "log-search")
	l.search.SetAttribute("type", "search")
	l.search.SetAttribute("placeholder", "search events")
	label("Process", l.node)
	label("Type", l.typ)
	label("Kind", l.kind)
	label("Find", l.search)
	l.beyond = el("span", "beyond", "")
	l.beyond.SetAttribute("role", "group")
	l.beyond.SetAttribute("aria-label", "search the whole run")
	for _, b := range []struct {
		text, title string
		forward     bool
	}{
		{"◀ Earlier match", "The last event before these that the filters select, in the whole run", false},
		{"Later match ▶", "The next event after these that the filters select, in the whole run", true},
	} {
		btn := el("button", "", b.text)
		btn.SetAttribute("type", "button")
		btn.SetAttribute("title", b.title)
		forward := b.forward
		onClick(btn, func() { l.findBeyond(forward) })
		l.beyond.AppendChild(btn)
	}
	show(l.beyond, false)
	filters.AppendChild(l.beyond)
	l.count = el("span", "count", "")
	filters.AppendChild(l.count)
	for _, s := range []dom.Element{l.node, l.typ, l.kind} {
		on(s.Underlying(), "change", func(js.Value) { l.refilter() })
	}
	for _, ev := range []string{"pointerdown", "focus"} {
		on(l.node.Underlying(), ev, func(js.Value) { l.fillNodes() })
	}
	// filter as the user types, not on every key
	search := debounce(150, l.refilter)
	on(l.search.Underlying(), "input", func(js.Value) { search() })
	on(l.scroll, "scroll", func(js.Value) {
		l.scrollTop = l.scroll.Get("scrollTop").Float()
		l.render()
	})
	js.Global().Get("ResizeObserver").New(callback(func(js.Value, []js.Value) any {
		l.viewH = l.scroll.Get("clientHeight").Float()
		l.render()
		return nil
	})).Call("observe", l.scroll)
	on(l.body, "click", func(ev js.Value) {
		tr := ev.Get("target").Call("closest", "tr[data-index]")
		if !tr.Truthy() {
			return
		}
		var i int
		fmt.Sscan(tr.Call("getAttribute", "data-index").String(), &i)
		if i == l.a.selected {
			l.a.selectEvent(-1, false)
		} else {
			l.a.selectEvent(i, false)
		}
	})
	on(l.scroll, "keydown", func(ev js.Value) {
		key := ev.Get("key").String()
		if key != "ArrowDown" && key != "ArrowUp" || len(l.rows) == 0 {
			return
		}
		ev.Call("preventDefault")
		ev.Call("stopPropagation")
		k := sort.SearchInts(l.rows, l.a.selected)
		if key == "ArrowDown" && (k < len(l.rows) && l.rows[k] == l.a.selected) {
			k++
		} else if key == "ArrowUp" {
			k--
		}
		k = max(0, min(k, len(l.rows)-1))
		l.a.selectEvent(l.rows[k], false)
	})
	return l
}

// reset fills the filters for the world shown and lists all its events.
func (l *logView) reset() {
	r := l.a.r
	var nodes, types, kinds [][2]string
	if r != nil {
		for _, id := range r.Nodes {
			nodes = append(nodes, [2]string{itoa(id), "P" + itoa(id)})
		}
		present := map[trace.Type]bool{}
		for i := range r.Events {
			present[r.Events[i].Type] = true
		}
		for _, t := range trace.Types() {
			if present[t] {
				types = append(types, [2]string{t.String(), t.String()})
			}
		}
		for _, k := range r.KindNames() {
			kinds = append(kinds, [2]string{k, k})
		}
	}
	l.nodeOpts = nodes
	if len(nodes) <= eagerOptions || value(l.node) != "" {
		l.fillNodes()
	} else {
		fillSelect(l.node, nil)
	}
	fillSelect(l.typ, types)
	fillSelect(l.kind, kinds)
	show(l.beyond, r != nil && l.a.windowed(l.a.world))
	l.refilter()
}

// findBeyond shows the next event after the window the page holds
// (forward), or the last before it, that the filters select: the engine
// searches the whole world, and the window around the event comes.
func (l *logView) findBeyond(forward bool) {
	a := l.a
	if a.r == nil || a.loading {
		return
	}
	world, w := a.world, a.windows[a.world]
	from := w.from
	if forward {
		from = w.to
	}
	res := a.result
	a.eng.Find(world, l.filter(), from, forward, func(at int, err error) {
		switch {
		case a.result != res || a.world != world:
			// the page moved on
		case err != nil:
			a.showError("The run could not be searched: " + err.Error())
		case at < 0 && forward:
			a.showStatus("No later event of the run matches the filters.")
		case at < 0:
			a.showStatus("No earlier event of the run matches the filters.")
		default:
			a.gotoSeq(a.worlds[world].Header.World, uint64(at))
		}
	})
}

// eagerOptions is how many processes the process filter lists at once;
// beyond, it lists them when it is opened.
const eagerOptions = 200

// fillNodes gives the process filter its options, if it waits for them.
func (l *logView) fillNodes() {
	if l.nodeOpts != nil {
		fillSelect(l.node, l.nodeOpts)
		l.nodeOpts = nil
	}
}

// fillSelect makes opts the options of s, after "all", and keeps the value
// chosen if it is still one of them.
func fillSelect(s dom.Element, opts [][2]string) {
	prev := value(s)
	empty(s)
	o := el("option", "", "all")
	o.SetAttribute("value", "")
	s.AppendChild(o)
	for _, opt := range opts {
		o := el("option", "", opt[1])
		o.SetAttribute("value", opt[0])
		s.AppendChild(o)
	}
	setValue(s, prev)
	if value(s) != prev {
		setValue(s, "")
	}
}

func (l *logView) filterNode(id int) {
	l.fillNodes()
	setValue(l.node, itoa(id))
	l.refilter()
}

// clear empties the log until reset fills it: it lists nothing, so that
// no row refers to the world shown before.
func (l *logView) clear() {
	l.hideRows()
	l.rows = nil
	l.count.SetTextContent("")
	l.render()
}

func (l *logView) hideRows() {
	for k := range l.shows {
		if l.shows[k].index != -1 {
			l.shows[k] = rowShows{index: -1}
			l.pool[k][0].Set("hidden", true)
		}
	}
}

// filter is what the log's filters select.
func (l *logView) filter() replay.Filter {
	f := replay.Filter{Node: replay.AnyNode, Kind: value(l.kind), Text: value(l.search)}
	if n := value(l.node); n != "" {
		fmt.Sscan(n, &f.Node)
	}
	if t, ok := trace.ParseType(value(l.typ)); ok {
		f.Type = t
	}
	return f
}

func (l *logView) refilter() {
	l.hideRows()
	r := l.a.r
	l.rows = nil
	if r != nil {
		l.rows = r.Filter(l.filter())
	}
	total := 0
	if r != nil {
		total = len(r.Events)
	}
	if len(l.rows) == total {
		l.count.SetTextContent(fmtInt(total) + " events")
	} else {
		l.count.SetTextContent(fmtInt(len(l.rows)) + " of " + fmtInt(total) + " events")
	}
	l.render()
}

// render fills the pooled rows for the current scroll position.
func (l *logView) render() {
	want := int(l.viewH/rowH) + 2*rowsExtra + 1
	first := max(0, int(l.scrollTop/rowH)-rowsExtra)
	first = min(first, max(0, len(l.rows)-want))
	l.first = first
	for len(l.pool) < want {
		tr := el("tr", "", "").Underlying()
		tr.Set("hidden", true)
		var row [4]js.Value
		row[0] = tr
		for c, cls := range []string{"seq", "t", "ev"} {
			td := el("td", cls, "").Underlying()
			tr.Call("appendChild", td)
			row[c+1] = td
		}
		l.body.Call("insertBefore", tr, l.bottom)
		l.pool = append(l.pool, row)
		l.shows = append(l.shows, rowShows{index: -1})
	}
	shown := 0
	for k, row := range l.pool {
		i := first + k
		if i >= len(l.rows) {
			if l.shows[k].index != -1 {
				l.shows[k] = rowShows{index: -1}
				row[0].Set("hidden", true)
				row[0].Call("removeAttribute", "data-index")
			}
			continue
		}
		shown++
		l.fill(k, l.rows[i])
	}
	l.top.Get("style").Set("height", f1(float64(first)*rowH)+"px")
	l.bottom.Get("style").Set("height", f1(float64(max(0, len(l.rows)-first-shown))*rowH)+"px")
}

// fill makes pooled row k show event i, touching the DOM only for what
// changed.
func (l *logView) fill(k, i int) {
	r := l.a.r
	e := &r.Events[i]
	row, was := l.pool[k], l.shows[k]
	cls := "ty-" + e.Type.String()
	if i >= l.a.cursor {
		cls += " later"
	}
	if i == l.a.selected {
		cls += " selected"
	} else if l.a.past != nil && l.a.past[i] {
		cls += " past"
	} else if l.a.future != nil && l.a.future[i] {
		cls += " future"
	} else if l.a.past != nil && l.a.r.NodeOf(i) >= 0 {
		cls += " concurrent" // neither before nor after the selected event
	}
	if e.Type == trace.Check && !e.Pass {
		cls += " fail"
	}
	if was.index != i {
		if was.index == -1 {
			row[0].Set("hidden", false)
		}
		row[0].Call("setAttribute", "data-index", itoa(i))
		row[1].Set("textContent", itoa(int(e.Seq)))
		row[2].Set("textContent", itoa(int(e.T)))
		row[3].Set("textContent", r.Text(i))
	}
	if was.index != i || was.class != cls {
		row[0].Call("setAttribute", "class", cls)
	}
	l.shows[k] = rowShows{index: i, class: cls}
}

// cursorMoved restyles the rows (those after the cursor are faded).
func (l *logView) cursorMoved() { l.render() }

// reveal scrolls the log so that event i's row is in sight, if the filters
// keep it.
func (l *logView) reveal(i int) {
	k := sort.SearchInts(l.rows, i)
	if k >= len(l.rows) || l.rows[k] != i {
		l.render()
		return
	}
	top := float64(k) * rowH
	if top < l.scrollTop || top+rowH > l.scrollTop+l.viewH {
		// the scroll event that follows reads where it really went
		l.scrollTop = math.Max(0, math.Min(top-l.viewH/2, float64(len(l.rows))*rowH-l.viewH))
		l.scroll.Set("scrollTop", l.scrollTop)
	}
	l.render()
}
