// Package causal is causally-ordered multicast after Birman, Schiper and
// Stephenson: every message carries its sender's vector timestamp, which
// counts the messages of each process delivered before it was multicast,
// and a receiver holds it back until it has delivered all of them
// (Tanenbaum and van Steen, section 6.2.2 "Vector Clocks", "Enforcing
// Causal Communication"; Coulouris et al., section 15.4.3 "Implementing
// causal ordering").
package causal

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/order"
	"dsim/core/proc"
)

// Msg is a message m carrying ts(m), its sender's vector timestamp at the
// multicast.
type Msg struct {
	VT      []int  `json:"vt"`
	Payload string `json:"payload"`
}

func (Msg) Kind() string { return "MSG" }

// KeyVT is the process's vector timestamp VT_i.
const KeyVT = "vt"

func init() {
	algo.Register(algo.Spec{
		Name:    "order.causal",
		Summary: "causally-ordered multicast (Birman-Schiper-Stephenson): vector timestamps count the messages delivered, and a message is held back until every message its sender had delivered is delivered here",
		Description: `Tanenbaum and van Steen, "Distributed Systems: Principles and Paradigms" (2nd ed.), section 6.2.2 "Vector Clocks", "Enforcing Causal Communication"; Coulouris, Dollimore, Kindberg and Blair, "Distributed Systems: Concepts and Design" (5th ed.), section 15.4.3 "Ordered multicast", "Implementing causal ordering"; the lecture notes "Synchronization, Coordination and Agreement", section 3.1.3.2 "Partial, causal and total ordering", which only names the orderings: the rules are the texts' above. The clocks count messages, not events: VT_i[j] is how many messages of P_j process P_i has delivered (its own multicasts for j = i).
CO-multicast: P_i increments VT_i[i] and sends the message with ts(m) = VT_i to every other member of the group; it delivers its own message at once.
CO-deliver: a message m from P_j is held back at P_i until ts(m)[j] = VT_i[j] + 1 (it is the next message of P_j) and ts(m)[k] <= VT_i[k] for every k != j (P_i has delivered every message P_j had delivered when it multicast m). Then P_i delivers it and sets VT_i[j] := VT_i[j] + 1, and delivers whatever held message that makes deliverable.
So a message is delivered after every message whose multicast happened before its multicast (causal order, FIFO order among them); messages concurrent in that sense may be delivered in different orders at different processes: no total order.
Where the text is silent: the vector is indexed in ring order; a message whose vector has the wrong length, or from no member, is dropped with a log line, and so is one with ts(m)[j] <= VT_i[j], a copy of one delivered. The vt state key shows VT_i after every multicast and delivery.
Worked examples: Tanenbaum's Figure 6-13, where P2 holds back m* stamped (1,1,0) until m stamped (1,0,0) is delivered (a rule test), and a bulletin board where a reply, posted after reading an article, must not appear before it (scenario ordering/causal-board).
Assumptions: reliable links in any order (the hold-back queue puts them back in causal order); no crash, since a recovered process starts again from a zero vector.`,
		Topology:    "complete",
		Assumptions: algo.Assumptions{},
		Config:      order.Params(),
		Commands:    order.Commands,
		State:       append(slices.Clone(order.State), algo.StateKey{Key: KeyVT, Doc: "VT_i: VT_i[k] is how many messages of the k-th process in ring order this process has delivered"}),
		Messages:    []proc.Message{Msg{}},
		Properties:  []algo.Property{order.FIFO, order.Causal},
		New: func(v algo.Values) (proc.Factory, error) {
			g, err := order.NewGroup(v)
			if err != nil {
				return nil, err
			}
			return func(proc.NodeID) proc.Node { return &node{Group: g} }, nil
		},
		// The vector and the state's copy of it: n² in the world,
		// inherent in a vector timestamp.
		Memory: algo.Memory{Boot: algo.PerPeer(400, 18), BootEvents: 3},
	})
}

type held struct {
	from proc.NodeID
	j    int // the sender's index
	m    Msg
}

type node struct {
	order.Group
	i     int   // this process's index in ring order
	vt    []int // VT_i
	queue order.Queue[held]
}

func (p *node) Start(ctx proc.Context) {
	p.i, p.vt = ctx.Index(), make([]int, ctx.N())
	ctx.Set(KeyVT, p.vt)
	p.Group.Start(ctx)
}

// Multicast is CO-multicast: VT_i[i] counts the message, which carries a
// copy of VT_i.
func (p *node) Multicast(ctx proc.Context, s int, payload string) {
	p.vt[p.i] = s
	ctx.Set(KeyVT, p.vt)
	m := Msg{VT: slices.Clone(p.vt), Payload: payload}
	for _, q := range ctx.Peers() {
		ctx.Send(q, m)
	}
	p.Deliver(ctx, ctx.Self(), s, payload)
}

// deliverable is CO-deliver's condition for a message from the j-th
// process.
func (p *node) deliverable(j int, ts []int) bool {
	for k := range p.vt {
		if k == j && ts[k] != p.vt[k]+1 || k != j && ts[k] > p.vt[k] {
			return false
		}
	}
	return true
}

// Receive delivers the message at once if it is deliverable, and then every
// held message that has become deliverable; otherwise it waits in the
// hold-back queue.
func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	msg, ok := m.(Msg)
	if !ok {
		return
	}
	j := order.Index(ctx, from)
	switch {
	case j < 0 || len(msg.VT) != len(p.vt):
		ctx.Log("a vector of %d entries from %d, not a member's of %d: dropped", len(msg.VT), from, len(p.vt))
		return
	case msg.VT[j] <= p.vt[j]:
		ctx.Log("%s again, already delivered: dropped", order.Label(from, msg.VT[j]))
		return
	}
	p.queue.Receive(ctx, held{from, j, msg}, func(_ int, h held) bool { return p.deliverable(h.j, h.m.VT) }, func(h held) {
		p.vt[h.j]++
		ctx.Set(KeyVT, p.vt)
		p.Deliver(ctx, h.from, p.vt[h.j], h.m.Payload)
	})
}

func (p *node) Timer(ctx proc.Context, tag string) { p.Group.Timer(ctx, p, tag) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.Group.Command(ctx, p, name, args)
}
