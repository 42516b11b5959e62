// Package activelist is the ring election with active lists of seed 000
// (Silberschatz) and seed 002: elect(i) messages and the three cases a, b, c.
package activelist

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/election"
	"dsim/core/sim"
)

// Elect is the text's elect(i), numbered with the election it belongs to.
type Elect struct {
	ID    sim.NodeID `json:"id"`
	Round int        `json:"round"`
}

func (Elect) Kind() string { return "ELECT" }

func init() {
	algo.Register(algo.Spec{
		Name:    "election.activelist",
		Summary: "ring election with active lists: every process sends elect(i) round the ring and collects the ids it sees",
		Description: `Seed 000 (Silberschatz, "The Ring Algorithm") and seed 002 (the same rules and the example with P1..P4, P1 and P4 crashed, P2 detecting, P3 elected), on a unidirectional ring.
Rules: a process Pi that detects a coordinator failure creates a new active list, sends elect(i) to its right neighbour and adds i to the list. When Pi receives elect(j) from the left: (a) if it is the first elect message it has seen or sent in this election, Pi creates a new active list with j and i, then sends elect(i) followed by elect(j); (b) if j != i, Pi adds j to its active list and forwards the message; (c) if j = i, its own message is back and the active list holds every active process: Pi takes the largest number as the coordinator. Every process that took part ends with its own complete list, so there is no separate announcement (seed 002's example mentions an Elected message, which the rules never define; it is not sent).
Where the texts are silent: (1) "the first elect message of this election" needs to know which election a message belongs to, so elect(i) carries a round number: a newer round is case a (the newer election replaces the one under way); an older round is dropped during an election, and after one it means that its sender has fallen behind (it recovered), so a new round starts; an elect of the round that has just ended here, or a second elect(j) from the same j within a round (j crashed and lost its state), means that some active list missed a process, so a new round starts too. Like the text's "sends elect(i), followed by elect(j)", these rules assume FIFO links that do not duplicate messages. (2) the right neighbour is the first process the declared failure detector does not suspect, an elect(j) whose owner j would be skipped is dropped (it could only circle), and the coordinator chosen in case c is the largest id in the list the detector does not suspect and that is a process (a hand-made elect(j) may name another); (3) a process that finds its right neighbour is back (the detector trusts it again) while forwarding in a round it started sending to a farther process starts a new round, because the process that came back missed the earlier messages; (4) a process in an election with no outcome after 3·n·hop ticks starts a new round (timer "restart"); with watch, suspecting the coordinator starts an election; (5) the text leaves open how a recovering process learns the coordinator and suggests an inquiry forwarded to it; here a recovered process instead starts an election once the detector trusts it again, because it may be the highest and must then become coordinator.`,
		Topology: "ring",
		Config:   election.RingParams(),
		Commands: []algo.CommandSpec{election.ElectCommand},
		State: append(append([]algo.StateKey(nil), election.StateKeys...),
			algo.StateKey{Key: "active", Doc: "the active list: the ids this process has seen in the current election"},
			algo.StateKey{Key: "round", Doc: "the number of the election this process last took part in"}),
		Messages:   []sim.Message{Elect{}},
		Properties: election.Properties,
		New: func(v algo.Values) (sim.Factory, error) {
			return election.RingFactory(v, func(c *election.RingConfig) sim.Node { return &node{Ring: election.Ring{Cfg: c}} })
		},
		// An election leaves every process with its own complete active list (kept
		// and published: n² in the world); the restart timers of small worlds fall
		// on distinct ticks of the kernel's calendar, 2 KiB each.
		Memory: algo.Memory{Boot: algo.Bytes(160), Load: algo.PerPeer(6144, 24), BootEvents: 1},
	})
}

type node struct {
	election.Ring
	round  int
	active []sim.NodeID
	// to is where this process last sent a message of round sentIn: if
	// a process before it comes back within the round, it missed messages.
	to     sim.NodeID
	sentIn int
}

func (p *node) Start(ctx sim.Context) { p.Ring.Start(ctx, p, false) }

// Elect starts a new election: a new round with the active list [i].
func (p *node) Elect(ctx sim.Context) { p.join(ctx, p.round+1, ctx.Self()) }

// join takes part in round r from its start: the active list is [j, i]
// (just [i] when this process starts it), and elect(i) goes out followed by
// elect(j).
func (p *node) join(ctx sim.Context, r int, j sim.NodeID) {
	self := ctx.Self()
	p.round = r
	ctx.Set("round", r)
	p.active = p.active[:0]
	if j != self {
		p.active = append(p.active, j)
	}
	p.active = append(p.active, self)
	ctx.Set("active", p.active)
	p.Candidate(ctx)
	p.send(ctx, Elect{ID: self, Round: r})
	if j != self {
		p.send(ctx, Elect{ID: j, Round: r})
	}
}

func (p *node) send(ctx sim.Context, m Elect) {
	next, ok := election.Toward(ctx, m.ID)
	if !ok {
		ctx.Log("elect(%d) dropped: %d is suspected", m.ID, m.ID)
		return
	}
	if p.sentIn == m.Round && next != p.to && closer(ctx, next, p.to) {
		ctx.Log("%d is back since this round began: starting a new round", next)
		p.Elect(ctx)
		return
	}
	p.to, p.sentIn = next, m.Round
	ctx.Send(next, m)
}

// closer reports whether a comes before b walking the ring from here.
func closer(ctx sim.Context, a, b sim.NodeID) bool {
	for d := 1; d < ctx.N(); d++ {
		switch ctx.Neighbor(d) {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

func (p *node) Receive(ctx sim.Context, _ sim.NodeID, m sim.Message) {
	msg, ok := m.(Elect)
	if !ok {
		return
	}
	self := ctx.Self()
	switch {
	case msg.Round > p.round: // a: the first elect message of this election
		p.join(ctx, msg.Round, msg.ID)
	case msg.Round < p.round:
		if p.Electing() {
			ctx.Log("elect(%d) of round %d dropped: this process is in round %d", msg.ID, msg.Round, p.round)
			return
		}
		ctx.Log("elect(%d) of old round %d: its sender is behind, starting round %d", msg.ID, msg.Round, p.round+1)
		p.Elect(ctx)
	case msg.ID == self: // c
		if p.Electing() {
			p.complete(ctx)
		}
	case !p.Electing():
		ctx.Log("elect(%d) arrived after round %d ended here: some list missed a process, starting round %d", msg.ID, p.round, p.round+1)
		p.Elect(ctx)
	case slices.Contains(p.active, msg.ID):
		ctx.Log("elect(%d) a second time in round %d: %d has lost its state, starting round %d", msg.ID, p.round, msg.ID, p.round+1)
		p.Elect(ctx)
	default: // b
		p.active = append(p.active, msg.ID)
		ctx.Set("active", p.active)
		p.send(ctx, msg)
	}
}

// complete is case c: the largest number in the active list is the
// coordinator.
func (p *node) complete(ctx sim.Context) {
	best := ctx.Self()
	for _, id := range p.active {
		// A hand-made elect(j) may name an id of no process, which
		// cannot be the coordinator.
		if id > best && !ctx.Suspected(id) && p.Cfg.IsProcess(ctx, id) {
			best = id
		}
	}
	ctx.Log("own elect is back: the active list %v is complete, %d is the coordinator", p.active, best)
	p.Follow(ctx, best)
}

func (p *node) Timer(ctx sim.Context, tag string) { p.Ring.Timer(ctx, tag, p) }

func (p *node) Suspect(ctx sim.Context, id sim.NodeID) { p.Ring.Suspect(ctx, id, p) }

func (p *node) Command(ctx sim.Context, name string, args sim.Args) error {
	if err := election.CheckCommand(name, args, "elect"); err != nil {
		return err
	}
	p.Elect(ctx)
	return nil
}
