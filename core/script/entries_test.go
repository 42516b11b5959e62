package script

import (
	"strings"
	"testing"

	"dsim/core/algo"
)

// Entries lists every function, world key, method and algorithm the
// reference documents, under the name a script writes.
func TestEntriesCoverTheAPI(t *testing.T) {
	have := map[string]Entry{}
	for _, e := range Entries() {
		if e.Name == "" || e.Doc == "" || e.Kind == "" {
			t.Errorf("incomplete entry %+v", e)
		}
		have[e.Kind+" "+e.Name] = e
	}
	want := func(kind, name string) Entry {
		t.Helper()
		e, ok := have[kind+" "+name]
		if !ok {
			t.Errorf("Entries lacks the %s %s", kind, name)
		}
		return e
	}
	for _, e := range globals {
		want(KindFunction, e.name)
	}
	for _, v := range values {
		want(KindValue, v.name)
	}
	for _, k := range worldKeys {
		want(KindWorldKey, k.name)
	}
	for _, e := range worldMethods {
		want(KindMethod, "w:"+e.name)
	}
	for _, e := range nodeMethods {
		want(KindNodeMethod, "node:"+e.name)
	}
	for _, f := range eventFields {
		want(KindEventField, "ev."+f.name)
	}
	for _, s := range algo.All() {
		want(KindAlgorithm, s.Name)
	}
	if got := want(KindFunction, "report").Signature; got != "(rows[, columns])" {
		t.Errorf("report's signature is %q", got)
	}
	if got := want(KindFunction, "sim.world").Signature; got != "{key=value, ...} → world" {
		t.Errorf("sim.world's signature is %q", got)
	}
	echo := want(KindAlgorithm, "test.echo")
	if echo.Signature != "config: hops, every, greeting, loud" {
		t.Errorf("test.echo's signature is %q", echo.Signature)
	}
	for _, line := range []string{"test-only: pings round a ring", "config hops (int, default 1): hops of a ping", "command ping to=<id> hops=<n>: send a PING"} {
		if !strings.Contains(echo.Doc, line) {
			t.Errorf("test.echo's doc lacks %q:\n%s", line, echo.Doc)
		}
	}
	// Every name it lists is one the reference shows.
	ref := Reference()
	for _, e := range Entries() {
		name := strings.TrimPrefix(e.Name, "ev.")
		if !strings.Contains(ref, "`"+name) {
			t.Errorf("the reference does not show %s %s", e.Kind, e.Name)
		}
	}
}
