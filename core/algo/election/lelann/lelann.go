// Package lelann is LeLann's ring election (G. Le Lann, "Distributed
// systems: towards a formal approach", IFIP 1977; Lynch, Distributed
// Algorithms, 3.3, as the ancestor of Chang-Roberts): every process sends
// its UID once round a unidirectional ring, and every process passes on
// every UID it receives. A process whose own UID comes back has seen the
// UID of every process, and the largest is the leader.
package lelann

import (
	"dsim/core/algo"
	"dsim/core/algo/election"
	"dsim/core/proc"
)

// Token carries one process's UID once round the ring.
type Token struct {
	ID proc.NodeID `json:"id"`
}

func (Token) Kind() string { return "TOKEN" }

func init() {
	algo.Register(algo.Spec{
		Name:    "election.lelann",
		Summary: "LeLann: every UID travels once round a unidirectional ring; a process whose own UID is back has seen them all and picks the largest",
		Description: `G. Le Lann, "Distributed systems: towards a formal approach" (1977), as Lynch, Distributed Algorithms, 3.3 gives it before Chang and Roberts' improvement; on a unidirectional ring with FIFO links and no failures.
Rules: (1) a process that starts an election sends TOKEN(own UID) to its successor and becomes a candidate; (2) a process receiving TOKEN(j) of another process first starts an election itself if it has not (rule 1), then notes j and passes the token on unchanged; (3) a process receiving its own TOKEN has seen every UID, since FIFO links kept every other token ahead of its own: it takes the largest UID it noted, or its own if larger, as the leader. Every process ends as an initiator and every token makes n hops: n² TOKEN messages whoever starts, and every process decides by itself, with no announcement round.
Where the text is silent: a process notes only the largest UID it has seen, which is all rule 3 needs; a TOKEN naming no process (only a hand-made message can) is dropped, as it would circle for ever; a process's own TOKEN when it has no election under way (a duplicated or hand-made one) is ignored; the elect command during an election does nothing, and after one starts a new one.
Model: FIFO links (a token overtaking another makes its owner decide before it has seen every UID), no loss, no duplication, no partition and no crashes: the algorithm has no timeout and no repair.`,
		Topology:    "ring",
		Assumptions: algo.Assumptions{FIFO: true},
		Config: append(election.BootParams(),
			algo.Param{Name: "all", Type: algo.Bool, Default: false,
				Doc: "every process starts an election at boot (rule 1 everywhere at once)"}),
		Commands:   []algo.CommandSpec{election.ElectCommand},
		State:      election.StateKeys,
		Messages:   []proc.Message{Token{}},
		Properties: election.Properties,
		New: func(v algo.Values) (proc.Factory, error) {
			c := config{Boot: election.BootFrom(v), all: v.Bool("all")}
			if err := c.Boot.Validate(); err != nil {
				return nil, err
			}
			return func(proc.NodeID) proc.Node { return &node{cfg: &c} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(64), Load: algo.Bytes(256), BootEvents: 1},
	})
}

type config struct {
	election.Boot
	all bool
}

// node is one process of the ring.
type node struct {
	cfg      *config
	electing bool        // rule 1 has run and its token is not back
	highest  proc.NodeID // the largest UID noted in this election
}

func (p *node) Start(ctx proc.Context) {
	if p.cfg.Leader != election.None {
		p.follow(ctx, p.cfg.Leader)
	} else {
		ctx.Set(election.KeyRole, election.Follower)
	}
	if p.cfg.all || p.cfg.Start == ctx.Self() {
		p.elect(ctx)
	}
}

// follow records the leader, and the role it gives this process.
func (p *node) follow(ctx proc.Context, leader proc.NodeID) {
	ctx.Set(election.KeyLeader, leader)
	if leader == ctx.Self() {
		ctx.Set(election.KeyRole, election.Leader)
	} else {
		ctx.Set(election.KeyRole, election.Follower)
	}
}

// elect is rule 1.
func (p *node) elect(ctx proc.Context) {
	p.electing, p.highest = true, ctx.Self()
	ctx.Set(election.KeyRole, election.Candidate)
	ctx.Send(ctx.Successor(), Token{ID: ctx.Self()})
}

func (p *node) Receive(ctx proc.Context, _ proc.NodeID, m proc.Message) {
	t, ok := m.(Token)
	switch {
	case !ok:
		return
	case !ctx.IsProcess(t.ID):
		ctx.Log("TOKEN(%d) dropped: no process has UID %d", t.ID, t.ID)
	case t.ID != ctx.Self(): // rule 2
		if !p.electing {
			p.elect(ctx)
		}
		p.highest = max(p.highest, t.ID)
		ctx.Send(ctx.Successor(), t)
	case !p.electing:
		ctx.Log("own TOKEN with no election under way: ignored")
	default: // rule 3
		p.electing = false
		p.follow(ctx, p.highest)
	}
}

func (p *node) Timer(proc.Context, string) {}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	if err := election.CheckCommand(name, args, "elect"); err != nil {
		return err
	}
	if p.electing {
		ctx.Log("an election is under way: elect ignored")
		return nil
	}
	p.elect(ctx)
	return nil
}
