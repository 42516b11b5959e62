// Package fifo is FIFO-ordered multicast: each process numbers the
// messages it multicasts, and a receiver holds back a message until it has
// delivered every earlier one of the same sender (Coulouris et al.,
// "Distributed Systems: Concepts and Design", section 15.4.3 "Ordered
// multicast", "Implementing FIFO ordering").
package fifo

import (
	"dsim/core/algo"
	"dsim/core/algo/order"
	"dsim/core/proc"
)

// Msg is a message m carrying S, its sender's sequence number for it.
type Msg struct {
	S       int    `json:"s"`
	Payload string `json:"payload"`
}

func (Msg) Kind() string { return "MSG" }

func init() {
	algo.Register(algo.Spec{
		Name:    "order.fifo",
		Summary: "FIFO-ordered multicast: sequence numbers per sender and a hold-back queue, so that every process delivers each sender's messages in the order it multicast them",
		Description: `Coulouris, Dollimore, Kindberg and Blair, "Distributed Systems: Concepts and Design" (5th ed.), section 15.4.3 "Ordered multicast", "Implementing FIFO ordering"; the lecture notes "Synchronization, Coordination and Agreement", section 3.1.3.2 "Partial, causal and total ordering", which only names the orderings: the rules are the texts' above. A process p keeps S_p, how many messages it has multicast, and for every other process q R_q, the sequence number of the latest message from q it has delivered.
FO-multicast: p increments S_p, piggybacks it on the message and sends it to every member of the group.
FO-deliver: on receipt of a message from q bearing S, if S = R_q + 1 it is the next one expected from q: p delivers it and sets R_q := S, then delivers whatever the hold-back queue holds that has become next in turn; if S > R_q + 1 the message waits in the hold-back queue until the intervening ones have been delivered.
Where the text is silent: messages are numbered from 1; the multicasting process delivers its own message at once (its copy to itself would arrive first and in order anyway); a message with S <= R_q, a copy of one delivered, is dropped with a log line.
FIFO order says nothing of messages from different senders: two processes may deliver them in different orders (the bank of scenario ordering/replicated-bank diverges), and a reply may be delivered before the message it answers (scenario ordering/causal-board).
Assumptions: reliable links in any order (the hold-back queue puts them back in order); no crash, since a recovered process numbers its messages from 1 again.`,
		Topology:    "complete",
		Assumptions: algo.Assumptions{},
		Config:      order.Params(),
		Commands:    order.Commands,
		State:       order.State,
		Messages:    []proc.Message{Msg{}},
		Properties:  []algo.Property{order.FIFO},
		New: func(v algo.Values) (proc.Factory, error) {
			g, err := order.NewGroup(v)
			if err != nil {
				return nil, err
			}
			return func(proc.NodeID) proc.Node { return &node{Group: g} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(400), BootEvents: 2},
	})
}

type held struct {
	from proc.NodeID
	m    Msg
}

type node struct {
	order.Group
	r     map[proc.NodeID]int // R_q: the number of the last message delivered from q
	queue order.Queue[held]
}

func (p *node) Start(ctx proc.Context) {
	p.r = map[proc.NodeID]int{}
	p.Group.Start(ctx)
}

// Multicast is FO-multicast: the message carries S_p, which the group has
// just incremented.
func (p *node) Multicast(ctx proc.Context, s int, payload string) {
	for _, q := range ctx.Peers() {
		ctx.Send(q, Msg{S: s, Payload: payload})
	}
	p.r[ctx.Self()] = s
	p.Deliver(ctx, ctx.Self(), s, payload)
}

// Receive is FO-deliver: the message goes at once if it is the next from
// its sender, and then every held message that has become next; otherwise
// it waits in the hold-back queue.
func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	msg, ok := m.(Msg)
	if !ok {
		return
	}
	if msg.S <= p.r[from] {
		ctx.Log("%s again, already delivered: dropped", order.Label(from, msg.S))
		return
	}
	p.queue.Receive(ctx, held{from, msg}, func(_ int, h held) bool { return h.m.S == p.r[h.from]+1 }, func(h held) {
		p.r[h.from] = h.m.S
		p.Deliver(ctx, h.from, h.m.S, h.m.Payload)
	})
}

func (p *node) Timer(ctx proc.Context, tag string) { p.Group.Timer(ctx, p, tag) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.Group.Command(ctx, p, name, args)
}
