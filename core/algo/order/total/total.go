// Package total is totally-ordered multicast, in two variants: Lamport
// timestamps with acknowledgements, every process delivering the head of
// its timestamp-ordered queue once every other process has acknowledged it
// (Tanenbaum and van Steen, section 6.2.1 "Lamport's Logical Clocks",
// "Example: Totally Ordered Multicasting"), and a sequencer that numbers
// the messages for everyone (Coulouris et al., section 15.4.3 "Implementing
// total ordering"; variant="sequencer").
package total

import (
	"fmt"

	"dsim/core/algo"
	"dsim/core/algo/order"
	"dsim/core/proc"
)

// Msg is a multicast message: the seq-th of its sender, stamped with the
// sender's Lamport clock (0 under the sequencer, which ignores it).
type Msg struct {
	TS      int    `json:"ts"`
	Seq     int    `json:"seq"`
	Payload string `json:"payload"`
}

// Ack acknowledges message seq of origin; TS is the acknowledging
// process's Lamport clock as it sends the ack.
type Ack struct {
	TS     int         `json:"ts"`
	Origin proc.NodeID `json:"origin"`
	Seq    int         `json:"seq"`
}

// Order is the sequencer's order for message seq of origin: it is the S-th
// to be delivered, from 0.
type Order struct {
	Origin proc.NodeID `json:"origin"`
	Seq    int         `json:"seq"`
	S      int         `json:"s"`
}

func (Msg) Kind() string   { return "MSG" }
func (Ack) Kind() string   { return "ACK" }
func (Order) Kind() string { return "ORDER" }

func init() {
	algo.Register(algo.Spec{
		Name:    "order.total",
		Summary: "totally-ordered multicast: Lamport timestamps with every message acknowledged to all, delivered from the head of a timestamp-ordered queue (Tanenbaum), or a sequencer's numbers (variant=\"sequencer\")",
		Description: `Tanenbaum and van Steen, "Distributed Systems: Principles and Paradigms" (2nd ed.), section 6.2.1 "Lamport's Logical Clocks", "Example: Totally Ordered Multicasting"; Coulouris, Dollimore, Kindberg and Blair, "Distributed Systems: Concepts and Design" (5th ed.), section 15.4.3 "Ordered multicast", "Implementing total ordering" for the sequencer; the lecture notes "Synchronization, Coordination and Agreement", section 3.1.3.2 "Partial, causal and total ordering", which only names the orderings: the rules are the texts' above.
Lamport (the default): every process keeps a Lamport clock C_i, which ticks at each send and moves past the timestamp of each message or acknowledgement it receives (C_i := max(C_i, ts) + 1). A multicast message is stamped with its sender's clock and sent to every other process; it is also put in the sender's own queue. A receiver puts it in its local queue, ordered by timestamp (ties by the sender's id), and multicasts an acknowledgement to every other process. A process delivers the message at the head of its queue once every other process has acknowledged it; then the next. As links are FIFO and an acknowledgement is stamped later than the message it acknowledges, a message with a smaller timestamp from any process arrives before that process's acknowledgement: all queues agree, and every process delivers in (timestamp, id) order.
Sequencer (variant="sequencer", the first process in ring order sequencing): a multicast message goes to every member, which holds it back; the sequencer, on receiving it (its own at once), gives it the next number S and sends ORDER(origin, seq, S) to every other member; a member delivers the message numbered S once it holds both it and its order, and its own count r_g of delivered messages is S (then r_g := S + 1).
Where the text is silent: the sender's own message counts as its acknowledgement, so a message waits for the acknowledgements of the other n-1 processes; an acknowledgement that overtakes the message it acknowledges (from a third process) is kept until the message comes. Messages are numbered from 1 per sender (the delivered key's labels); the sequencer's numbers from 0, as Coulouris's.
Total order means the replicas of the bank of scenario ordering/replicated-bank (Tanenbaum's Figure 6-11) apply the deposit and the interest in the same order and agree. Both variants deliver in causal order too: a process delivers a message only after the messages delivered before its multicast anywhere, whose timestamps (or numbers) are smaller.
Assumptions: reliable FIFO links (the Lamport variant's acknowledgements rely on them, and on a link that reorders an acknowledgement overtakes its sender's earlier message: scenario ordering/total-no-fifo; under the sequencer a process's later message could otherwise be numbered before its earlier one); no crash: one silent process stops every delivery.`,
		Topology:    "complete",
		Assumptions: algo.Assumptions{FIFO: true},
		Config: append([]algo.Param{
			{Name: "variant", Type: algo.Str, Default: "lamport", Doc: `"lamport": Lamport timestamps and acknowledgements (Tanenbaum); "sequencer": the first process in ring order numbers the messages (Coulouris)`},
		}, order.Params()...),
		Commands:   order.Commands,
		State:      order.State,
		Messages:   []proc.Message{Msg{}, Ack{}, Order{}},
		Properties: []algo.Property{order.FIFO, order.Causal, order.Total},
		New: func(v algo.Values) (proc.Factory, error) {
			g, err := order.NewGroup(v)
			if err != nil {
				return nil, err
			}
			switch v.String("variant") {
			case "lamport":
				return func(proc.NodeID) proc.Node { return &lamport{Group: g} }, nil
			case "sequencer":
				return func(proc.NodeID) proc.Node { return &sequenced{Group: g} }, nil
			}
			return nil, fmt.Errorf(`config key "variant": want "lamport" or "sequencer", got %q`, v.String("variant"))
		},
		Memory: algo.Memory{Boot: algo.Bytes(400), BootEvents: 2},
	})
}

// id names a multicast message: the seq-th of origin.
type id struct {
	origin proc.NodeID
	seq    int
}

// entry is what a process knows of a message: its contents once received,
// and the acknowledgements (Lamport) or the order (sequencer) it has.
type entry struct {
	id
	received bool
	ts       int
	payload  string
	acks     int // acknowledgements from processes other than its origin
	s        int // the sequencer's number; -1 not yet known
}

type lamport struct {
	order.Group
	c       int // C_i
	entries map[id]*entry
	queue   order.Queue[*entry]
}

func (p *lamport) Start(ctx proc.Context) {
	p.c, p.entries = 0, map[id]*entry{}
	p.Group.Start(ctx)
}

func (p *lamport) entry(k id) *entry {
	e := p.entries[k]
	if e == nil {
		e = &entry{id: k}
		p.entries[k] = e
	}
	return e
}

// Multicast stamps the message with the ticked clock, sends it to the
// others and queues it here.
func (p *lamport) Multicast(ctx proc.Context, seq int, payload string) {
	p.c++
	for _, q := range ctx.Peers() {
		ctx.Send(q, Msg{TS: p.c, Seq: seq, Payload: payload})
	}
	p.queued(ctx, id{ctx.Self(), seq}, p.c, payload)
	p.deliver(ctx) // alone in its group, a process needs no acknowledgement
}

// queued puts a received message in the queue, in timestamp order.
func (p *lamport) queued(ctx proc.Context, k id, ts int, payload string) {
	e := p.entry(k)
	e.received, e.ts, e.payload = true, ts, payload
	p.queue.Hold(ctx, e, func(a, b *entry) bool { return a.ts < b.ts || a.ts == b.ts && a.origin < b.origin })
}

func (p *lamport) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Msg:
		k := id{from, msg.Seq}
		if p.entries[k] != nil && p.entries[k].received {
			ctx.Log("%s again: dropped", order.Label(from, msg.Seq))
			return
		}
		p.c = max(p.c, msg.TS) + 1
		p.queued(ctx, k, msg.TS, msg.Payload)
		// The acknowledgement, multicast to every other process; this
		// process's own counts at once.
		p.c++
		for _, q := range ctx.Peers() {
			ctx.Send(q, Ack{TS: p.c, Origin: from, Seq: msg.Seq})
		}
		p.entry(k).acks++
	case Ack:
		p.c = max(p.c, msg.TS) + 1
		p.entry(id{msg.Origin, msg.Seq}).acks++
	default:
		return
	}
	p.deliver(ctx)
}

// deliver delivers the head of the queue as long as every other process has
// acknowledged it.
func (p *lamport) deliver(ctx proc.Context) {
	p.queue.Drain(ctx, func(i int, e *entry) bool { return i == 0 && e.acks >= ctx.N()-1 }, func(e *entry) {
		delete(p.entries, e.id)
		p.Deliver(ctx, e.origin, e.seq, e.payload)
	})
}

func (p *lamport) Timer(ctx proc.Context, tag string) { p.Group.Timer(ctx, p, tag) }

func (p *lamport) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.Group.Command(ctx, p, name, args)
}
