package sim

import (
	"testing"

	"dsim/core/trace"
)

// fnNode is a Node whose behaviour each test writes inline.
type fnNode struct {
	start   func(ctx Context)
	receive func(ctx Context, from NodeID, m Message)
	timer   func(ctx Context, tag string)
	suspect func(ctx Context, id NodeID)
}

func (n *fnNode) Start(ctx Context) {
	if n.start != nil {
		n.start(ctx)
	}
}

func (n *fnNode) Receive(ctx Context, from NodeID, m Message) {
	if n.receive != nil {
		n.receive(ctx, from, m)
	}
}

func (n *fnNode) Timer(ctx Context, tag string) {
	if n.timer != nil {
		n.timer(ctx, tag)
	}
}

func (n *fnNode) Command(Context, string, Args) error { return nil }

// suspectNode adds the SuspectHandler side.
type suspectNode struct{ fnNode }

func (n *suspectNode) Suspect(ctx Context, id NodeID) { n.suspect(ctx, id) }

// msg is a test message with a payload.
type msg struct {
	N int `json:"n"`
}

func (msg) Kind() string { return "M" }

// world builds a run on ids (complete graph) with every node made by mk,
// and records its trace.
func world(t testing.TB, ids []NodeID, link Link, mk func(id NodeID) Node, opt ...func(*Config)) (*Sim, *trace.Recorder) {
	t.Helper()
	cfg := Config{Seed: 1, Topology: Topology{Name: "complete", IDs: ids}, Factory: mk, Link: link}
	for _, o := range opt {
		o(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rec := &trace.Recorder{}
	s.Observe(rec.Record)
	return s, rec
}

func idle(NodeID) Node { return &fnNode{} }

// of returns the events of type typ.
func of(rec *trace.Recorder, typ trace.Type) []trace.Event {
	var out []trace.Event
	for _, e := range rec.Events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
