package script

import (
	"reflect"
	"strings"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/mutex/ricartagrawala2" // the TOKEN that carried a nil map
	"dsim/core/sim"
	"dsim/core/trace"
)

// test.inject has a message with every kind of field a script may set: maps
// keyed by ids and by strings, maps of lists and of structs, pointers,
// nested structs holding maps, and a type that refers to itself. Its
// prototype holds a map and a pointer of its own, which injecting must
// never write into.

type inner struct {
	Seen map[sim.NodeID]bool `json:"seen"`
	N    int                 `json:"n"`
}

type chain struct {
	Next *chain `json:"next"`
	V    int    `json:"v"`
}

type bag struct {
	Votes  map[sim.NodeID]int          `json:"votes"`
	Names  map[string]bool             `json:"names"`
	Routes map[sim.NodeID][]sim.NodeID `json:"routes"`
	Boxes  map[int]inner               `json:"boxes"`
	Inner  inner                       `json:"inner"`
	Ptr    *inner                      `json:"ptr"`
	Count  *int                        `json:"count"`
	Chain  chain                       `json:"chain"`
	List   []inner                     `json:"list"`
}

func (bag) Kind() string { return "BAG" }

// bagProto is test.inject's prototype: not a zero value, on purpose.
var bagProto = bag{Votes: map[sim.NodeID]int{9: 9}, Ptr: &inner{N: 5}}

// quiet is test.inject's process: it takes every message and does nothing.
type quiet struct{}

func (quiet) Start(sim.Context)                            {}
func (quiet) Receive(sim.Context, sim.NodeID, sim.Message) {}
func (quiet) Timer(sim.Context, string)                    {}
func (quiet) Command(sim.Context, string, sim.Args) error  { return nil }

// bagWorld is a script making a test.inject world w, then body.
func bagWorld(body string) string {
	return "local w = sim.world{algorithm='test.inject', n=3}\n" + body
}

// delivered runs bagWorld(body) and returns the BAG messages delivered, in
// order.
func delivered(t *testing.T, body string) []bag {
	t.Helper()
	res, _ := mustRun(t, bagWorld(body))
	var out []bag
	for _, e := range worldEvents(res, 0) {
		if e.Type == trace.Deliver {
			out = append(out, e.Msg.(bag))
		}
	}
	if len(out) == 0 {
		t.Fatal("no BAG was delivered")
	}
	return out
}

func init() {
	algo.Register(algo.Spec{
		Name:        "test.inject",
		Summary:     "test-only: receives messages with maps and pointers",
		Description: "Used by the core/script inject tests.",
		Topology:    "complete",
		Messages:    []sim.Message{bagProto},
		New: func(algo.Values) (sim.Factory, error) {
			return func(sim.NodeID) sim.Node { return quiet{} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(0)},
	})
}

// A field the script does not give is never a nil map or a nil pointer,
// however deep: the algorithm may read it, copy it and follow it.
func TestInjectFillsNilMapsAndPointers(t *testing.T) {
	b := delivered(t, `w:inject{from=1, to=2, kind="BAG", list={{n=1}, {}}}
w:run()`)[0]
	if b.Names == nil || b.Routes == nil || b.Boxes == nil || b.Inner.Seen == nil || b.Count == nil {
		t.Fatalf("nil map or pointer left in %+v", b)
	}
	if b.Ptr == nil || b.Ptr.N != 5 || b.Ptr.Seen == nil {
		t.Errorf("ptr = %+v, want the prototype's {N: 5} with an empty seen map", b.Ptr)
	}
	if len(b.List) != 2 || b.List[0].N != 1 || b.List[0].Seen == nil || b.List[1].Seen == nil {
		t.Errorf("list = %+v, want two elements with empty seen maps", b.List)
	}
	// A pointer to the type that holds it ends the chain: filling it
	// would never end.
	if b.Chain.Next != nil {
		t.Errorf("chain.next = %+v, want nil", b.Chain.Next)
	}
	if !reflect.DeepEqual(b.Votes, map[sim.NodeID]int{9: 9}) {
		t.Errorf("votes = %v, want the prototype's {9: 9}", b.Votes)
	}
}

// Maps are set from tables {[key]=value, ...}; integer keys may be strings,
// as events show them, so that a message read from a trace can be sent
// again.
func TestInjectSetsMaps(t *testing.T) {
	got := delivered(t, `w:inject{from=1, to=2, kind="BAG",
  votes={[1]=0, [2]=-3, [7]=2^53},
  names={a=true, b=false},
  routes={[3]={1, 2}, [4]={}},
  boxes={[-1]={n=4, seen={[2]=true}}},
  ptr={seen={[1]=true}},
  count=6,
  chain={next={v=2, next={v=3}}}}
local seen
w:on("deliver", function(ev) seen = ev.msg end)
w:run()
w:inject{from=2, to=3, kind="BAG", votes=seen.votes, routes=seen.routes}
w:run()`)
	if len(got) != 2 {
		t.Fatalf("%d deliveries, want 2", len(got))
	}
	b := got[0]
	checks := []struct {
		name      string
		got, want any
	}{
		{"votes", b.Votes, map[sim.NodeID]int{1: 0, 2: -3, 7: 1 << 53}},
		{"names", b.Names, map[string]bool{"a": true, "b": false}},
		{"routes", b.Routes, map[sim.NodeID][]sim.NodeID{3: {1, 2}, 4: {}}},
		{"boxes", b.Boxes, map[int]inner{-1: {N: 4, Seen: map[sim.NodeID]bool{2: true}}}},
		{"ptr", *b.Ptr, inner{N: 5, Seen: map[sim.NodeID]bool{1: true}}},
		{"count", *b.Count, 6},
		{"chain", [3]int{b.Chain.V, b.Chain.Next.V, b.Chain.Next.Next.V}, [3]int{0, 2, 3}},
		{"votes read back from the event", got[1].Votes, b.Votes},
		{"routes read back from the event", got[1].Routes, b.Routes},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// Injecting never writes into the prototype, which every later message of
// the kind starts from.
func TestInjectLeavesThePrototypeAlone(t *testing.T) {
	delivered(t, `w:inject{from=1, to=2, kind="BAG", votes={[1]=1}, ptr={n=8, seen={[3]=true}}}
w:run()`)
	if !reflect.DeepEqual(bagProto, bag{Votes: map[sim.NodeID]int{9: 9}, Ptr: &inner{N: 5}}) {
		t.Errorf("the prototype changed: %+v (ptr %+v)", bagProto, bagProto.Ptr)
	}
}

func TestInjectMapErrors(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"not a table", `w:inject{from=1, to=2, kind="BAG", votes=3}`,
			`t.lua:2: w:inject: message BAG field "votes": want a table {[key]=value, ...}, got 3`},
		{"key of the wrong type", `w:inject{from=1, to=2, kind="BAG", votes={x=1}}`,
			`t.lua:2: w:inject: message BAG field "votes": key "x": want an integer, got "x"`},
		{"key not an integer", `w:inject{from=1, to=2, kind="BAG", votes={[1.5]=1}}`,
			`t.lua:2: w:inject: message BAG field "votes": key 1.5: want an integer, got 1.5`},
		{"value of the wrong type", `w:inject{from=1, to=2, kind="BAG", votes={[1]=1, [2]="two"}}`,
			`t.lua:2: w:inject: message BAG field "votes": element [2]: want an integer, got "two"`},
		{"nested element", `w:inject{from=1, to=2, kind="BAG", routes={[3]={1, "x"}}}`,
			`t.lua:2: w:inject: message BAG field "routes": element [3]: element 2: want an integer, got "x"`},
		{"key given twice", `w:inject{from=1, to=2, kind="BAG", votes={[1]=1, ["1"]=2}}`,
			`t.lua:2: w:inject: message BAG field "votes": key "1" is given twice`},
		{"string keys stay strings", `w:inject{from=1, to=2, kind="BAG", names={[1]=true}}`,
			`t.lua:2: w:inject: message BAG field "names": key 1: want a string, got 1`},
		{"pointer to a struct", `w:inject{from=1, to=2, kind="BAG", ptr={m=1}}`,
			`t.lua:2: w:inject: message BAG field "ptr": no field "m" (fields: seen, n)`},
		{"a table that contains itself", `local t = {} t.next = t
w:inject{from=1, to=2, kind="BAG", chain=t}`,
			`t.lua:3: w:inject: message BAG field "chain": field "next": field "next": ... nested more than 32 levels deep`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := run(t, bagWorld(c.body))
			if err == nil {
				t.Fatalf("no error, want %s", c.want)
			}
			got := scriptError(t, err).Error()
			// A "..." in want stands for any text.
			head, tail, cut := strings.Cut(c.want, "...")
			if !cut && got != c.want || cut && !(strings.HasPrefix(got, head) && strings.HasSuffix(got, tail)) {
				t.Errorf("error\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// The brief's example: a TOKEN given only its kind used to carry a nil map,
// and the algorithm panicked writing into it at its next release.
func TestInjectedTokenIsUsable(t *testing.T) {
	for _, extra := range []string{"", ", token={[1]=0, [2]=0, [3]=0}", `, token={["2"]=4}`} {
		_, out := mustRun(t, `
local w = sim.world{algorithm="mutex.ricartagrawala2", n=3}
w:inject{from=1, to=2, kind="TOKEN"`+extra+`}
w:run()
w:command(2, "request", {duration=2})
w:command(3, "request", {duration=2})
w:run()
print(w:node(2):get("cs"), w:node(3):get("cs"), w:node(3):get("token_state"))`)
		if out != "released\treleased\tTOKEN-PRESENT\n" {
			t.Errorf("TOKEN%s: printed %q", extra, out)
		}
	}
}
