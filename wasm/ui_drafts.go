//go:build js && wasm

package main

// Safe editing: picking an example never loses the user's text. The text
// the user wrote or changed is kept as a draft before the example replaces
// it, and a "Restore your draft" button (and a "Your drafts" group in the
// examples menu) brings it back.
//
// Why a kept draft and no confirm dialog: on a projector, a dialog stops
// the lesson at every example the teacher picks and gets clicked away by
// reflex, and a student at home who clicks "OK" by habit loses the work
// all the same. A draft needs no answer, cannot be clicked away, and stays
// in the page's storage across reloads; the one button beside the menu,
// named after the draft's first line, says where the work went.
//
// The description beside the editor follows the text: the example's own
// while the editor holds it unchanged, "Your script" (and the script's
// first comment line) as soon as it does not.

import (
	"strconv"
	"strings"

	"dsim/core/trace"
	"dsim/scripts"
)

const (
	// storeDrafts holds the drafts, most recent first, as a JSON array.
	storeDrafts = "dsim.drafts"
	// maxDrafts bounds what the drafts take of the page's storage (about
	// 5 MB for everything): the oldest of more is let go.
	maxDrafts = 10
	// draftValue prefixes the value of a draft's entry in the examples
	// menu; example paths never start with it.
	draftValue = "draft:"
	// maxLabel bounds the runes of a first line shown in a label.
	maxLabel = 60
)

// drafts returns the kept drafts, most recent first.
func drafts() []string {
	s, ok := loadStored(storeDrafts)
	if !ok {
		return nil
	}
	ds, err := trace.ReadStrings(s)
	if err != nil {
		return nil
	}
	return ds
}

// exampleOf returns the example whose text is text, or nil.
func (a *app) exampleOf(text string) *scripts.Example {
	for i := range a.examples {
		if a.examples[i].Source == text {
			return &a.examples[i]
		}
	}
	return nil
}

// isWork tells text that would be lost if replaced: anything but an
// unchanged example, the starting scenario or nothing.
func (a *app) isWork(text string) bool {
	return strings.TrimSpace(text) != "" && text != fallbackScenario && a.exampleOf(text) == nil
}

// keepDraft keeps text as the most recent draft if it is work, and says
// whether it did. It is kept before anything replaces it in the editor or
// in storage.
func (a *app) keepDraft(text string) bool {
	if !a.isWork(text) {
		return false
	}
	ds := []string{text}
	for _, d := range drafts() {
		if d != text && len(ds) < maxDrafts {
			ds = append(ds, d)
		}
	}
	store(storeDrafts, string(trace.AppendStrings(nil, ds)))
	return true
}

// restoreDraft puts draft k back in the editor; what the editor held is
// kept as a draft in its turn, if it is work.
func (a *app) restoreDraft(k int) {
	ds := drafts()
	if k < 0 || k >= len(ds) {
		a.followText()
		return
	}
	a.keepDraft(a.text())
	a.setText(ds[k])
	a.showStatus("Your draft is back in the editor (Ctrl+Z in the editor brings back what was there).")
}

// followText makes the examples menu, the description and the draft
// button agree with the editor's text.
func (a *app) followText() {
	text := a.text()
	if ex := a.exampleOf(text); ex != nil {
		setValue(a.el.examples, ex.Path)
		a.el.desc.SetTextContent(ex.Description)
	} else {
		setValue(a.el.examples, "")
		desc := "Your script (not one of the examples)."
		if c := firstComment(text); c != "" {
			desc = "Your script: " + c
		}
		a.el.desc.SetTextContent(desc) // the script's words: text only
	}
	a.renderDrafts(text)
}

// renderDrafts lists the drafts in the examples menu and offers the most
// recent one on the button while the editor holds no work of its own (an
// edit hides the button; the menu still lists every draft).
func (a *app) renderDrafts(text string) {
	ds := drafts()
	if a.el.draftGroup != nil {
		a.el.draftGroup.Remove()
		a.el.draftGroup = nil
	}
	if len(ds) > 0 {
		g := el("optgroup", "", "")
		g.SetAttribute("label", "Your drafts")
		for k, d := range ds {
			o := el("option", "", "Draft: "+firstLine(d))
			o.SetAttribute("value", draftValue+strconv.Itoa(k))
			g.AppendChild(o)
		}
		// after "(your scenario)", before the examples
		menu := a.el.examples.Underlying()
		menu.Call("insertBefore", g.Underlying(), menu.Get("firstElementChild").Get("nextElementSibling"))
		a.el.draftGroup = g
	}
	offer := len(ds) > 0 && !a.isWork(text)
	show(a.el.restoreDraft, offer)
	if offer {
		a.el.restoreDraft.SetTextContent("Restore your draft: " + firstLine(ds[0]))
		a.el.restoreDraft.SetAttribute("title", "Put your edited scenario back in the editor. Every draft kept is also under “Your drafts” in the examples menu.")
	}
}

// firstNonBlank is text's first line that is not blank, trimmed.
func firstNonBlank(text string) string {
	for text != "" {
		var l string
		l, text, _ = strings.Cut(text, "\n")
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// firstLine is text's first line that is not blank, shortened for a label.
func firstLine(text string) string {
	if l := firstNonBlank(text); l != "" {
		return shorten(l)
	}
	return "(empty)"
}

// firstComment is the text of the script's first comment line, if its
// first line that is not blank is one.
func firstComment(text string) string {
	c, ok := strings.CutPrefix(firstNonBlank(text), "--")
	if !ok {
		return ""
	}
	return shorten(strings.TrimSpace(strings.TrimLeft(c, "-[")))
}

func shorten(s string) string {
	if r := []rune(s); len(r) > maxLabel {
		return string(r[:maxLabel-1]) + "…"
	}
	return s
}

// draftIndex reads a draft's menu value.
func draftIndex(v string) (int, bool) {
	s, ok := strings.CutPrefix(v, draftValue)
	if !ok {
		return 0, false
	}
	k, err := strconv.Atoi(s)
	return k, err == nil
}
