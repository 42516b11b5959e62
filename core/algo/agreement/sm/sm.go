// Package sm is Lamport, Shostak and Pease's signed-messages algorithm
// SM(m) for the Byzantine generals problem ("The Byzantine Generals
// Problem", 1982, section 4 "A Solution with Signed Messages"): orders
// carry a chain of signatures; each lieutenant collects the set V of
// orders it has seen, passes each new one on with its own signature while
// it bears fewer than m+1, and obeys choice(V).
package sm

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/agreement"
	"dsim/core/proc"
)

// Signed is the order v:0:j1:...:jk: the value, and the ids that signed
// it in turn, the commander first. The sender is the last signer.
type Signed struct {
	Value   int   `json:"value"`
	Signers []int `json:"signers"`
}

func (Signed) Kind() string { return "SIGNED" }

// KeyV is the key of the set V of orders a lieutenant has received.
const KeyV = "orders"

const timerRound = "round"

func init() {
	algo.Register(algo.Spec{
		Name:    "agreement.sm",
		Summary: "Lamport, Shostak and Pease's signed messages SM(m): orders carry a chain of signatures, every lieutenant decides choice(V) of the orders it saw; IC1 and IC2 hold for any n with at most m traitors",
		Description: `Lamport, Shostak and Pease, "The Byzantine Generals Problem" (1982), section 4 "A Solution with Signed Messages"; Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Reaching Agreement".
Algorithm SM(m). Initially V_i is empty. (1) The commander signs and sends his value to every lieutenant. (2) For each i: (A) if lieutenant i receives a message of the form v:0 from the commander and he has not yet received any order, then he lets V_i equal {v} and sends the message v:0:i to every other lieutenant; (B) if lieutenant i receives a message of the form v:0:j1:...:jk and v is not in the set V_i, then he adds v to V_i and, if k < m, sends the message v:0:j1:...:jk:i to every lieutenant other than j1, ..., jk. (3) For each i: when lieutenant i will receive no more messages, he obeys the order choice(V_i): the single element of V_i, else (none, or both) the default RETREAT.
A SIGNED message carries the value and its signers, the commander first; the lieutenant publishes its set V (key orders) as it grows, and its decision. The rounds are synchronous, of config round ticks: the commander signs in round 1, and a lieutenant passes the new orders of a round on at its end, so an order with k+1 signatures arrives in round k+1 and a lieutenant decides at the end of round m+1 (it will receive no more messages: the paper's step (3)), ignoring what comes later.
Signatures: the kernel has no cryptography, so a signature is the signer's id in the list, and the algorithm keeps the paper's assumption A4 itself: a loyal general's signature cannot be forged. A traitor lies by config lie as under OM(m) (flip, split, mask, silent), but only in what it signs itself: it never drops or alters the signers ahead of it, and it may change the value only when every signer ahead of it is a traitor (traitors collude and know each other's keys); where its lie would change a value a loyal general signed, it sends nothing instead, which is all a traitor can do to it. So SM(m) holds IC1 and IC2 with at most m traitors for any number of generals (the paper's theorem 2): with n = 3 where OM(1) fails.
Where the text is silent: the commander is the first process unless config commander names another; a message whose signers do not start with the commander, repeat one, include the receiver or number more than m+1 is ignored, as is one from another process than its last signer.`,
		Topology:    "complete",
		Config:      agreement.Params(3),
		State:       append(agreement.State[:len(agreement.State):len(agreement.State)], algo.StateKey{Key: KeyV, Doc: "the set V of orders a lieutenant has received, sorted"}),
		Messages:    []proc.Message{Signed{}},
		Assumptions: agreement.Tolerating("at most m traitors among at least m + 2 generals", 0, 2),
		Properties:  []algo.Property{agreement.IC1, agreement.IC2},
		Check:       agreement.Check(3),
		New:         agreement.Factory(func(g agreement.General) proc.Node { return &node{General: g} }),
		// Measured with m = 1 and the default round: the boot is the
		// commander's first messages; then each lieutenant relays each of
		// at most two values once, n-2 messages a value.
		Memory: algo.Memory{Boot: algo.Bytes(600), Load: algo.PerPeer(3000, 90), BootEvents: 4},
	})
}

type node struct {
	agreement.General
	v       []int    // V, sorted
	relay   []Signed // the new orders of this round, to pass on at its end
	round   int      // rounds over
	running bool     // a lieutenant before its decision
}

func (p *node) Start(ctx proc.Context) {
	p.v, p.relay, p.round, p.running = nil, nil, 0, false
	if !p.General.Start(ctx) {
		return
	}
	if ctx.Self() == p.Commander {
		// (1) The commander signs and sends his value.
		p.send(ctx, p.Order, nil)
		return
	}
	p.running = true
	ctx.SetTimer(p.Round, timerRound)
}

// send signs value after signers and sends it to every lieutenant not
// among them; a traitor lies in what it signs, but cannot forge a value a
// loyal general signed.
func (p *node) send(ctx proc.Context, value int, signers []int) {
	signed := append(signers[:len(signers):len(signers)], int(ctx.Self()))
	forgeable := true
	for _, id := range signers {
		forgeable = forgeable && p.IsTraitor(proc.NodeID(id))
	}
	to := p.Others(ctx, signed)
	for i, id := range to {
		v, ok := p.Lie(value, i, len(to))
		if ok && (v == value || forgeable) {
			ctx.Send(id, Signed{Value: v, Signers: signed})
		}
	}
}

// Receive applies rule (2): a new value joins V and, while it bears fewer
// than m+1 signatures, is passed on with this lieutenant's at the end of
// the round.
func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	s, ok := m.(Signed)
	if !ok || !p.running {
		return
	}
	if !p.ValidPath(ctx, s.Signers) || int(from) != s.Signers[len(s.Signers)-1] {
		ctx.Log("a SIGNED order signed %v from %d ignored: not a chain to here", s.Signers, from)
		return
	}
	i, found := slices.BinarySearch(p.v, s.Value)
	if found {
		return
	}
	p.v = slices.Insert(p.v, i, s.Value)
	ctx.Set(KeyV, slices.Clone(p.v))
	if len(s.Signers)-1 < p.M {
		p.relay = append(p.relay, s)
	}
}

// Timer ends a round: the lieutenant passes on the round's new orders;
// after round m+1 no more messages will come (step (3)): it obeys
// choice(V).
func (p *node) Timer(ctx proc.Context, tag string) {
	if tag != timerRound || !p.running {
		return
	}
	for _, s := range p.relay {
		p.send(ctx, s.Value, s.Signers)
	}
	p.relay = nil
	if p.round++; p.round <= p.M {
		ctx.SetTimer(p.Round, timerRound)
		return
	}
	p.running = false
	ctx.Set(agreement.KeyDecision, Choice(p.v))
}

// Choice is the paper's choice(V): the single element of V, else RETREAT.
func Choice(v []int) int {
	if len(v) == 1 {
		return v[0]
	}
	return agreement.Retreat
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return agreement.NoCommand(name)
}
