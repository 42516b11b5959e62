// Package ring is the ring election whose ELECTION message accumulates the
// ids of the live processes, after which the initiator circulates a
// COORDINATOR message naming the highest (the lecture notes' "Token Ring
// Election Algorithm" and the handwritten notes' "Ring Algorithm").
package ring

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/election"
	"dsim/core/proc"
)

// Election accumulates the ids of the processes it has passed, initiator
// first. Receivers copy the list before adding to it: a sent message is a
// value.
type Election struct {
	List []proc.NodeID `json:"list"`
}

func (Election) Kind() string { return "ELECTION" }

// Coordinator announces the new coordinator ID. Origin is the process that
// started circulating it; it stops there.
type Coordinator struct {
	ID     proc.NodeID `json:"id"`
	Origin proc.NodeID `json:"origin"`
}

func (Coordinator) Kind() string { return "COORDINATOR" }

func init() {
	algo.Register(algo.Spec{
		Name:    "election.ring",
		Summary: "ring election: ELECTION collects the live ids round the ring, then COORDINATOR announces the highest",
		Description: `The lecture notes "Synchronization, Coordination and Agreement", "Token Ring Election Algorithm", steps 0-11 (ring 3,5,0,1,4,6: 6 fails, 3 notices, 5 wins), and the handwritten notes on election algorithms, "Ring Algorithm" (the concurrent elections [5,6,0,1,2,3,4] and [2,3,4,5,6,0,1] that both elect 6).
Rules: a process that thinks the coordinator has crashed sends ELECTION[own id] to its first live successor; a process receiving an ELECTION without its own id adds its id and forwards it; a process that finds its own id in the list knows the message has been round the ring (normally the initiator, or the first listed process it reaches if the initiator has crashed since), picks the highest id and circulates COORDINATOR(highest); every process records it and passes it on; it stops back at the process that started circulating it. Two or more concurrent elections are allowed: each runs to completion and they announce the same coordinator.
Who notices: with watch (the default) the process that notices the coordinator's failure is its first live successor, the process its messages would reach, once the failure detector suspects the coordinator: on the walkthrough's ring that is 3, which reproduces steps 2-11 with one initiator, 5 ELECTION and 5 COORDINATOR messages. watch_all makes every process that suspects the coordinator an initiator (on the same ring, five concurrent elections: 25 ELECTION and 25 COORDINATOR); watch false leaves it to the elect command. Where the texts are silent on who else notices: a process that still follows the suspected coordinator 3·n·hop ticks after suspecting it, no election having reached it (the successor may have been busy with one that ended without it), starts one (timer "watch", with restart).
Where the texts are silent: "the first live successor" is the first process in ring order the declared failure detector does not suspect; the highest id picked is the highest one in the list the detector does not suspect (a process may crash after adding itself) and that is a process (a hand-made list may name others); a COORDINATOR whose origin is no process (only a hand-made one) is dropped, as it would circle for ever; a COORDINATOR whose origin would be skipped is dropped (it could only circle); a process that took part in an election (candidate) starts it again after 3·n·hop ticks without a COORDINATOR (timer "restart"); a recovered process starts one once the detector trusts it again; a COORDINATOR naming an id lower than the receiver, or a suspected one, is not accepted or forwarded and the receiver starts an election unless it is in one (the lecture notes' bully rule, "a process with a higher ID number will bully a lower ID process out of the coordinator position"), because the election that chose it missed a live process; a COORDINATOR lower than the coordinator the receiver already follows, which the detector does not suspect, is a late one from an older election (links may reorder) and is dropped.
Model: reliable links in any order and no partition; crashes and recoveries at any time, noticed through the failure detector, as long as every message crosses a link within hop ticks (the restart and watch timers are sized on it).`,
		Topology: "ring",
		Assumptions: algo.Assumptions{
			Crashes: algo.CrashRecovery, Latency: algo.LatencyBound{Key: "hop", Trips: 1},
		},
		Config:     election.RingParams(),
		Commands:   []algo.CommandSpec{election.ElectCommand},
		State:      election.StateKeys,
		Messages:   []proc.Message{Election{}, Coordinator{}},
		Properties: election.Properties,
		New: func(v algo.Values) (proc.Factory, error) {
			return election.RingFactory(v, func(c *election.RingConfig) proc.Node { return &node{Ring: election.Ring{Cfg: c}} })
		},
		Memory: algo.Memory{Boot: algo.Bytes(64), Load: algo.Bytes(512), BootEvents: 1},
	})
}

type node struct {
	election.Ring
}

func (p *node) Start(ctx proc.Context) { p.Ring.Start(ctx, p, false) }

// Elect sends ELECTION[own id]; concurrent elections are allowed, so it
// starts a new one even during another.
func (p *node) Elect(ctx proc.Context) {
	p.Candidate(ctx)
	ctx.Send(p.Successor(ctx), Election{List: []proc.NodeID{ctx.Self()}})
}

func (p *node) Receive(ctx proc.Context, _ proc.NodeID, m proc.Message) {
	self := ctx.Self()
	switch msg := m.(type) {
	case Election:
		if !slices.Contains(msg.List, self) {
			p.Candidate(ctx)
			list := append(slices.Clip(msg.List), self)
			ctx.Send(p.Successor(ctx), Election{List: list})
			return
		}
		best := self
		for _, id := range msg.List {
			// A hand-made list may name ids of no process: none of
			// them can be the coordinator.
			if id > best && !ctx.Suspected(id) && ctx.IsProcess(id) {
				best = id
			}
		}
		ctx.Log("ELECTION has been round the ring: %d is the highest of %v", best, msg.List)
		p.Follow(ctx, best)
		p.announce(ctx, Coordinator{ID: best, Origin: self})
	case Coordinator:
		if msg.Origin == self {
			return
		}
		if !ctx.IsProcess(msg.Origin) {
			// It stops back at its origin: with no process there (only a
			// hand-made one names none) it would circle for ever.
			ctx.Log("COORDINATOR(%d) dropped: its origin %d is no process", msg.ID, msg.Origin)
			return
		}
		if !p.Accepts(ctx, msg.ID, p) {
			return
		}
		p.Follow(ctx, msg.ID)
		p.announce(ctx, msg)
	}
}

func (p *node) announce(ctx proc.Context, m Coordinator) {
	if next, ok := p.Toward(ctx, m.Origin); ok {
		ctx.Send(next, m)
	} else {
		ctx.Log("COORDINATOR dropped: its origin %d is suspected", m.Origin)
	}
}

func (p *node) Timer(ctx proc.Context, tag string) { p.Ring.Timer(ctx, tag, p) }

func (p *node) Suspect(ctx proc.Context, id proc.NodeID) { p.Ring.Suspect(ctx, id, p) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	if err := election.CheckCommand(name, args, "elect"); err != nil {
		return err
	}
	p.Elect(ctx)
	return nil
}
