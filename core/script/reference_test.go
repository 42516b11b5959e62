package script

import (
	"strings"
	"testing"

	"dsim/core/sim"
	"dsim/core/topo"
)

func TestReferenceCoversTheAPI(t *testing.T) {
	ref := Reference()
	var want []string
	for _, e := range globals {
		want = append(want, "### `"+e.name+e.args+"`")
	}
	for _, e := range worldMethods {
		want = append(want, "### `w:"+e.name+e.args+"`")
	}
	for _, e := range nodeMethods {
		want = append(want, "### `node:"+e.name+e.args+"`")
	}
	for _, k := range worldKeys {
		want = append(want, "| `"+k.name+"` | ")
	}
	for _, k := range topo.Kinds {
		want = append(want, "| `"+k.Name+"` | ")
	}
	for _, f := range eventFields {
		want = append(want, "| `"+f.name+"` | ")
	}
	for _, r := range replaced {
		want = append(want, "- `"+r.name+"`: ")
	}
	want = append(want,
		"### `sim.seed`",
		"### `test.echo`\n\ntest-only: pings round a ring",
		"| `hops` | int | `1` | 0 .. 1000 | hops of a ping |",
		"| `greeting` | string | `\"hi\"` |  | note carried by pings |",
		"| `ping` | `to=<id> hops=<n>` | send a PING |",
		"| `got` | messages received |",
		"| `PING` | `hops` integer, `path` list of id, `note` string |",
		"| `PONG` | `to` id, `fast` boolean |",
		"Default topology: `ring`.",
	)
	for _, w := range want {
		if !strings.Contains(ref, w) {
			t.Errorf("the reference lacks %q", w)
		}
	}
	for _, bad := range []string{"%!", "<nil>"} {
		if strings.Contains(ref, bad) {
			t.Errorf("the reference contains %q", bad)
		}
	}
}

// Every distribution the kernel knows is documented.
func TestEveryDistributionIsDocumented(t *testing.T) {
	for name, k := range sim.DistKinds {
		if distDocs[k] == "" {
			t.Errorf("distribution %q (%v) has no doc", name, k)
		}
	}
}

// The tables that document the methods are the ones scripts call.
func TestDocumentedMethodsExist(t *testing.T) {
	var src strings.Builder
	src.WriteString("local w = sim.world{algorithm='test.echo', n=2}\nlocal n = w:node(1)\n")
	for _, e := range worldMethods {
		src.WriteString("assert(type(w." + e.name + ") == 'function', '" + e.name + "')\n")
	}
	for _, e := range nodeMethods {
		src.WriteString("assert(type(n." + e.name + ") == 'function', '" + e.name + "')\n")
	}
	for _, e := range globals {
		src.WriteString("assert(type(" + e.name + ") == 'function', '" + e.name + "')\n")
	}
	mustRun(t, src.String())
}
