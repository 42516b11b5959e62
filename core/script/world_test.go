package script

import (
	"reflect"
	"testing"

	"dsim/core/trace"
)

func TestWorldHeader(t *testing.T) {
	cases := []struct {
		name, keys string
		opt        Options
		want       trace.Header
	}{
		{"textbook ring ids, the algorithm's topology", `ids={3, 5, 0, 1, 4, 6}`, Options{Seed: 9},
			trace.Header{Topology: "ring", Seed: 9, IDs: []int{3, 5, 0, 1, 4, 6}, Adj: [][]int{{5}, {0}, {1}, {4}, {6}, {3}}}},
		{"n and first", `n=3, first=0, topology="line"`, Options{Seed: 1},
			trace.Header{Topology: "line", Seed: 1, IDs: []int{0, 1, 2}, Adj: [][]int{{1}, {0, 2}, {1}}}},
		{"complete graph has no adjacency list", `n=3, topology="complete"`, Options{Seed: 1},
			trace.Header{Topology: "complete", Seed: 1, IDs: []int{1, 2, 3}}},
		{"tree arity", `n=4, topology="tree", arity=3`, Options{Seed: 1},
			trace.Header{Topology: "tree", Seed: 1, IDs: []int{1, 2, 3, 4}, Arity: 3, Adj: [][]int{{2, 3, 4}, {1}, {1}, {1}}}},
		{"grid cols", `n=4, topology="grid", cols=2`, Options{Seed: 1},
			trace.Header{Topology: "grid", Seed: 1, IDs: []int{1, 2, 3, 4}, Cols: 2, Adj: [][]int{{2, 3}, {1, 4}, {1, 4}, {2, 3}}}},
		{"edge list", `topology="edges", edges={{7, 8}, {8, 9}}`, Options{Seed: 1},
			trace.Header{Topology: "edges", Seed: 1, IDs: []int{7, 8, 9}, Adj: [][]int{{8}, {7, 9}, {8}}}},
		{"the world's seed", `n=2, seed=5`, Options{Seed: 1},
			trace.Header{Topology: "ring", Seed: 5, IDs: []int{1, 2}, Adj: [][]int{{2}, {1}}}},
		{"a forced run seed overrides it", `n=2, seed=5`, Options{Seed: 3, SeedSet: true},
			trace.Header{Topology: "ring", Seed: 3, IDs: []int{1, 2}, Adj: [][]int{{2}, {1}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, _ := mustRun(t, `sim.world{algorithm="test.echo", config={greeting="yo"}, `+c.keys+`}`, c.opt)
			want := c.want
			want.Schema, want.World, want.Algorithm = trace.Schema, 1, "test.echo"
			want.Config = []trace.Setting{{Key: "every", Value: 10}, {Key: "greeting", Value: "yo"}, {Key: "hops", Value: 1}, {Key: "loud", Value: false}}
			if got := res.Worlds[0].Header; !reflect.DeepEqual(got, want) {
				t.Errorf("header\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}

func TestShuffledIDsFollowTheSeed(t *testing.T) {
	ids := func(seed uint64) []int {
		res, _ := mustRun(t, `sim.world{algorithm="test.echo", n=8, ids="shuffled"}`, Options{Seed: seed})
		return res.Worlds[0].Header.IDs
	}
	a, b, c := ids(1), ids(1), ids(2)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("seed 1 shuffled twice: %v, %v", a, b)
	}
	if reflect.DeepEqual(a, c) {
		t.Errorf("seeds 1 and 2 give the same order %v", a)
	}
	seen := map[int]bool{}
	for _, id := range a {
		seen[id] = true
	}
	if len(seen) != 8 || !seen[1] || !seen[8] {
		t.Errorf("%v is not a permutation of 1..8", a)
	}
}

// The network keys reach the kernel: latency, loss, dup, FIFO and the
// failure detector's delay change what happens.
func TestWorldNetworkKeys(t *testing.T) {
	cases := []struct{ name, keys, action, want string }{
		{"constant latency", `latency=7`, `w:command(1, "ping")`, "deliver\t7\n"},
		{"uniform latency", `latency={"uniform", 20, 20}`, `w:command(1, "ping")`, "deliver\t20\n"},
		{"loss", `loss=1`, `w:command(1, "ping")`, "drop\t0\tloss\n"},
		{"duplication", `dup=1`, `w:command(1, "ping")`, "deliver\t1\ndeliver\t1\n"},
		{"detector delay", `detector=12`, `w:crash(2)`, "suspect\t12\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, out := mustRun(t, `
local w = sim.world{algorithm="test.echo", n=2, `+c.keys+`}
w:run()
w:on("deliver", function(ev) print("deliver", ev.t) end)
w:on("drop", function(ev) print("drop", ev.t, ev.reason) end)
w:on("suspect", function(ev) print("suspect", ev.t) end)
`+c.action+`
w:run()`)
			if out != c.want {
				t.Errorf("output %q, want %q", out, c.want)
			}
		})
	}
}

// Without FIFO, random latencies may reorder two messages on one link; with
// FIFO (the default) they never do.
func TestWorldFIFO(t *testing.T) {
	const src = `
local w = sim.world{algorithm="test.echo", n=2, latency={"uniform", 1, 50}, fifo=%s}
local order = {}
w:on("deliver", function(ev) order[#order+1] = ev.id end)
for i = 1, 20 do w:command(1, "ping") end
w:run()
local sorted = true
for i = 2, #order do sorted = sorted and order[i-1] < order[i] end
print(#order, sorted)`
	_, fifo := mustRun(t, sprintf(src, "true"))
	_, loose := mustRun(t, sprintf(src, "false"))
	if fifo != "20\ttrue\n" || loose != "20\tfalse\n" {
		t.Errorf("fifo=true: %q (want in order), fifo=false: %q (want reordered)", fifo, loose)
	}
}

func TestNoTraceOption(t *testing.T) {
	res, out := mustRun(t, `
local w = sim.world{algorithm="test.echo", n=3}
local n = 0
w:on("deliver", function() n = n + 1 end)
w:command(1, "ping")
w:run()
expect(n == 1, "hooks still run")
print(n, pcall(w.count, w))`, Options{Seed: 1, NoTrace: true})
	if res.Worlds[0].Events != nil || res.Worlds[0].Header.Algorithm != "test.echo" {
		t.Errorf("NoTrace recorded %d events (header %+v)", len(res.Worlds[0].Events), res.Worlds[0].Header)
	}
	if want := "1\tfalse\tt.lua:8: w:count: this world records no trace (trace=false or tracing is off for the run)\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if len(res.Checks) != 1 || !res.Checks[0].Pass {
		t.Errorf("checks %+v", res.Checks)
	}
}

func TestMaxEventsOptionCapsEveryWorld(t *testing.T) {
	res, out := mustRun(t, `
local w = sim.world{algorithm="test.echo", n=2, config={every=1}, max_events=0}
w:command(1, "tick")
print(w:run().reason, w:now())
local v = sim.world{algorithm="test.echo", n=2, config={every=1}, max_events=20}
v:command(1, "tick")
print(v:run().reason, v:now())`, Options{Seed: 1, MaxEvents: 50})
	if want := "event-limit\t48\nevent-limit\t18\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if len(res.Notes) != 2 {
		t.Errorf("notes %q", res.Notes)
	}
}
