package algo

import (
	"sort"
	"strings"
)

// Property is a property that the algorithms of a family promise and
// core/check judges from the events of a run, named "family.name" (e.g.
// "mutex.safety"). A family's helper package (core/algo/mutex,
// core/algo/election) declares each of its properties once, with what it
// means, by DeclareProperty; its algorithms list the ones they promise in
// Spec.Properties, and core/check registers the checker of each.
//
// The families name their properties with untyped constants, which take
// this type wherever a Property is wanted and stay plain strings elsewhere
// (a scenario names a property by its string).
type Property string

// Family is the part of the name before the dot.
func (p Property) Family() string {
	f, _, _ := strings.Cut(string(p), ".")
	return f
}

// Doc says what the property holds, as its family declared it; "" for a
// property nobody declared.
func (p Property) Doc() string { return properties[p] }

var properties = map[Property]string{}

// DeclareProperty declares a property and what it holds. A family's helper
// package calls it from its init, so every property is declared before any
// algorithm of the family registers. It panics on a duplicate, a name that
// is not "family.name" or a missing doc: a programming error any test
// catches.
func DeclareProperty(p Property, doc string) {
	fam, name, ok := strings.Cut(string(p), ".")
	if !ok || fam == "" || name == "" || doc == "" {
		panic("algo: malformed property " + string(p))
	}
	if _, dup := properties[p]; dup {
		panic("algo: property " + string(p) + " declared twice")
	}
	properties[p] = doc
}

// Properties lists the declared properties, sorted.
func Properties() []Property {
	out := make([]Property, 0, len(properties))
	for p := range properties {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// PropertyNames are the names of ps, for listings and messages.
func PropertyNames(ps []Property) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = string(p)
	}
	return out
}
