//go:build js && wasm

package main

// The Help panel: a short intro (its steps behind "more"), open by itself until the user closes it
// once, and a search over the scenario API. The entries it searches and the
// editor's completions both come from script.Entries, which reads the
// tables `dsim api` renders: the page cannot list a name the CLI's
// reference does not, or miss one it has.

import (
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/core/script"
)

// storeHelpClosed remembers that the user closed the intro, so that it
// opens by itself on a first visit only.
const storeHelpClosed = "dsim.help.closed"

type helpRow struct {
	el   dom.Element
	text string // kind, name, signature and doc, lower case: what a search matches
}

// startHelp gives the editor its completions and wires the Help panel.
func startHelp(editor js.Value) {
	entries := script.Entries()
	editor.Call("setCompletions", completions(entries))

	panel, open, search := byID("help"), byID("help-open"), byID("help-search")
	list, count := byID("help-list"), byID("help-count")
	var rows []helpRow // made at the first search: most visits never search
	filter := func() {
		words := searchWords(search.Underlying().Get("value"))
		if len(words) > 0 && rows == nil {
			rows = helpRows(entries, list)
		}
		n := 0
		for _, r := range rows {
			hit := len(words) > 0 && containsAll(r.text, words)
			show(r.el, hit)
			if hit {
				n++
			}
		}
		show(list, n > 0)
		if len(words) == 0 {
			count.SetTextContent(itoa(len(entries)) + " functions, world keys, methods, event fields, checks and algorithms")
		} else {
			count.SetTextContent(itoa(n) + " of " + itoa(len(entries)))
		}
	}
	on(search.Underlying(), "input", func(js.Value) { filter() })
	filter()

	setOpen := func(visible bool) {
		show(panel, visible)
		open.SetAttribute("aria-expanded", strconv.FormatBool(visible))
	}
	onClick(open, func() {
		opening := panel.Underlying().Get("hidden").Bool()
		setOpen(opening)
		if opening {
			search.Underlying().Call("focus")
		}
	})
	more, steps := byID("help-more"), byID("help-steps")
	onClick(more, func() {
		opening := steps.Underlying().Get("hidden").Bool()
		show(steps, opening)
		more.SetAttribute("aria-expanded", strconv.FormatBool(opening))
		if opening {
			more.SetTextContent("less")
		} else {
			more.SetTextContent("more")
		}
	})
	onClick(byID("help-close"), func() {
		setOpen(false)
		store(storeHelpClosed, "1")
	})
	_, closed := loadStored(storeHelpClosed)
	setOpen(!closed)
}

// helpRows fills the list with an item per entry, hidden: the search shows
// them. Every string is text: docs quote code with < and &.
func helpRows(entries []script.Entry, list dom.Element) []helpRow {
	rows := make([]helpRow, len(entries))
	for i, e := range entries {
		li := el("li", "", "")
		li.AppendChild(el("span", "kind", e.Kind))
		li.AppendChild(el("code", "name", e.Name))
		sig := el("code", "sig", e.Signature)
		if strings.HasPrefix(e.Signature, "(") || strings.HasPrefix(e.Signature, "{") {
			sig.SetAttribute("class", "sig call") // written right after the name
		}
		li.AppendChild(sig)
		li.AppendChild(el("p", "doc", plain(e.Doc)))
		show(li, false)
		list.AppendChild(li)
		rows[i] = helpRow{li, lower(js.ValueOf(e.Kind + " " + e.Name + " " + e.Signature + " " + e.Doc))}
	}
	return rows
}

// plain is a doc as the page shows it: the docs are Markdown for the
// reference, and their code quotes read better here without the backticks.
func plain(doc string) string { return strings.ReplaceAll(doc, "`", "") }

// lower lower-cases a JavaScript string: JavaScript's toLowerCase, because
// Go's strings.ToLower would link the Unicode tables into the binary.
func lower(s js.Value) string {
	return js.Global().Get("String").Get("prototype").Get("toLowerCase").Call("call", s).String()
}

// searchWords splits a search into lower-case words.
func searchWords(search js.Value) []string {
	var out []string
	for _, w := range strings.Split(lower(search), " ") {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// completions is what the editor completes, as site/editor.js's
// setCompletions takes it: [{label, type, detail, info}] with CodeMirror's
// completion types; editor.js offers "method" after "x:" and "constant"
// inside `algorithm = "`. Other kinds of entry are not completed.
func completions(entries []script.Entry) js.Value {
	out := js.Global().Get("Array").New()
	for _, e := range entries {
		label, typ, detail := e.Name, "", e.Signature
		switch e.Kind {
		case script.KindFunction:
			typ = "function"
		case script.KindValue:
			typ = "variable"
		case script.KindWorldKey:
			typ = "property"
		case script.KindMethod, script.KindNodeMethod:
			// completed after "w:" or "node:", which the label leaves out
			typ, label, detail = "method", e.Name[strings.IndexByte(e.Name, ':')+1:], e.Name+e.Signature
		case script.KindAlgorithm:
			typ = "constant"
			detail, _, _ = strings.Cut(e.Doc, "\n") // the summary
		default:
			continue
		}
		c := js.Global().Get("Object").New()
		c.Set("label", label)
		c.Set("type", typ)
		c.Set("detail", detail)
		c.Set("info", plain(e.Doc))
		out.Call("push", c)
	}
	return out
}
