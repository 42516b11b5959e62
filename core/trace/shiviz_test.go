package trace_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"dsim/core/sim"
	"dsim/core/trace"
)

type rumor struct{ Hops int }

func (rumor) Kind() string { return "RUMOR" }

// spreader forwards rumors to random peers, with timers, logs (one with a
// hostile string) and state changes as local events.
type spreader struct{}

func (spreader) Start(ctx sim.Context) {
	ctx.SetTimer(sim.Duration(1+ctx.Rand().IntN(5)), "go")
}

func (spreader) Receive(ctx sim.Context, _ sim.NodeID, m sim.Message) {
	r := m.(rumor)
	ctx.Set("hops", r.Hops)
	if r.Hops < 4 {
		p := ctx.Peers()
		ctx.Send(p[ctx.Rand().IntN(len(p))], rumor{r.Hops + 1})
	}
}

func (spreader) Timer(ctx sim.Context, _ string) {
	ctx.Log("start {\"P1\":99}\n=== fake delimiter ===")
	p := ctx.Peers()
	ctx.Send(p[ctx.Rand().IntN(len(p))], rumor{0})
}

func (spreader) Command(sim.Context, string, sim.Args) error { return nil }

func runWorld(t *testing.T, seed uint64, index int) trace.World {
	t.Helper()
	ids := []sim.NodeID{4, 1, 3, 2}
	s, err := sim.New(sim.Config{Seed: seed, Topology: sim.Topology{IDs: ids},
		Factory: func(sim.NodeID) sim.Node { return spreader{} },
		Link:    sim.Link{Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: 9}, Dup: 0.2, Loss: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	rec := &trace.Recorder{}
	s.Observe(rec.Record)
	s.At(15, func() { _ = s.Crash(3) })
	s.At(30, func() { _ = s.Recover(3) })
	s.At(20, func() { s.Emit(trace.Event{Type: trace.Log, Node: trace.NoNode, Text: "scenario note"}) })
	s.Run(sim.Until{})
	h := trace.Header{World: index, Algorithm: "gossip", Seed: seed}
	for _, id := range ids {
		h.IDs = append(h.IDs, int(id))
	}
	return trace.World{Header: h, Events: rec.Events}
}

// shivizEvent is one event as ShiViz would parse it.
type shivizEvent struct {
	host  string
	clock map[string]uint64
	text  string
}

// parseShiViz reads a ShiViz file the way ShiViz does: the first line is
// the parser, the second the delimiter, the rest is split into executions
// by the delimiter and each is scanned with the parser.
func parseShiViz(t *testing.T, data string) (labels []string, execs [][]shivizEvent) {
	t.Helper()
	lines := strings.SplitN(data, "\n", 3)
	if len(lines) != 3 || lines[0] != trace.ShiVizRegex || lines[1] != trace.ShiVizDelimiter {
		t.Fatalf("header lines %q", lines[:2])
	}
	parser := regexp.MustCompile("(?m)" + lines[0])
	delim := regexp.MustCompile("(?m)" + lines[1])
	log := lines[2]
	bounds := delim.FindAllStringSubmatchIndex(log, -1)
	for k, b := range bounds {
		labels = append(labels, log[b[2]:b[3]])
		end := len(log)
		if k+1 < len(bounds) {
			end = bounds[k+1][0]
		}
		if strings.TrimSpace(log[:bounds[0][0]]) != "" {
			t.Fatalf("text before the first delimiter: %q", log[:bounds[0][0]])
		}
		var evs []shivizEvent
		for _, m := range parser.FindAllStringSubmatch(log[b[1]:end], -1) {
			e := shivizEvent{host: m[parser.SubexpIndex("host")], text: m[parser.SubexpIndex("event")]}
			if err := json.Unmarshal([]byte(m[parser.SubexpIndex("clock")]), &e.clock); err != nil {
				t.Fatalf("clock %q: %v", m[parser.SubexpIndex("clock")], err)
			}
			evs = append(evs, e)
		}
		execs = append(execs, evs)
	}
	return labels, execs
}

var msgRef = regexp.MustCompile(`^t=\d+ (send|deliver) .* \[m(\d+)\]$`)

func TestShiVizClocks(t *testing.T) {
	worlds := []trace.World{runWorld(t, 1, 1), runWorld(t, 2, 2)}
	var buf bytes.Buffer
	if err := trace.WriteShiViz(&buf, worlds); err != nil {
		t.Fatal(err)
	}
	labels, execs := parseShiViz(t, buf.String())
	if len(execs) != 2 || labels[0] != "world 1: gossip seed 1" || labels[1] != "world 2: gossip seed 2" {
		t.Fatalf("executions %q", labels)
	}
	for w, evs := range execs {
		var atNodes []trace.Event
		for _, e := range worlds[w].Events {
			if e.Node != trace.NoNode {
				atNodes = append(atNodes, e)
			}
		}
		if len(evs) != len(atNodes) {
			t.Fatalf("world %d: ShiViz sees %d events, the trace has %d at processes", w+1, len(evs), len(atNodes))
		}
		checkVectorClocks(t, evs, atNodes)
	}
}

// checkVectorClocks checks each clock against the rules (own entry +1 per
// event, merge with the send's clock on delivery) and that clock order is
// exactly happened-before, computed independently from the trace.
func checkVectorClocks(t *testing.T, evs []shivizEvent, src []trace.Event) {
	prev := map[string]map[string]uint64{}
	sendClock := map[string]map[string]uint64{}
	sendIndex := map[string]int{}
	lastAt := map[string]int{}
	// before[i] holds the indexes of i's immediate predecessors.
	before := make([][]int, len(evs))
	deliveries := 0
	for i, e := range evs {
		if want := "P" + strconv.Itoa(src[i].Node); e.host != want {
			t.Fatalf("event %d: host %s, want %s", i, e.host, want)
		}
		want := map[string]uint64{}
		for h, x := range prev[e.host] {
			want[h] = x
		}
		m := msgRef.FindStringSubmatch(e.text)
		if m != nil && m[1] == "deliver" {
			deliveries++
			for h, x := range sendClock[m[2]] {
				want[h] = max(want[h], x)
			}
			before[i] = append(before[i], sendIndex[m[2]])
		}
		want[e.host]++
		if len(want) != len(e.clock) {
			t.Fatalf("event %d %q: clock %v, want %v", i, e.text, e.clock, want)
		}
		for h, x := range want {
			if e.clock[h] != x {
				t.Fatalf("event %d %q: clock %v, want %v", i, e.text, e.clock, want)
			}
		}
		if m != nil && m[1] == "send" {
			sendClock[m[2]], sendIndex[m[2]] = e.clock, i
		}
		if k, ok := lastAt[e.host]; ok {
			before[i] = append(before[i], k)
		}
		lastAt[e.host] = i
		prev[e.host] = e.clock
	}
	if deliveries < 10 {
		t.Fatalf("only %d deliveries: the run is too thin to test merging", deliveries)
	}
	// happened-before by reachability over the predecessor graph.
	hb := make([][]bool, len(evs))
	for i := range evs {
		hb[i] = make([]bool, len(evs))
		for _, p := range before[i] {
			hb[i][p] = true
			for k := range evs {
				if hb[p][k] {
					hb[i][k] = true
				}
			}
		}
	}
	leq := func(a, b map[string]uint64) bool {
		for h, x := range a {
			if x > b[h] {
				return false
			}
		}
		return true
	}
	for i := range evs {
		for k := range evs {
			if i == k {
				continue
			}
			clockBefore := leq(evs[k].clock, evs[i].clock)
			if clockBefore != hb[i][k] {
				t.Fatalf("events %d (%s %q) and %d (%s %q): clock order %v, happened-before %v",
					k, evs[k].host, evs[k].text, i, evs[i].host, evs[i].text, clockBefore, hb[i][k])
			}
		}
	}
}

func TestShiVizLeavesOutScenarioEvents(t *testing.T) {
	v := trace.NewShiViz(nil)
	if out := v.Append(nil, &trace.Event{Type: trace.Check, Node: trace.NoNode, Text: "x"}); len(out) != 0 {
		t.Fatalf("an event at no process gave %q", out)
	}
	out := string(v.Append(nil, &trace.Event{T: 3, Type: trace.Log, Node: 7, Text: "a\nb"}))
	if out != "P7 {\"P7\":1}\nt=3 log a\\nb\n" {
		t.Fatalf("got %q", out)
	}
}
