package total

import (
	"dsim/core/algo/order"
	"dsim/core/proc"
)

// sequenced is a process of the sequencer variant; the first process in
// ring order is the sequencer too.
type sequenced struct {
	order.Group
	sg      int // the sequencer's next number
	rg      int // r_g: the number of the next message to deliver
	entries map[id]*entry
	queue   order.Queue[*entry]
}

func (p *sequenced) Start(ctx proc.Context) {
	p.sg, p.rg, p.entries = 0, 0, map[id]*entry{}
	p.Group.Start(ctx)
}

func (p *sequenced) entry(k id) *entry {
	e := p.entries[k]
	if e == nil {
		e = &entry{id: k, s: -1}
		p.entries[k] = e
	}
	return e
}

// Multicast sends the message to every other member and holds it here.
func (p *sequenced) Multicast(ctx proc.Context, seq int, payload string) {
	for _, q := range ctx.Peers() {
		ctx.Send(q, Msg{Seq: seq, Payload: payload})
	}
	p.hold(ctx, id{ctx.Self(), seq}, payload)
}

// hold takes a received message: at the sequencer it first numbers it, for
// everyone; then it is delivered if its order is here and its turn has
// come, or waits in the hold-back queue.
func (p *sequenced) hold(ctx proc.Context, k id, payload string) {
	e := p.entry(k)
	e.received, e.payload = true, payload
	if ctx.Index() == 0 {
		for _, q := range ctx.Peers() {
			ctx.Send(q, Order{Origin: k.origin, Seq: k.seq, S: p.sg})
		}
		e.s = p.sg
		p.sg++
	}
	p.queue.Receive(ctx, e, p.next, p.deliver(ctx))
}

// next is whether a message is the one numbered r_g.
func (p *sequenced) next(_ int, e *entry) bool { return e.s == p.rg }

// deliver delivers a message and counts it in r_g.
func (p *sequenced) deliver(ctx proc.Context) func(e *entry) {
	return func(e *entry) {
		delete(p.entries, e.id)
		p.rg++
		p.Deliver(ctx, e.origin, e.seq, e.payload)
	}
}

func (p *sequenced) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Msg:
		k := id{from, msg.Seq}
		if p.entries[k] != nil && p.entries[k].received {
			ctx.Log("%s again: dropped", order.Label(from, msg.Seq))
			return
		}
		p.hold(ctx, k, msg.Payload)
	case Order:
		// The order of a held message may make it, and those after it,
		// deliverable.
		p.entry(id{msg.Origin, msg.Seq}).s = msg.S
		p.queue.Drain(ctx, p.next, p.deliver(ctx))
	}
}

func (p *sequenced) Timer(ctx proc.Context, tag string) { p.Group.Timer(ctx, p, tag) }

func (p *sequenced) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.Group.Command(ctx, p, name, args)
}
