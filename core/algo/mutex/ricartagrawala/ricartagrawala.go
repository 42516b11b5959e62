// Package ricartagrawala is the Ricart-Agrawala algorithm: a timestamped
// REQUEST to every other process, which replies at once or defers its
// REPLY until it has left the critical section itself (the lecture notes
// "Synchronization, Coordination and Agreement", "The Ricart-Agrawala
// Algorithm").
package ricartagrawala

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/mutex"
	"dsim/core/proc"
)

// Request is REQUEST(ts_i, i), stamped with the sender's Lamport clock; the
// id is the sender's.
type Request struct {
	TS int `json:"ts"`
}

func (Request) Kind() string { return "REQUEST" }

// Reply is the permission to enter. It names the timestamp of the request
// it answers, so that a reply to an older request is never counted for a
// newer one.
type Reply struct {
	TS int `json:"ts"`
}

func (Reply) Kind() string { return "REPLY" }

// keyDeferred shows the processes whose requests wait for this one's
// release.
const keyDeferred = "deferred"

func init() {
	algo.Register(algo.Spec{
		Name:    "mutex.ricartagrawala",
		Summary: "Ricart-Agrawala: timestamped REQUEST to all; a process replies at once unless it holds the critical section or wants it with an earlier (timestamp, id), and then replies on release",
		Description: `The lecture notes "Synchronization, Coordination and Agreement", "The Ricart-Agrawala Algorithm", with Coulouris's RELEASED/WANTED/HELD states (the cs key).
Rules: to request, i sets WANTED, stamps the request with its Lamport clock and sends REQUEST(ts_i, i) to every other process. A process j receiving it advances its clock past ts_i and sends REPLY if it is neither requesting nor executing the critical section (RELEASED), or if it is requesting (WANTED) and (ts_i, i) is smaller than its own request's (ts_j, j); otherwise (HELD, or WANTED with the smaller request) it defers the request. i enters (HELD) on receiving a REPLY from every other process. To release, i sets RELEASED and sends REPLY to every deferred request, in the order they arrived. Cost: 2(n-1) messages per entry; requests are granted in (timestamp, id) order; FIFO links are not needed.
Where the text is silent: ties of timestamps are broken by the smaller id (the (timestamp, id) total order); only REQUEST is timestamped, and a REPLY names the timestamp of the request it answers (a REPLY for any other request, a second REPLY from the same process and a message from the process itself, which only duplicated or hand-made messages give, are ignored); req_ts is the request's timestamp and deferred the ids waiting for this process's release.
Assumptions: a complete graph and reliable links; any delivery order. Crashes are not tolerated: a crashed process never replies, so every later request waits forever, and a recovered process starts with a fresh clock and has forgotten the requests it deferred.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			Crashes: algo.NoCrashes,
		},
		Commands:   mutex.Commands,
		State:      append(slices.Clone(mutex.StateKeys), mutex.StampKey, algo.StateKey{Key: keyDeferred, Doc: "the ids of the requests deferred until this process releases, in arrival order (set when it changes)"}),
		Messages:   []proc.Message{Request{}, Reply{}},
		Properties: append(slices.Clone(mutex.Properties), mutex.Ordering),
		New: func(algo.Values) (proc.Factory, error) {
			return func(proc.NodeID) proc.Node { return &node{} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(160), Load: algo.Bytes(1024), BootEvents: 1},
	})
}

// deferred is a request waiting for this process's release.
type deferred struct {
	from proc.NodeID
	ts   int
}

type node struct {
	mutex.CS
	clock    mutex.Clock
	mine     mutex.Stamp          // the current request, while Wanted or Held
	replied  map[proc.NodeID]bool // the processes whose REPLY to mine has come
	deferred []deferred
}

func (p *node) Start(ctx proc.Context) {
	p.clock, p.mine, p.replied, p.deferred = 0, mutex.Stamp{}, nil, nil
	p.CS.Start(ctx)
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.CS.Command(ctx, p, name, args)
}

func (p *node) Timer(ctx proc.Context, tag string) {
	p.CS.Timer(ctx, p, tag)
}

// Want multicasts the timestamped REQUEST and waits for n-1 REPLYs.
func (p *node) Want(ctx proc.Context) {
	p.mine = mutex.Stamp{TS: p.clock.Tick(), ID: ctx.Self()}
	if p.replied == nil {
		p.replied = map[proc.NodeID]bool{}
	}
	clear(p.replied)
	ctx.Set(mutex.KeyStamp, p.mine.TS)
	for _, id := range ctx.Peers() {
		ctx.Send(id, Request{TS: p.mine.TS})
	}
	p.tryEnter(ctx)
}

// Exit replies to every deferred request.
func (p *node) Exit(ctx proc.Context) {
	if len(p.deferred) == 0 {
		return
	}
	for _, d := range p.deferred {
		ctx.Send(d.from, Reply{TS: d.ts})
	}
	p.deferred = nil
	ctx.Set(keyDeferred, []proc.NodeID{})
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	if from == ctx.Self() {
		// A process asks and answers only the others: a message from
		// itself is hand-made, and its REPLY would count as another
		// process's permission.
		ctx.Log("%s from itself ignored: a process sends itself nothing", m.Kind())
		return
	}
	switch msg := m.(type) {
	case Request:
		p.clock.Witness(msg.TS)
		if p.Held() || (p.Wanted() && p.mine.Less(mutex.Stamp{TS: msg.TS, ID: from})) {
			p.deferred = append(p.deferred, deferred{from: from, ts: msg.TS})
			ids := make([]proc.NodeID, len(p.deferred))
			for i, d := range p.deferred {
				ids[i] = d.from
			}
			ctx.Set(keyDeferred, ids)
			return
		}
		ctx.Send(from, Reply{TS: msg.TS})
	case Reply:
		if !p.Wanted() || msg.TS != p.mine.TS {
			ctx.Log("REPLY from %d for request ts=%d ignored: not the pending request", from, msg.TS)
			return
		}
		if p.replied[from] {
			// Every other process replies once to a request: a second
			// REPLY from it (duplicated, or hand-made) is not a second
			// permission.
			ctx.Log("REPLY from %d for request ts=%d ignored: it has replied already", from, msg.TS)
			return
		}
		p.replied[from] = true
		p.tryEnter(ctx)
	}
}

func (p *node) tryEnter(ctx proc.Context) {
	if p.Wanted() && len(p.replied) == len(ctx.Peers()) {
		p.Enter(ctx)
	}
}
