package script

import (
	"errors"

	"dsim/core/algo"
	"dsim/core/sim"
)

// test.echo is a small algorithm for these tests only (the real ones live
// elsewhere and are written concurrently): a PING carries a hop count round
// the ring, each process counts what it received, and a few commands
// exercise timers, logs, errors and panics.

type ping struct {
	Hops int          `json:"hops"`
	Path []sim.NodeID `json:"path"`
	Note string       `json:"note"`
}

func (ping) Kind() string { return "PING" }

type pong struct {
	To   sim.NodeID `json:"to"`
	Fast bool       `json:"fast"`
}

func (*pong) Kind() string { return "PONG" }

type echo struct {
	cfg   algo.Values
	got   int
	ticks int
}

func (e *echo) Start(ctx sim.Context) {
	ids := append([]sim.NodeID{ctx.Self()}, ctx.Peers()...)
	top := ids[0]
	for _, id := range ids {
		top = max(top, id)
	}
	ctx.Set("leader", top)
	ctx.Set("got", 0)
}

func (e *echo) Receive(ctx sim.Context, from sim.NodeID, m sim.Message) {
	e.got++
	ctx.Set("got", e.got)
	ctx.Set("last", m.Kind())
	if p, ok := m.(ping); ok && p.Hops > 1 {
		next := ping{Hops: p.Hops - 1, Path: append(append([]sim.NodeID(nil), p.Path...), ctx.Self()), Note: p.Note}
		ctx.Send(ctx.Neighbor(1), next)
	}
}

func (e *echo) Timer(ctx sim.Context, tag string) {
	e.ticks++
	ctx.Set("ticks", e.ticks)
	ctx.Log("tick %d", e.ticks)
	ctx.SetTimer(sim.Duration(e.cfg.Int("every")), "tick")
}

func (e *echo) Command(ctx sim.Context, name string, args sim.Args) error {
	switch name {
	case "ping":
		hops, err := args.Int("hops", e.cfg.Int("hops"))
		if err != nil {
			return err
		}
		to, err := args.Int("to", int(ctx.Neighbor(1)))
		if err != nil {
			return err
		}
		ctx.Send(sim.NodeID(to), ping{Hops: hops, Path: []sim.NodeID{ctx.Self()}, Note: e.cfg.String("greeting")})
	case "tick":
		ctx.SetTimer(sim.Duration(e.cfg.Int("every")), "tick")
	case "fail":
		return errors.New("told to fail")
	case "boom":
		var m map[string]int
		m["x"] = 1 // a deliberate algorithm bug: assignment to a nil map
	}
	return nil
}

func init() {
	algo.Register(algo.Spec{
		Name:        "test.echo",
		Summary:     "test-only: pings round a ring",
		Description: "Used by the core/script tests.",
		Topology:    "ring",
		// Every fault, so that the tests of faults see no warning; those of
		// the warnings use the registered algorithms.
		Assumptions: algo.Assumptions{Loss: true, Duplication: true, Partitions: true, Crashes: algo.CrashRecovery},
		Config: []algo.Param{
			{Name: "hops", Type: algo.Int, Default: 1, Doc: "hops of a ping", Min: 0, Max: 1000},
			{Name: "every", Type: algo.Int, Default: 10, Doc: "tick period"},
			{Name: "greeting", Type: algo.Str, Default: "hi", Doc: "note carried by pings"},
			{Name: "loud", Type: algo.Bool, Default: false, Doc: "unused"},
		},
		Commands: []algo.CommandSpec{
			{Name: "ping", Args: "to=<id> hops=<n>", Doc: "send a PING"},
			{Name: "tick", Doc: "start a periodic timer"},
			{Name: "fail", Doc: "return an error"},
			{Name: "boom", Doc: "panic"},
		},
		State:    []algo.StateKey{{Key: "got", Doc: "messages received"}, {Key: "leader", Doc: "highest id"}},
		Messages: []sim.Message{ping{Note: "proto"}, &pong{}},
		New: func(cfg algo.Values) (sim.Factory, error) {
			return func(sim.NodeID) sim.Node { return &echo{cfg: cfg} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(96), BootEvents: 2},
	})
}
