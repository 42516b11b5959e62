package script

import (
	"strings"

	"dsim/core/algo"
	"dsim/core/check"
	"dsim/core/topo"
	"dsim/core/trace"
)

// Entry is one name of the scenario API, for a reader that looks names up
// (the playground's Help search and its editor's completion) rather than
// reading the Markdown. Entries reads the tables Reference renders, so the
// page and `dsim help api` cannot disagree.
type Entry struct {
	Kind      string // one of the Kind* constants
	Name      string // as a script writes it: "sim.world", "w:crash", "node:up", "algorithm", "election.bully"
	Signature string // parameters and result; a key's default; an algorithm's config keys
	Doc       string
}

// The kinds of Entry.
const (
	KindFunction   = "function"
	KindValue      = "value"
	KindWorldKey   = "world key"
	KindTopology   = "topology"
	KindMethod     = "world method"
	KindNodeMethod = "node method"
	KindEventField = "event field"
	KindCheck      = "check"
	KindAlgorithm  = "algorithm"
)

// Entries lists the API in the order of the reference.
func Entries() []Entry {
	var out []Entry
	add := func(kind, name, sig, doc string) { out = append(out, Entry{kind, name, sig, doc}) }
	call := func(args, ret string) string {
		if ret == "" {
			return args
		}
		return args + " → " + ret
	}
	for _, e := range globals {
		add(KindFunction, e.name, call(e.args, e.ret), e.doc)
	}
	for _, v := range values {
		add(KindValue, v.name, "", v.doc)
	}
	for _, k := range worldKeys {
		add(KindWorldKey, k.name, "default "+k.def, k.doc)
	}
	for _, k := range topo.Kinds {
		add(KindTopology, k.Name, "", k.Doc)
	}
	for _, e := range worldMethods {
		add(KindMethod, "w:"+e.name, call(e.args, e.ret), e.doc)
	}
	for _, e := range nodeMethods {
		add(KindNodeMethod, "node:"+e.name, call(e.args, e.ret), e.doc)
	}
	for _, f := range eventFields {
		add(KindEventField, "ev."+f.name, "", f.doc)
	}
	for _, c := range check.Checkers() {
		add(KindCheck, string(c.Property), "", c.Property.Doc())
	}
	for _, s := range algo.All() {
		add(KindAlgorithm, s.Name, algorithmKeys(s), algorithmSummary(s))
	}
	return out
}

// algorithmKeys names an algorithm's config keys, which is what a scenario
// writes after the algorithm's name.
func algorithmKeys(s *algo.Spec) string {
	if len(s.Config) == 0 {
		return ""
	}
	names := make([]string, len(s.Config))
	for i, c := range s.Config {
		names[i] = c.Name
	}
	return "config: " + strings.Join(names, ", ")
}

// algorithmSummary is the summary, then a line per config key and command.
// Concatenated, not formatted: fmt's calls cost the page's binary more.
func algorithmSummary(s *algo.Spec) string {
	out := s.Summary
	for _, c := range s.Config {
		out += "\nconfig " + c.Name + " (" + string(c.Type) + ", default " + string(trace.AppendJSON(nil, c.Default)) + "): " + c.Doc
	}
	for _, c := range s.Commands {
		out += "\ncommand " + strings.TrimSpace(c.Name+" "+c.Args) + ": " + c.Doc
	}
	return out
}
