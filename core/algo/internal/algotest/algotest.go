// Package algotest builds small traced worlds for the algorithm tests and
// reads their traces back: who sent what to whom, and when.
package algotest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/election"
	"dsim/core/sim"
	"dsim/core/topo"
	"dsim/core/trace"
)

// Setup describes a world. Zero fields take defaults: the algorithm's own
// topology, latency 1 on FIFO links, no detector delay.
type Setup struct {
	Algo   string
	Config map[string]any
	IDs    []sim.NodeID // in ring order
	Kind   string       // topology
	Link   sim.Link
	Detect sim.Duration
	Seed   uint64
}

// World is a traced run.
type World struct {
	*sim.Sim
	Rec *trace.Recorder
	t   testing.TB
}

// New builds the world or fails the test.
func New(t testing.TB, s Setup) *World {
	t.Helper()
	spec, err := algo.Lookup(s.Algo)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := spec.Resolve(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	factory, err := spec.New(vals)
	if err != nil {
		t.Fatal(err)
	}
	kind := s.Kind
	if kind == "" {
		kind = spec.Topology
	}
	g, err := topo.Build(topo.Spec{Kind: kind, IDs: s.IDs})
	if err != nil {
		t.Fatal(err)
	}
	link := s.Link
	if link == (sim.Link{}) {
		link = sim.DefaultLink
	}
	sm, err := sim.New(sim.Config{Seed: s.Seed, Topology: g.Topology, Factory: factory, Link: link, DetectDelay: s.Detect, MaxEvents: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	w := &World{Sim: sm, Rec: &trace.Recorder{}, t: t}
	sm.Observe(w.Rec.Record)
	return w
}

// IDs returns 1..n.
func IDs(n int) []sim.NodeID {
	ids := make([]sim.NodeID, n)
	for i := range ids {
		ids[i] = sim.NodeID(i + 1)
	}
	return ids
}

func (w *World) at(t sim.Time, what string, f func() error) {
	w.At(t, func() {
		if err := f(); err != nil {
			w.t.Errorf("t=%d %s: %v", t, what, err)
		}
	})
}

// Crash crashes id at time t.
func (w *World) Crash(t sim.Time, ids ...sim.NodeID) {
	for _, id := range ids {
		w.at(t, "crash", func() error { return w.Sim.Crash(id) })
	}
}

// Recover recovers id at time t.
func (w *World) Recover(t sim.Time, id sim.NodeID) {
	w.at(t, "recover", func() error { return w.Sim.Recover(id) })
}

// Command gives id a command at time t.
func (w *World) Command(t sim.Time, id sim.NodeID, name string) { w.CommandArgs(t, id, name, nil) }

// CommandArgs gives id a command with arguments at time t.
func (w *World) CommandArgs(t sim.Time, id sim.NodeID, name string, args sim.Args) {
	w.at(t, "command "+name, func() error { return w.Sim.Command(id, name, args) })
}

// Inject sends a hand-made message at time t.
func (w *World) Inject(t sim.Time, from, to sim.NodeID, m sim.Message) {
	w.at(t, "inject", func() error { return w.Sim.Inject(from, to, m) })
}

// Run runs to quiescence or to time until, whichever comes first (0: no
// time bound), and fails the test if a run limit stopped it.
func (w *World) Run(until sim.Time) sim.Result {
	w.t.Helper()
	r := w.Sim.Run(sim.Until{Time: until})
	if r.Limited() {
		w.t.Fatalf("run %s", r)
	}
	return r
}

// Msg is one send, deliver or drop from the trace.
type Msg struct {
	T        sim.Time
	From, To sim.NodeID
	Msg      any
}

func (m Msg) String() string { return fmt.Sprintf("t=%d %d->%d %v", m.T, m.From, m.To, m.Msg) }

// events returns the messages of trace type typ and kind ("" for any kind).
func (w *World) events(typ trace.Type, kind string) []Msg {
	var out []Msg
	for _, e := range w.Rec.Events {
		if e.Type == typ && (kind == "" || e.Kind == kind) {
			out = append(out, Msg{T: sim.Time(e.T), From: sim.NodeID(e.From), To: sim.NodeID(e.To), Msg: e.Msg})
		}
	}
	return out
}

// Sends returns the sends of a kind, in order.
func (w *World) Sends(kind string) []Msg { return w.events(trace.Send, kind) }

// SentBy returns the message values of a kind that node id sent, in order.
func (w *World) SentBy(kind string, id sim.NodeID) []any {
	var out []any
	for _, m := range w.Sends(kind) {
		if m.From == id {
			out = append(out, m.Msg)
		}
	}
	return out
}

// Delivered returns the deliveries of a kind, in order.
func (w *World) Delivered(kind string) []Msg { return w.events(trace.Deliver, kind) }

// Timers returns the times timer tag fired at node id.
func (w *World) Timers(id sim.NodeID, tag string) []sim.Time {
	var out []sim.Time
	for _, e := range w.Rec.Events {
		if e.Type == trace.Timer && e.Node == int(id) && e.Tag == tag {
			out = append(out, sim.Time(e.T))
		}
	}
	return out
}

// Logs returns the log lines of node id, in order.
func (w *World) Logs(id sim.NodeID) []string {
	var out []string
	for _, e := range w.Rec.Events {
		if e.Type == trace.Log && e.Node == int(id) {
			out = append(out, e.Text)
		}
	}
	return out
}

// Logged reports whether node id logged a line containing text.
func (w *World) Logged(id sim.NodeID, text string) bool {
	return slices.ContainsFunc(w.Logs(id), func(l string) bool { return strings.Contains(l, text) })
}

// CheckLogged fails the test unless id logged a line containing text: the
// reason an algorithm gives for ignoring a message.
func (w *World) CheckLogged(id sim.NodeID, text string) {
	w.t.Helper()
	if !w.Logged(id, text) {
		w.t.Errorf("%d logged %q, want a line with %q", id, w.Logs(id), text)
	}
}

// Duplicating makes the link from a to b deliver every message twice, one
// tick after it is sent, in order.
func (w *World) Duplicating(a, b sim.NodeID) {
	w.t.Helper()
	if err := w.SetLink(a, b, sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: 1}, Dup: 1, FIFO: true}); err != nil {
		w.t.Fatal(err)
	}
}

// Pairs renders messages as "from->to" for compact comparisons.
func Pairs(ms []Msg) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("%d->%d", m.From, m.To)
	}
	return strings.Join(parts, " ")
}

// Count returns the number of sends of a kind.
func (w *World) Count(kind string) int { return len(w.Sends(kind)) }

// Elected checks the outcome at the end: every live process follows want,
// want alone has role leader, and nobody is still a candidate.
func (w *World) Elected(want sim.NodeID) {
	w.t.Helper()
	if err := Agreed(w.Sim, want); err != nil {
		w.t.Error(err)
	}
}

// Agreed reports whether the live processes of s agree on want as their
// coordinator: want is live and the only one with role leader, every live
// process has leader == want and none is a candidate.
func Agreed(s *sim.Sim, want sim.NodeID) error {
	if !s.Up(want) {
		return fmt.Errorf("the expected coordinator %d is not live", want)
	}
	var bad []string
	for _, id := range s.IDs() {
		if !s.Up(id) {
			continue
		}
		role, leader := s.Get(id, election.KeyRole), s.Get(id, election.KeyLeader)
		wantRole := election.Follower
		if id == want {
			wantRole = election.Leader
		}
		if role != wantRole || leader != want {
			bad = append(bad, fmt.Sprintf("%d has role=%v leader=%v", id, role, leader))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("want every live process to follow %d: %s", want, strings.Join(bad, ", "))
	}
	return nil
}

// HighestLive returns the highest live id.
func HighestLive(s *sim.Sim) sim.NodeID {
	best, found := sim.NodeID(0), false
	for _, id := range s.IDs() {
		if s.Up(id) && (!found || id > best) {
			best, found = id, true
		}
	}
	return best
}

// Senders returns the distinct senders of messages, in first-send order.
func Senders(ms []Msg) []sim.NodeID {
	var out []sim.NodeID
	for _, m := range ms {
		if !slices.Contains(out, m.From) {
			out = append(out, m.From)
		}
	}
	return out
}

// Quiescent runs the benchmarks' world: algorithm spec with configuration
// vals on topology tp, seed 1, the default link, tracing off, to
// quiescence.
func Quiescent(tb testing.TB, spec *algo.Spec, vals algo.Values, tp sim.Topology) *sim.Sim {
	factory, err := spec.New(vals)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := sim.New(sim.Config{Seed: 1, Topology: tp, Factory: factory, Link: sim.DefaultLink})
	if err != nil {
		tb.Fatal(err)
	}
	if r := s.Run(sim.Until{}); r.Reason != sim.Quiescent {
		tb.Fatalf("run ended %s", r)
	}
	return s
}
