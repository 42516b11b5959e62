package sim

import (
	"bytes"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dsim/core/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// gossip is the rich run's message: a float field checks that number
// formatting is the same everywhere, a slice that nested values are.
type gossip struct {
	Origin NodeID   `json:"origin"`
	N      int      `json:"n"`
	Weight float64  `json:"weight"`
	Path   []NodeID `json:"path"`
}

func (gossip) Kind() string { return "GOSSIP" }

type ack struct{ N int }

func (ack) Kind() string { return "ACK" }

// gossiper sends to random neighbours on randomly timed ticks, answers
// some messages, keeps observable state, and logs what the detector says.
type gossiper struct {
	count, best int
}

func (g *gossiper) Start(ctx Context) {
	ctx.Set("count", 0)
	ctx.SetTimer(Duration(1+ctx.Rand().IntN(20)), "tick")
}

func (g *gossiper) Receive(ctx Context, from NodeID, m Message) {
	switch m := m.(type) {
	case gossip:
		if m.N > g.best {
			g.best = m.N
			ctx.Set("best", g.best)
		}
		if m.N%3 == 0 {
			ctx.Send(from, ack{m.N})
		}
		if len(m.Path) < 4 && ctx.Rand().IntN(2) == 0 {
			m.Path = append(append([]NodeID(nil), m.Path...), ctx.Self())
			ctx.Broadcast(m)
		}
	case ack:
		ctx.CancelTimer("timeout")
	}
}

func (g *gossiper) Timer(ctx Context, tag string) {
	switch tag {
	case "tick":
		g.count++
		ctx.Set("count", g.count)
		nb := ctx.Neighbors()
		to := nb[ctx.Rand().IntN(len(nb))]
		ctx.Send(to, gossip{Origin: ctx.Self(), N: g.count, Weight: float64(g.count) / 3, Path: []NodeID{ctx.Self()}})
		ctx.SetTimer(Duration(5+ctx.Rand().IntN(30)), "tick")
		ctx.SetTimer(25, "timeout")
	case "timeout":
		ctx.Log("no ack by local time %d", ctx.Now())
	}
}

func (g *gossiper) Command(ctx Context, name string, args Args) error {
	n, err := args.Int("n", 1)
	if err != nil {
		return err
	}
	for range n {
		ctx.Send(ctx.Neighbor(1), gossip{Origin: ctx.Self(), N: -1})
	}
	return nil
}

func (g *gossiper) Suspect(ctx Context, id NodeID) {
	ctx.Log("suspect %d, suspected=%v", id, ctx.Suspected(id))
}

// richTrace runs a fixed scenario that touches every part of the kernel —
// random, exponential and long-tailed latencies, loss, duplication, FIFO
// and unordered links, drifting clocks, crashes and recoveries, the
// detector, partitions, cut links, injected messages and commands — and
// returns its JSONL trace.
func richTrace(t testing.TB, seed uint64) []byte {
	ids := []NodeID{3, 5, 0, 1, 4, 6, 2, 7}
	n := len(ids)
	adj := make([][]int32, n)
	for i := range n {
		adj[i] = []int32{int32((i + 1) % n), int32((i + n - 1) % n)}
	}
	adj[2] = append(adj[2], 6)
	adj[6] = append(adj[6], 2)
	s, err := New(Config{
		Seed:        seed,
		Topology:    Topology{Name: "rich", IDs: ids, Adj: adj},
		Factory:     func(NodeID) Node { return &gossiper{} },
		Link:        Link{Latency: Dist{Kind: Uniform, A: 1, B: 12}, Loss: 0.05, Dup: 0.05},
		DetectDelay: 15,
		MaxTime:     800,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	s.Observe(func(e *trace.Event) { out = trace.AppendJSONL(out, e) })
	check := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	check(s.SetLink(3, 5, Link{Latency: Dist{Kind: Exponential, A: 1, B: 6}, FIFO: true}))
	check(s.SetLink(5, 0, Link{Latency: Dist{Kind: Pareto, A: 2, B: 1.2}}))
	check(s.SetLink(0, 1, Link{Latency: Dist{Kind: Constant, A: 3}, FIFO: true}))
	check(s.SetLink(1, 4, Link{Latency: Dist{Kind: Uniform, A: 1, B: 3}, Dup: 0.3}))
	check(s.SetClock(3, 100, 0.05))
	check(s.SetClock(5, -20, -0.1))
	check(s.SetClock(6, 0, 0.3))
	at := func(t Time, f func() error) { s.At(t, func() { check(f()) }) }
	at(50, func() error { return s.Crash(4) })
	at(90, func() error { return s.Inject(7, 3, gossip{Origin: 7, N: 99, Weight: 0.1}) })
	at(120, func() error { return s.Recover(4) })
	at(200, func() error { return s.Partition([][]NodeID{{3, 5, 0}, {1, 4}}) })
	at(260, func() error { s.Heal(); return nil })
	at(300, func() error { return s.Cut(3, 5) })
	at(350, func() error { return s.Mend(3, 5) })
	at(400, func() error { return s.Crash(3) })
	at(401, func() error { return s.Crash(6) })
	at(450, func() error { return s.Recover(6) })
	at(500, func() error { return s.Command(5, "poke", Args{"n": 2}) })
	at(600, func() error { return s.SetDefaultLink(Link{Latency: Dist{Kind: Exponential, A: 2, B: 3}, FIFO: true}) })
	if res := s.Run(Until{}); res.Reason != TimeLimit {
		t.Fatalf("rich run ended %v", res)
	}
	return out
}

// TestGoldenTraceHash pins the rich run's trace by its hash. The same test
// passing natively and under GOOS=js GOARCH=wasm shows the kernel gives
// byte-identical traces on both. Rewrite with go test -run Golden -update.
func TestGoldenTraceHash(t *testing.T) {
	out := richTrace(t, 42)
	h := fnv.New64a()
	h.Write(out)
	got := fmt.Sprintf("fnv64a %016x lines %d bytes %d\n", h.Sum64(), bytes.Count(out, []byte("\n")), len(out))
	path := filepath.Join("testdata", "rich_trace.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Fatalf("rich trace changed:\n got  %s want %s", got, want)
	}
	// The run must really cover what it claims to.
	for _, s := range []string{`"reason":"loss"`, `"reason":"crashed"`, `"reason":"partition"`, `"type":"suspect"`,
		`"type":"trust"`, `"type":"recover"`, `"type":"command"`, `"type":"heal"`, `"type":"log"`, `"weight":0.3333333333333333`} {
		if !bytes.Contains(out, []byte(s)) {
			t.Errorf("the rich trace has no %s", s)
		}
	}
	dup := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, `"type":"deliver"`) {
			dup[line[strings.Index(line, `"id":`):]]++
		}
	}
	twice := 0
	for _, c := range dup {
		if c > 1 {
			twice++
		}
	}
	if twice == 0 {
		t.Error("the rich trace has no duplicated delivery")
	}
}
