package script

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/mutex"
	"dsim/core/sim"
)

// mutex.test is a small mutual exclusion algorithm for these tests only
// (the real ones are written concurrently): the lowest id coordinates, with
// a queue ordered by (req_ts, id) where req_ts is the requester's local time;
// REQUEST, GRANT and RELEASE. With config unsafe=true every request enters
// at once, so that the checkers have something to catch.

type tmRequest struct {
	TS int `json:"ts"`
}

func (tmRequest) Kind() string { return "REQUEST" }

type tmGrant struct{}

func (tmGrant) Kind() string { return "GRANT" }

type tmRelease struct{}

func (tmRelease) Kind() string { return "RELEASE" }

type tmutex struct {
	mutex.CS
	unsafe bool
	coord  sim.NodeID
	busy   bool
	queue  []mutex.Stamp
}

func (p *tmutex) Start(ctx sim.Context) {
	p.CS.Start(ctx)
	p.coord = slices.Min(append([]sim.NodeID{ctx.Self()}, ctx.Peers()...))
}

func (p *tmutex) Want(ctx sim.Context) {
	if p.unsafe {
		p.CS.Enter(ctx)
		return
	}
	ts := int(ctx.Now())
	ctx.Set(mutex.KeyStamp, ts)
	ctx.Send(p.coord, tmRequest{TS: ts})
}

func (p *tmutex) Exit(ctx sim.Context) {
	if !p.unsafe {
		ctx.Send(p.coord, tmRelease{})
	}
}

func (p *tmutex) Receive(ctx sim.Context, from sim.NodeID, m sim.Message) {
	switch m := m.(type) {
	case tmRequest:
		p.queue = append(p.queue, mutex.Stamp{TS: m.TS, ID: from})
		slices.SortFunc(p.queue, mutex.Stamp.Compare)
	case tmRelease:
		p.busy = false
	case tmGrant:
		p.CS.Enter(ctx)
		return
	}
	if !p.busy && len(p.queue) > 0 {
		p.busy = true
		ctx.Send(p.queue[0].ID, tmGrant{})
		p.queue = p.queue[1:]
	}
}

func (p *tmutex) Timer(ctx sim.Context, tag string) { p.CS.Timer(ctx, p, tag) }

func (p *tmutex) Command(ctx sim.Context, name string, args sim.Args) error {
	return p.CS.Command(ctx, p, name, args)
}

func init() {
	algo.Register(algo.Spec{
		Name:        "mutex.test",
		Summary:     "test-only: a coordinator granting in (req_ts, id) order",
		Description: "Used by the core/script tests.",
		Topology:    "complete",
		Config:      []algo.Param{{Name: "unsafe", Type: algo.Bool, Default: false, Doc: "enter at once"}},
		Commands:    mutex.Commands,
		State:       append(slices.Clone(mutex.StateKeys), mutex.StampKey),
		Messages:    []sim.Message{tmRequest{}, tmGrant{}, tmRelease{}},
		Properties:  []algo.Property{mutex.Safety, mutex.Liveness, mutex.Ordering},
		New: func(cfg algo.Values) (sim.Factory, error) {
			return func(sim.NodeID) sim.Node { return &tmutex{unsafe: cfg.Bool("unsafe")} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(160), Load: algo.Bytes(128), BootEvents: 1},
	})
}
