//go:build js && wasm

package main

// Timestamps on the space-time diagram: the "C(e)" button cycles through
// none, each event's Lamport timestamp and its vector timestamp, computed
// from the trace (replay.Lamport, replay.Vector), so that any run shows
// what the clocks of the lecture notes would say of its sends, receives
// and internal events. A run of a clock algorithm (clock.lamport,
// clock.vector) shows its own clocks instead: each change of its clock
// key is labelled with the value, which is what its worked examples quote
// (Tanenbaum's 61 and 70 tick 6, 8 and 10 per step). Labels
// come from a pool of <text> elements, for the events in view when they
// are few enough to read (spacetime.MaxStamped).

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/core/algo/clock"
	"dsim/core/trace"
	"dsim/wasm/replay"
	"dsim/wasm/spacetime"
)

// stampModes are the button's states, in its order.
var stampModes = []struct{ name, label, title string }{
	{"", "C(e)", "Label the sends, receives and internal events (timers, commands) with their Lamport or vector timestamps, computed from the trace (T)"},
	{"lamport", "C(e): Lamport", "Lamport timestamps on the events; click for vector timestamps (T)"},
	{"vector", "C(e): vector", "Vector timestamps on the events; click to hide them (T)"},
}

type stampView struct {
	d      *diagramView
	button dom.Element
	note   dom.Element // why no labels show
	mode   int
	layer  js.Value
	pool   []js.Value
	text   []string // what each pooled label shows
}

func newStampView(d *diagramView, tools dom.Element, add func(tag string, attrs ...string) js.Value) *stampView {
	v := &stampView{d: d, button: el("button", "", ""), note: el("span", "stamp-note", "")}
	v.button.SetAttribute("type", "button")
	v.button.SetAttribute("id", "stamps")
	onClick(v.button, v.cycle)
	tools.AppendChild(v.button)
	show(v.note, false)
	tools.AppendChild(v.note)
	v.layer = add("g", "class", "stamps")
	v.setMode(0)
	return v
}

func (v *stampView) cycle() { v.setMode((v.mode + 1) % len(stampModes)) }

func (v *stampView) setMode(m int) {
	v.mode = m
	v.button.SetTextContent(stampModes[m].label)
	v.button.SetAttribute("title", stampModes[m].title)
	v.button.SetAttribute("aria-pressed", itoa(min(m, 1)))
	v.button.SetAttribute("data-mode", stampModes[m].name)
	v.d.dirty()
}

// on reports whether the diagram is to place the events in view.
func (v *stampView) on() bool { return v.mode > 0 }

// draw labels the events a frame placed, or says why it does not.
func (v *stampView) draw(r *replay.Replay, out *spacetime.Drawing) {
	note := ""
	var texts []string
	if v.on() && r != nil {
		switch vec, ok := r.Vector(); {
		case out.TooMany:
			note = "zoom in to read the timestamps"
		case stampModes[v.mode].name == "vector" && !ok:
			note = "vector timestamps for up to " + itoa(replay.MaxVector) + " processes"
		default:
			vector := stampModes[v.mode].name == "vector"
			own := clock.KeyLamport
			if vector {
				own = clock.KeyVector
			}
			kept := slices.Contains(r.StateKeys, own)
			lam := r.Lamport()
			texts = make([]string, len(out.Stamped))
			for k, p := range out.Stamped {
				e := &r.Events[p.I]
				switch {
				case kept: // the algorithm's own clock
					if e.Type == trace.State && e.Key == own && e.New != nil {
						texts[k] = strings.ReplaceAll(string(trace.AppendJSON(nil, e.New)), "[", "(")
						texts[k] = strings.ReplaceAll(texts[k], "]", ")")
					}
				case lam[p.I] == 0: // no event of its own (see replay.Lamport)
				case vector:
					texts[k] = vectorText(vec[p.I])
				default:
					texts[k] = itoa(lam[p.I])
				}
			}
			v.button.SetAttribute("data-own", fmt.Sprint(kept))
		}
	}
	v.note.SetTextContent(note)
	show(v.note, note != "")
	// Events drawn at one place (a command and the sends it makes) have
	// their labels side by side, about 6 px a character.
	var x, lastX, lastY float64
	lastLen := 0
	for k, t := range texts {
		p := out.Stamped[k]
		if t != "" && lastLen > 0 && math.Abs(p.X-lastX) < 1 && p.Y == lastY {
			x += float64(lastLen+len(t))*3 + 4
		} else {
			x = p.X
		}
		if t != "" {
			lastX, lastY, lastLen = p.X, p.Y, len(t)
		}
		if k == len(v.pool) {
			e := rawSVG("text", "class", "stamp", "text-anchor", "middle")
			v.layer.Call("appendChild", e)
			v.pool = append(v.pool, e)
			v.text = append(v.text, "")
		}
		e := v.pool[k]
		if v.text[k] != t {
			v.text[k] = t
			e.Set("textContent", t)
		}
		// a label of an event at the plot's edge stays whole inside it
		half := float64(len(t)) * 3
		lx := min(max(x, v.d.v.Left+half), v.d.v.Left+v.d.v.Width-half)
		e.Call("setAttribute", "x", f1(lx))
		e.Call("setAttribute", "y", f1(p.Y-7))
	}
	for k := len(texts); k < len(v.pool); k++ {
		if v.text[k] != "" {
			v.text[k] = ""
			v.pool[k].Set("textContent", "")
		}
	}
}

// vectorText is a vector timestamp as the notes write it: (1,0,2).
func vectorText(t []int32) string {
	var b strings.Builder
	b.WriteByte('(')
	for k, x := range t {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(itoa(int(x)))
	}
	b.WriteByte(')')
	return b.String()
}
