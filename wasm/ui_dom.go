//go:build js && wasm

package main

// Small DOM helpers for the UI. Structure and wiring go through
// honnef.co/go/js/dom/v2; the few hot paths (redrawing the diagram, recycling
// log rows) hold the raw js.Value, because wrapping an element or an event
// in dom/v2 costs dozens of calls into JavaScript.
//
// Safety rule of the whole UI: a string that came from a script (log text,
// message fields, state values, error messages) is only ever set as text
// (textContent, text nodes, attribute values), never as markup.

import (
	"strconv"
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

const svgNS = "http://www.w3.org/2000/svg"

// The page's window and document, set by startUI: the same binary runs in
// the engine worker, which has no document.
var (
	window dom.Window
	doc    dom.Document
	body   dom.Element
)

// byID returns the element with the given id; the page skeleton
// (site/index.html) must have it.
func byID(id string) dom.Element {
	e := doc.GetElementByID(id)
	if e == nil {
		panic("index.html lacks #" + id)
	}
	return e
}

// value reads an <input> or <select>.
func value(e dom.Element) string { return e.Underlying().Get("value").String() }

func setValue(e dom.Element, v string) { e.Underlying().Set("value", v) }

// wrap gives a js element the dom/v2 Element interface without
// dom.WrapElement's probing of its constructor, which costs dozens of calls
// into JavaScript per element.
func wrap(v js.Value) dom.Element {
	return &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
}

// el makes an HTML element with an optional class and text.
func el(tag, class, text string) dom.Element {
	e := wrap(doc.Underlying().Call("createElement", tag))
	if class != "" {
		e.SetAttribute("class", class)
	}
	if text != "" {
		e.SetTextContent(text)
	}
	return e
}

// rawSVG makes an SVG element with attributes given as name, value pairs.
func rawSVG(tag string, attrs ...string) js.Value {
	e := doc.Underlying().Call("createElementNS", svgNS, tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		e.Call("setAttribute", attrs[i], attrs[i+1])
	}
	return e
}

func empty(e dom.Element) { e.SetTextContent("") }

func show(e dom.Element, on bool) { e.Underlying().Set("hidden", !on) }

func setDisabled(e dom.Element, off bool) { e.Underlying().Set("disabled", off) }

// on adds a listener that gets the raw event; use it where dom/v2's event
// wrapping would cost too much or is not needed.
func on(target js.Value, typ string, fn func(ev js.Value), opts ...any) {
	f := callback(func(this js.Value, args []js.Value) any {
		fn(args[0])
		return nil
	})
	if len(opts) > 0 {
		target.Call("addEventListener", typ, f, opts[0])
	} else {
		target.Call("addEventListener", typ, f)
	}
}

// onClick wires a button.
func onClick(e dom.Element, fn func()) { on(e.Underlying(), "click", func(js.Value) { fn() }) }

func itoa(n int) string { return strconv.Itoa(n) }

func ftoa(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// fmtInt writes n with thin spaces between thousands: 12 345.
func fmtInt(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3*3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, "\u2009"...)
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// requestFrame runs fn at the next animation frame, once however often it
// is asked before then.
type frameScheduler struct {
	pending bool
	fn      js.Func
}

func newFrameScheduler(fn func(now float64)) *frameScheduler {
	s := &frameScheduler{}
	s.fn = callback(func(this js.Value, args []js.Value) any {
		s.pending = false
		fn(args[0].Float())
		return nil
	})
	return s
}

func (s *frameScheduler) request() {
	if !s.pending {
		s.pending = true
		js.Global().Call("requestAnimationFrame", s.fn)
	}
}

// debounce returns a function that runs fn ms milliseconds after the last
// call to it.
func debounce(ms int, fn func()) func() {
	timer := 0
	// one function for every timer: a cancelled timer never runs, so it
	// could not release its own
	f := callback(func(js.Value, []js.Value) any {
		timer = 0
		fn()
		return nil
	})
	return func() {
		if timer != 0 {
			js.Global().Call("clearTimeout", timer)
		}
		timer = js.Global().Call("setTimeout", f, ms).Int()
	}
}
