//go:build js && wasm

package main

// The panels: node state at the cursor, messages by kind, and the checks,
// each of which links to its event.

import (
	"fmt"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/core/trace"
	"dsim/wasm/replay"
)

// maxStateRows bounds the node state table until the user asks for all
// the rows: a world of many processes is better read in the log.
const maxStateRows = 64

// display turns a state value's JSON text into what a reader expects: a
// string without its quotes, anything else as JSON.
func display(v string) string {
	if strings.HasPrefix(v, `"`) {
		if s, err := trace.Unquote(v); err == nil {
			return s
		}
	}
	return v
}

var classLabels = map[replay.Class]string{
	replay.Crashed: "crashed", replay.InCS: "in CS", replay.Token: "holds the token",
	replay.Leader: "leader", replay.Candidate: "candidate", replay.Waiting: "waiting",
	replay.Running: "runs a transaction",
}

// summary is one line about the run at the cursor: who leads, who is in
// the critical section or holds the token, who is down.
func summary(r *replay.Replay, v *replay.View) string {
	var parts []string
	leaders := map[string]int{}
	var order []string
	live := 0
	var crashed, inCS, token []string
	for p, id := range r.Nodes {
		if !v.Up[p] {
			crashed = append(crashed, fmt.Sprint(id))
			continue
		}
		live++
		if l, ok := v.Leader(p); ok {
			if leaders[l] == 0 {
				order = append(order, l)
			}
			leaders[l]++
		}
		switch v.Class(p) {
		case replay.InCS:
			inCS = append(inCS, fmt.Sprint(id))
		case replay.Token:
			token = append(token, fmt.Sprint(id))
		}
	}
	switch {
	case len(order) == 1 && leaders[order[0]] == live:
		parts = append(parts, fmt.Sprintf("leader %s, known to all %d live processes", display(order[0]), live))
	case len(order) == 1:
		parts = append(parts, fmt.Sprintf("leader %s, known to %d of %d live processes", display(order[0]), leaders[order[0]], live))
	case len(order) > 1:
		var ls []string
		for _, l := range order {
			ls = append(ls, fmt.Sprintf("%s (%d)", display(l), leaders[l]))
		}
		parts = append(parts, "leaders differ: "+strings.Join(ls, ", "))
	}
	if len(inCS) > 0 {
		parts = append(parts, "in CS: "+strings.Join(inCS, ", "))
	}
	if len(token) > 0 {
		parts = append(parts, "token at "+strings.Join(token, ", "))
	}
	if len(crashed) > 0 {
		parts = append(parts, "crashed: "+strings.Join(crashed, ", "))
	}
	return strings.Join(parts, " · ")
}

// stateTable is the node state panel: one row per process, one column per
// state key the run ever sets. It is built once per world; moving the
// cursor only rewrites the cells whose text changes.
type stateTable struct {
	rows  []js.Value   // <tr> per process shown
	cells [][]js.Value // status cell, then one per key
	text  [][]string   // what each cell shows
	class []string
}

func (a *app) resetState() {
	box := a.el.state
	empty(box)
	a.states = stateTable{}
	if a.r == nil {
		return
	}
	t := &a.states
	keys := a.r.StateKeys
	table := el("table", "state", "")
	head := el("tr", "", "")
	for _, h := range append([]string{"process", "status"}, keys...) {
		head.AppendChild(el("th", "", h))
	}
	thead := el("thead", "", "")
	thead.AppendChild(head)
	table.AppendChild(thead)
	body := el("tbody", "", "").Underlying()
	// rows are clones of a template: one call makes a row and its cells
	tmpl := el("tr", "", "").Underlying()
	tmpl.Call("appendChild", el("td", "pid", "").Underlying())
	tmpl.Call("appendChild", el("td", "status", "").Underlying())
	for range keys {
		tmpl.Call("appendChild", el("td", "", "").Underlying())
	}
	rows := len(a.r.Nodes)
	if !a.stateAll {
		rows = min(rows, maxStateRows)
	}
	for _, id := range a.r.Nodes[:rows] {
		tr := tmpl.Call("cloneNode", true)
		tr.Call("setAttribute", "data-id", itoa(id))
		cells := tr.Get("cells")
		cells.Index(0).Set("textContent", "P"+itoa(id))
		row := make([]js.Value, len(keys)+1)
		for k := range row {
			row[k] = cells.Index(k + 1)
		}
		body.Call("appendChild", tr)
		t.rows = append(t.rows, tr)
		t.cells = append(t.cells, row)
		t.text = append(t.text, make([]string, len(row)))
		t.class = append(t.class, "")
	}
	if more := len(a.r.Nodes) - rows; more > 0 {
		tr := el("tr", "", "")
		td := el("td", "more", fmt.Sprintf("… and %d more processes ", more))
		td.SetAttribute("colspan", itoa(len(keys)+2))
		all := el("button", "", "show all")
		all.SetAttribute("type", "button")
		onClick(all, func() {
			a.stateAll = true
			a.resetState()
			a.renderState(a.r.At(a.cursor))
		})
		td.AppendChild(all)
		tr.AppendChild(td)
		body.Call("appendChild", tr.Underlying())
	}
	table.Underlying().Call("appendChild", body)
	box.AppendChild(table)
}

func (a *app) renderState(v *replay.View) {
	t := &a.states
	if v == nil || a.r == nil {
		return
	}
	set := func(p, k int, s string) {
		if t.text[p][k] != s {
			t.text[p][k] = s
			t.cells[p][k].Set("textContent", s)
		}
	}
	for p := range t.rows {
		class := v.Class(p)
		if cls := "cls-" + string(class); cls != t.class[p] {
			t.class[p] = cls
			t.rows[p].Call("setAttribute", "class", cls)
		}
		status := "up"
		if l, ok := classLabels[class]; ok {
			status = l
		}
		set(p, 0, status)
		for k, key := range a.r.StateKeys {
			val, _ := v.Get(p, key)
			set(p, k+1, display(val))
		}
	}
}

func (a *app) renderStats() {
	if a.r == nil {
		empty(a.el.stats)
		return
	}
	if a.windowed(a.world) { // the window's counts are not the run's
		a.renderSummary(a.result.Worlds[a.world])
		return
	}
	end := int64(0)
	if n := len(a.r.Events); n > 0 {
		end = a.r.Events[n-1].T
	}
	a.fillStats(a.r.Kinds, fmt.Sprintf("%s events, %d processes, ends at t=%s. Topology %s, seed %d.",
		fmtInt(len(a.r.Events)), len(a.r.Nodes), fmtInt(int(end)), a.r.Header.Topology, a.r.Header.Seed))
}

// renderSummary fills the statistics of a world the page reads in windows
// from the engine's summary of it.
func (a *app) renderSummary(w WorldSummary) {
	a.fillStats([]replay.KindStat{{Kind: "all", Sent: w.Sent, Delivered: w.Delivered, Dropped: w.Dropped}},
		fmt.Sprintf("%s events, %s processes, ends at t=%s. Seed %d.", fmtInt(w.Events), fmtInt(w.Processes), fmtInt(int(w.End)), w.Seed))
}

// fillStats shows a table of messages by kind, with a total row when
// there are several, and a note under it.
func (a *app) fillStats(kinds []replay.KindStat, note string) {
	box := a.el.stats
	empty(box)
	table := el("table", "stats", "")
	head := el("tr", "", "")
	for _, h := range []string{"kind", "sent", "delivered", "dropped"} {
		head.AppendChild(el("th", "", h))
	}
	thead := el("thead", "", "")
	thead.AppendChild(head)
	table.AppendChild(thead)
	body := el("tbody", "", "")
	var sent, delivered, dropped int
	row := func(cells ...string) dom.Element {
		tr := el("tr", "", "")
		for i, c := range cells {
			cls := ""
			if i > 0 {
				cls = "num"
			}
			tr.AppendChild(el("td", cls, c))
		}
		body.AppendChild(tr)
		return tr
	}
	for _, k := range kinds {
		row(k.Kind, fmtInt(k.Sent), fmtInt(k.Delivered), fmtInt(k.Dropped)).SetAttribute("data-kind", k.Kind)
		sent, delivered, dropped = sent+k.Sent, delivered+k.Delivered, dropped+k.Dropped
	}
	if len(kinds) > 1 {
		row("all", fmtInt(sent), fmtInt(delivered), fmtInt(dropped)).SetAttribute("class", "total")
	}
	table.AppendChild(body)
	box.AppendChild(table)
	box.AppendChild(el("p", "note", note))
}

// renderChecks lists every expect() of the run; each one that the trace
// recorded links to its event, and every failing one is marked at its line
// in the editor.
func (a *app) renderChecks() {
	box := a.el.checks
	empty(box)
	a.checkRows = nil
	if a.result == nil {
		return
	}
	// A world outside its algorithm's assumptions comes first: the checks
	// below say little about the algorithm then.
	if len(a.result.Warnings) > 0 {
		list := el("ul", "checks", "")
		for _, w := range a.result.Warnings {
			list.AppendChild(a.checkItem("⚠", "warning", w.Text, w.Line, w.World, w.Seq, 0, "Show where the run left the assumptions"))
		}
		box.AppendChild(list)
	}
	if len(a.result.Checks) == 0 {
		box.AppendChild(el("p", "empty", "This scenario has no expect() checks."))
		return
	}
	failed := 0
	var fails []any
	list := el("ul", "checks", "")
	for _, c := range a.result.Checks {
		mark, cls, title := "✓", "pass", "Show this check's event in the diagram and the log"
		if !c.Pass {
			mark, cls = "✗", "fail"
			failed++
			if c.Line > 0 {
				fails = append(fails, map[string]any{"line": c.Line, "msg": c.Text})
			}
			if c.At > 0 {
				title = "Show the event where the property first failed"
			}
		}
		li := a.checkItem(mark, cls, c.Text, c.Line, c.World, c.Seq, c.At, title)
		a.checkRows = append(a.checkRows, checkRow{li: li, markEl: li.QuerySelector(".mark"), mark: mark, cls: cls, world: c.World, seq: c.Seq})
		list.AppendChild(li)
	}
	a.editor.Call("markFailures", fails)
	verdict := fmt.Sprintf("%d passed, %d failed", len(a.result.Checks)-failed, failed)
	cls := "verdict pass"
	if failed > 0 {
		cls = "verdict fail"
	}
	box.AppendChild(el("p", cls, verdict))
	box.AppendChild(list)
}

// checkRow is a check's item in the panel, kept to follow the cursor.
type checkRow struct {
	li, markEl dom.Element
	mark, cls  string // as judged at the end of the run
	world      int
	seq        uint64
}

// followChecks shows a check of the world in view as pending while the
// cursor is before the event that recorded it: the verdict is the end's.
func (a *app) followChecks() {
	for _, row := range a.checkRows {
		mark, cls := row.mark, row.cls
		if a.r != nil && row.world == a.r.Header.World {
			if row.seq >= uint64(a.seqAfter(a.cursor)) {
				mark, cls = "…", "pending"
			}
		}
		if row.li.GetAttribute("class") != cls {
			row.li.SetAttribute("class", cls)
			row.markEl.SetTextContent(mark)
		}
	}
}

// checkItem is one line of the checks panel: a mark, the text (as text,
// never HTML: it comes from the script), the script line, which puts the
// editor there, and a button to the event of world (1-based) when that
// world has a trace: event at, where a property first failed, if set, else
// seq, where the check was recorded.
func (a *app) checkItem(mark, cls, text string, line, world int, seq, at uint64, title string) dom.Element {
	li := el("li", cls, "")
	li.AppendChild(el("span", "mark", mark))
	li.AppendChild(el("span", "text", text))
	if line > 0 {
		b := el("button", "line", "line "+itoa(line))
		b.SetAttribute("type", "button")
		b.SetAttribute("title", "Show line "+itoa(line)+" in the editor")
		onClick(b, func() { a.editor.Call("gotoLine", line) })
		li.AppendChild(b)
	}
	if at > 0 {
		seq = at
	}
	if world > 0 && world <= len(a.worlds) && a.shows(world-1) {
		link := el("button", "goto", fmt.Sprintf("event %d", seq))
		link.SetAttribute("type", "button")
		if len(a.worlds) > 1 {
			link.SetTextContent(fmt.Sprintf("world %d, event %d", world, seq))
		}
		link.SetAttribute("title", title)
		onClick(link, func() { a.gotoSeq(world, seq) })
		li.AppendChild(link)
	}
	return li
}

// gotoSeq shows the event with the given seq of world w (1-based), asking
// for the window around it in a world read in windows.
func (a *app) gotoSeq(w int, seq uint64) {
	for i := range a.worlds {
		if a.worlds[i].Header.World != w {
			continue
		}
		show := func(err error) {
			if idx, ok := a.r.IndexOfSeq(seq); err == nil && ok && idx >= a.first {
				a.selectEvent(idx, false)
			}
		}
		switch {
		case a.windowed(i) && !(a.loaded[i] && a.windows[i].from <= int(seq) && int(seq) < a.windows[i].to):
			a.showWindow(i, int(seq), "around", show)
		case i != a.world || a.r == nil || a.loading:
			a.showWorld(i, show)
		default:
			show(nil)
		}
		return
	}
}

// renderOutput shows what the run printed, with each table report printed
// drawn as a table between the text around it, then tail (the run's notes
// and warnings). A table the output limit cut stays text.
func (a *app) renderOutput(text string, reports []Report, tail string) {
	box := a.el.output
	empty(box)
	pos := 0
	for _, t := range reports {
		if t.At < pos || t.At+t.Len > len(text) || len(t.Cells) == 0 {
			continue
		}
		if t.At > pos {
			box.AppendChild(el("span", "", text[pos:t.At]))
		}
		box.AppendChild(reportTable(t))
		pos = t.At + t.Len
	}
	if rest := text[pos:] + tail; rest != "" {
		box.AppendChild(el("span", "", rest))
	}
	if len(reports) > 0 {
		box.SetAttribute("class", "tables")
	} else {
		box.RemoveAttribute("class")
	}
}

// reportTable draws a report: its header row, then its rows, numbers
// aligned right; cells are text, never markup (they come from the script).
func reportTable(t Report) dom.Element {
	wrapper := el("div", "report", "")
	table := el("table", "", "")
	for i, row := range t.Cells {
		tr := el("tr", "", "")
		for k, c := range row {
			tag, cls := "td", ""
			if i == 0 {
				tag = "th"
			}
			if k < len(t.Numeric) && t.Numeric[k] {
				cls = "num"
			}
			tr.AppendChild(el(tag, cls, c))
		}
		table.AppendChild(tr)
	}
	wrapper.AppendChild(table)
	return wrapper
}
