// Package twogenerals is the two generals problem over unreliable
// communication (Silberschatz, Galvin and Gagne, "Operating System
// Concepts", chapter "Distributed Coordination", section "Reaching
// Agreement", unreliable communications): general A sends the time of the
// attack, and every message received is acknowledged, up to a fixed
// number of messages; a general attacks only if every message it expects
// has come. Whatever that number, an adversary that loses the last message
// leaves one general attacking alone.
package twogenerals

import (
	"fmt"

	"dsim/core/algo"
	"dsim/core/algo/agreement"
	"dsim/core/proc"
)

// Messenger is message Seq of the protocol: 1 is A's "attack at At", each
// later one acknowledges the one before. Odd ones go from A to B, even
// ones back.
type Messenger struct {
	Seq int `json:"seq"`
	At  int `json:"at"`
}

func (Messenger) Kind() string { return "MESSENGER" }

const timerAttack = "attack"

func init() {
	algo.Register(algo.Spec{
		Name:    "agreement.twogenerals",
		Summary: "the two generals over a lossy link: an attack time and k-1 acknowledgements; whatever k, losing the last message leaves one general attacking alone",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Reaching Agreement", unreliable communications: two generals must agree on whether to attack, and their messengers may be captured. General A (the first process) sends B the attack time (config attack); B acknowledges it, A acknowledges the acknowledgement, and so on: the protocol has config rounds messages in all, message 1 the order and each later one the acknowledgement of the one before. A general attacks only if it has received every message of the protocol addressed to it, and decides at the attack time, when it must (key decision: 1 attack, 0 not). The text's argument: whatever the number of messages, the sender of the last one cannot know whether it arrived and attacks all the same, as it decided the protocol enough; an adversary that loses exactly that message makes the receiver stay home: no finite protocol over an unreliable link reaches agreement (scenario agreement/two-generals, for 1 to 5 messages).
Where the text is silent: both generals know the deadline (config attack) by which the plan is settled; a general that has not heard everything by then does not attack. Processes after the second take no part.`,
		Topology: "complete",
		Check: func(_ algo.Values, ids []proc.NodeID) error {
			// more processes may look on (the memory estimates build
			// large worlds of every algorithm); fewer cannot play
			if len(ids) < 2 {
				return fmt.Errorf("%d process: the two generals take two", len(ids))
			}
			return nil
		},
		Config: []algo.Param{
			{Name: "rounds", Type: algo.Int, Default: 2, Doc: "messages in the protocol: the order, then acknowledgements (1: the order alone)", Min: 1, Max: 1000},
			{Name: "attack", Type: algo.Int, Default: 100, Doc: "the attack time, in ticks: the generals decide then", Min: 1, Max: 1e9},
		},
		State:       []algo.StateKey{{Key: agreement.KeyDecision, Doc: "set at the attack time: 1 the general attacks, 0 it does not"}},
		Messages:    []proc.Message{Messenger{}},
		Assumptions: algo.Assumptions{Loss: true, Partitions: true},
		New: func(v algo.Values) (proc.Factory, error) {
			k, at := v.Int("rounds"), v.Int("attack")
			return func(proc.NodeID) proc.Node { return &node{rounds: k, attack: at} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(120), BootEvents: 1},
	})
}

type node struct {
	rounds, attack int
	next           int // the next message expected here: A 2, B 1
}

func (p *node) Start(ctx proc.Context) {
	switch ctx.Index() {
	case 0:
		p.next = 2
		ctx.Send(ctx.Neighbor(1), Messenger{Seq: 1, At: p.attack})
	case 1:
		p.next = 1
	default:
		return
	}
	ctx.SetTimer(proc.Duration(p.attack), timerAttack)
}

// Receive acknowledges the message expected, unless it was the last.
func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	msg, ok := m.(Messenger)
	if !ok || p.next == 0 || msg.Seq != p.next {
		return
	}
	p.next += 2
	if msg.Seq < p.rounds {
		ctx.Send(from, Messenger{Seq: msg.Seq + 1, At: msg.At})
	}
}

// Timer decides: attack only if every message addressed here came.
func (p *node) Timer(ctx proc.Context, tag string) {
	if tag != timerAttack || p.next == 0 {
		return
	}
	decision := agreement.Retreat
	if p.next > p.rounds {
		decision = agreement.Attack
	}
	p.next = 0
	ctx.Set(agreement.KeyDecision, decision)
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return agreement.NoCommand(name)
}
