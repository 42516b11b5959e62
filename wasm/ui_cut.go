//go:build js && wasm

package main

// The cut tool of the space-time diagram: with the "Cut" button on, a
// click on a process's line puts that process's cut point there (after its
// last event at or before the time clicked), and the page draws the cut,
// says whether it is consistent (trace.JudgeCut), and highlights the
// messages that cross it backwards, in red, and those in flight across it,
// the channels' states a snapshot there records. The cut starts at the
// cursor, for every process.
//
// In a run of a snapshot algorithm, "Snapshot" (S) draws the cut the
// processes recorded instead, one snapshot after another, and says what
// they recorded: each balance, each channel's transfers, and the total.

import (
	"fmt"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/core/trace"
	"dsim/wasm/replay"
)

type cutTool struct {
	d       *diagramView
	button  dom.Element
	verdict dom.Element // what the cut is, for everyone
	on      bool
	// snap offers the recorded cuts, recs, of which rec is drawn (-1:
	// the cut is the user's).
	snap dom.Element
	recs []replay.Recording
	rec  int
	// at is, per process position, the index of the last event the cut
	// holds (-1: none); back and flight are the flights of the messages
	// across it, for the highlight.
	at           []int
	back, flight []int
	line         js.Value // <path>s over the plot
	backPath     js.Value
	flightPath   js.Value
}

func newCutTool(d *diagramView, tools dom.Element, add func(tag string, attrs ...string) js.Value) *cutTool {
	c := &cutTool{d: d, button: el("button", "", "Cut")}
	c.button.SetAttribute("type", "button")
	c.button.SetAttribute("id", "cut-tool")
	c.button.SetAttribute("aria-pressed", "false")
	c.button.SetAttribute("title", "Draw a cut: click a point on each process line; the page says whether the cut is consistent (C)")
	onClick(c.button, func() { c.toggle() })
	tools.AppendChild(c.button)
	c.snap, c.rec = el("button", "", "Snapshot"), -1
	c.snap.SetAttribute("type", "button")
	c.snap.SetAttribute("id", "snapshot-cut")
	c.snap.SetAttribute("title", "Draw the cut a snapshot recorded, and say what it recorded; again: the next snapshot (S)")
	show(c.snap, false)
	onClick(c.snap, func() { c.nextRecording() })
	tools.AppendChild(c.snap)
	c.verdict = el("span", "cut-verdict", "")
	c.verdict.SetAttribute("role", "status")
	show(c.verdict, false)
	tools.AppendChild(c.verdict)
	c.flightPath = add("path", "class", "cut-flight")
	c.backPath = add("path", "class", "cut-back")
	c.line = add("path", "class", "cut-line")
	return c
}

// toggle turns the tool on, with the cut at the cursor, or off.
func (c *cutTool) toggle() {
	a := c.d.a
	c.on, c.rec = !c.on && a.r != nil, -1
	c.button.SetAttribute("aria-pressed", fmt.Sprint(c.on))
	if c.on {
		c.at = make([]int, len(a.r.Nodes))
		for p := range c.at {
			c.at[p] = -1
		}
		for i := a.first; i < a.cursor; i++ { // the prelude of a window is no part of it
			if p := a.r.NodeOf(i); p >= 0 {
				c.at[p] = i
			}
		}
		c.judge()
	}
	show(c.verdict, c.on)
	c.d.dirty()
}

// reset turns the tool off and forgets the recorded cuts, as a new world
// or window does.
func (c *cutTool) reset() {
	if c.on {
		c.toggle()
	}
	c.recs = nil
	show(c.snap, false)
}

// offerRecordings offers the snapshots the world shown recorded.
func (c *cutTool) offerRecordings() {
	if r := c.d.a.r; r != nil {
		c.recs = r.Recordings()
	}
	show(c.snap, len(c.recs) > 0)
}

// nextRecording draws the cut of the next recorded snapshot.
func (c *cutTool) nextRecording() {
	if len(c.recs) == 0 {
		return
	}
	if !c.on {
		c.toggle()
	}
	c.rec = (c.rec + 1) % len(c.recs)
	c.at = append(c.at[:0], c.recs[c.rec].At...)
	c.judge()
	c.d.dirty()
}

// click puts the cut point of the process whose line is at y at time x.
func (c *cutTool) click(x, y float64) {
	a, d := c.d.a, c.d
	p, ok := a.dia.RowAt(&d.v, y)
	if !ok {
		return
	}
	t := d.v.T(x)
	c.at[p], c.rec = -1, -1
	for i := a.first; i < len(a.r.Events) && float64(a.r.Events[i].T) <= t; i++ {
		if a.r.NodeOf(i) == p {
			c.at[p] = i
		}
	}
	c.judge()
	d.dirty()
}

// judge says what the cut is and finds the flights to highlight.
func (c *cutTool) judge() {
	r := c.d.a.r
	v := r.JudgeCut(c.at)
	c.back, c.flight = c.flights(v.Backward), c.flights(v.InFlight)
	var b strings.Builder
	if v.Consistent() {
		b.WriteString("Consistent cut")
		c.verdict.SetAttribute("data-consistent", "true")
	} else {
		fmt.Fprintf(&b, "Inconsistent cut: %s crossing it backwards (%s)", plural(len(v.Backward), "message"), c.names(v.Backward))
		c.verdict.SetAttribute("data-consistent", "false")
	}
	if len(v.InFlight) > 0 {
		fmt.Fprintf(&b, "; %s in flight across it (%s)", plural(len(v.InFlight), "message"), c.names(v.InFlight))
	}
	c.verdict.RemoveAttribute("data-snapshot")
	if c.rec >= 0 {
		rec := &c.recs[c.rec]
		c.verdict.SetAttribute("data-snapshot", itoa(rec.ID))
		b.WriteString(". " + recorded(rec, r.Nodes))
	}
	c.verdict.SetTextContent(b.String())
}

// flights are the replay's flights of messages across the cut: of a
// delivered one, the flight that delivery ends; of one in flight, its
// send's first.
func (c *cutTool) flights(xs []trace.Crossing) []int {
	r := c.d.a.r
	var out []int
	for _, x := range xs {
		s, ok := r.IndexOfSeq(uint64(x.Send))
		if !ok {
			continue
		}
		for _, f := range r.FlightsOf(s) {
			if e := r.Flights[f].End; x.Deliver < 0 || (e >= 0 && r.Events[e].Seq == uint64(x.Deliver)) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// recorded says what snapshot rec recorded: each balance, the transfers
// in each channel, and the total.
func recorded(rec *replay.Recording, ids []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Snapshot %d recorded", rec.ID)
	sep := ": "
	for p, ok := range rec.Recorded {
		if ok {
			fmt.Fprintf(&b, "%sP%d %d", sep, ids[p], rec.Balance[p])
			sep = ", "
		}
	}
	for _, ch := range rec.Channels {
		for k, amount := range ch.Amounts {
			fmt.Fprintf(&b, "%s%d in the channel %d→%d (transfer #%d)", sep, amount, ch.From, ch.To, ch.IDs[k])
			sep = ", "
		}
	}
	if rec.Complete() {
		fmt.Fprintf(&b, "; total %d", rec.Total())
	} else {
		b.WriteString("; not every process recorded its state yet")
	}
	return b.String()
}

// names lists messages as KIND from→to and which message it is, the
// first few: a bank's transfer by its number and amount ("TRANSFER 1→2 #2
// of 20"), as the checks and the snapshot name it, any other by its
// message id in the log ("[m5]"), so that two messages on one channel are
// told apart.
func (c *cutTool) names(xs []trace.Crossing) string {
	r := c.d.a.r
	var parts []string
	for i, x := range xs {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		which := fmt.Sprintf("[m%d]", x.MsgID)
		if s, ok := r.IndexOfSeq(uint64(x.Send)); ok {
			id, okID := trace.FieldOf(r.Events[s].Msg, "id")
			amount, okAmount := trace.FieldOf(r.Events[s].Msg, "amount")
			if okID && okAmount {
				which = fmt.Sprintf("#%s of %s", id, amount)
			}
		}
		parts = append(parts, fmt.Sprintf("%s %d→%d %s", x.Kind, x.From, x.To, which))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmtInt(n) + " " + what + "s"
}

// draw sets the cut's paths for the diagram's viewport.
func (c *cutTool) draw() {
	a, d := c.d.a, c.d
	line, back, flight := "", "", ""
	if c.on && a.dia != nil {
		var upon []int
		if c.rec >= 0 {
			upon = c.recs[c.rec].Upon
		}
		line = a.dia.CutPath(&d.v, c.at, upon)
		back = a.dia.FlightPath(&d.v, c.back)
		flight = a.dia.FlightPath(&d.v, c.flight)
	}
	c.line.Call("setAttribute", "d", line)
	c.backPath.Call("setAttribute", "d", back)
	c.flightPath.Call("setAttribute", "d", flight)
}
