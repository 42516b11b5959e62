// Package changroberts is the Chang-Roberts ring election as the lecture
// notes "Synchronization, Coordination and Agreement" give it ("The
// Ring-Based Algorithm"): the base algorithm, and the optimization with
// participant marking (its "Algorithm", rules 1-5), the default.
package changroberts

import (
	"dsim/core/algo"
	"dsim/core/algo/election"
	"dsim/core/proc"
)

// Election carries the largest UID seen so far around the ring.
type Election struct {
	ID proc.NodeID `json:"id"`
}

func (Election) Kind() string { return "ELECTION" }

// Elected announces the leader's UID; it stops when it is back at the leader.
type Elected struct {
	ID proc.NodeID `json:"id"`
}

func (Elected) Kind() string { return "ELECTED" }

// Config is the algorithm's configuration.
type Config struct {
	election.RingConfig
	// All makes every process start an election at boot: the case the
	// message-count analysis considers.
	All bool
	// Optimize is the notes' optimization, participant marking; false is
	// the base algorithm.
	Optimize bool
}

func (c Config) validate() error { return c.RingConfig.Validate() }

func init() {
	algo.Register(algo.Spec{
		Name:    "election.changroberts",
		Summary: "Chang-Roberts: the largest UID travels a unidirectional ring, participants drop smaller ones, then an elected round",
		Description: `The lecture notes "Synchronization, Coordination and Agreement", "The Ring-Based Algorithm": the base algorithm, then "An optimization" with participant marking and its "Algorithm" (rules 1-5), the default; on a unidirectional ring.
Rules (optimize, the default): (1) every process starts non-participant; (2) a process that notices a lack of leader sends ELECTION(own UID) to its neighbour; (3) sending or forwarding an ELECTION marks it participant; (4a) a larger UID is forwarded unconditionally; (4b) a smaller UID at a non-participant is replaced by its own; (4c) a smaller UID at a participant is discarded; (4d) its own UID makes it the leader; (5a) the leader marks itself non-participant and sends ELECTED(UID); (5b) a process receiving ELECTED marks itself non-participant, records the UID and forwards it; (5c) the ELECTED message back at the leader is discarded.
The base algorithm (optimize false): no process is ever participant (no participant state): a larger UID is forwarded, a smaller one is always replaced by the receiver's own and forwarded, and its own UID makes the receiver the coordinator, which "sends an elected message through the ring" (5b, 5c as above). No election's messages are killed, so every initiator's ELECTION reaches the highest UID and comes back to it as its own: each return is rule 4d again, and the coordinator announces itself each time.
With one process starting, an election takes d+n ELECTION messages in either variant, d being the distance from the initiator to the highest UID, plus n ELECTED. With every process starting at once (config all) the optimization takes 2n-1 ELECTION messages when UIDs increase along the ring and n(n+1)/2 when they decrease, plus n ELECTED; the base algorithm takes n² + n(n-1)/2 ELECTION either way (each message travels to the highest UID, then once round the ring) and n² ELECTED (n announcements).
Where the text is silent: the ring skips processes the declared failure detector suspects; an ELECTION or ELECTED is dropped by the process that would have to skip its owner because the detector suspects it (the message could only circle); an ELECTED naming a suspected process is not accepted and the receiver starts an election; a process in an election (role candidate) restarts it after 3·n·hop ticks without an ELECTED (timer "restart"); who notices a lack of leader: with watch (the default) the coordinator's first live successor, once the detector suspects the coordinator, and only that process (watch_all: every process that suspects it; watch false: only the elect command), and a process that still follows the suspected coordinator 3·n·hop ticks after suspecting it, no election having reached it, starts one (timer "watch", with restart); a recovered process starts an election once the detector trusts it again; an ELECTED naming a UID lower than the receiver is not forwarded and the receiver starts an election (the notes' bully rule, "a process with a higher ID number will bully a lower ID process out of the coordinator position"), because the election that chose it missed a live process; an ELECTED lower than the coordinator the receiver already follows, which the detector does not suspect, is a late one from an older election and is dropped; an ELECTED naming no process is dropped, and so is an ELECTION naming a higher UID than the receiver's that is no process's (only a hand-made message can) by the first process it reaches that is not a participant, as it could circle for ever. With the optimization the elect command at a participant does nothing: rule 2 is for processes that are not yet in an election.
Model: reliable links in any order and no partition. The notes' algorithm assumes that no process fails during the election; the timers above extend it to crashes and recoveries at any time, noticed through the failure detector, as long as every message crosses a link within hop ticks (the timers are sized on it).`,
		Topology: "ring",
		Assumptions: algo.Assumptions{
			Crashes: algo.CrashRecovery, Latency: algo.LatencyBound{Key: "hop", Trips: 1},
		},
		Config: append(election.RingParams(),
			algo.Param{Name: "all", Type: algo.Bool, Default: false,
				Doc: "every process starts an election at boot (the all-initiators case of the message counts)"},
			algo.Param{Name: "optimize", Type: algo.Bool, Default: true,
				Doc: "the notes' optimization: participant marking, so that a participant discards a smaller UID (rule 4c) (false: the base algorithm, where a smaller UID is always replaced and forwarded)"},
		),
		Commands: []algo.CommandSpec{election.ElectCommand},
		State: append(append([]algo.StateKey(nil), election.StateKeys...),
			algo.StateKey{Key: "participant", Doc: "marked participant by rule 3, non-participant by rules 5a and 5b (unset in the base algorithm)"}),
		Messages:   []proc.Message{Election{}, Elected{}},
		Properties: election.Properties,
		New: func(v algo.Values) (proc.Factory, error) {
			c := Config{RingConfig: election.RingConfigFrom(v), All: v.Bool("all"), Optimize: v.Bool("optimize")}
			if err := c.validate(); err != nil {
				return nil, err
			}
			return newFactory(c), nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(64), Load: algo.Bytes(512), BootEvents: 2},
	})
}

func newFactory(c Config) proc.Factory {
	var nodes proc.Blocks[node]
	return func(id proc.NodeID) proc.Node {
		p := nodes.New()
		*p = node{Ring: election.Ring{Cfg: &c.RingConfig}, self: id, all: c.All, base: !c.Optimize}
		return p
	}
}

// node is one process of the ring.
type node struct {
	election.Ring
	self        proc.NodeID // its UID
	all         bool
	base        bool // the base algorithm: no participant marking
	participant bool
}

func (p *node) Start(ctx proc.Context) {
	if !p.base {
		ctx.Set("participant", false) // rule 1
	}
	p.Ring.Start(ctx, p, p.all)
}

// Elect is rule 2 (and its restart): send ELECTION(own UID).
func (p *node) Elect(ctx proc.Context) {
	p.mark(ctx, true)
	p.Candidate(ctx)
	ctx.Send(p.Successor(ctx), Election{ID: ctx.Self()})
}

func (p *node) mark(ctx proc.Context, participant bool) {
	if p.participant != participant && !p.base {
		p.participant = participant
		ctx.Set("participant", participant)
	}
}

func (p *node) Receive(ctx proc.Context, _ proc.NodeID, m proc.Message) {
	self := p.self
	switch msg := m.(type) {
	case Election:
		switch {
		case msg.ID > self && !p.participant && !ctx.IsProcess(msg.ID):
			// Only a hand-made message names no process. No process may be
			// high enough to discard it (4c), and none is its owner (4d):
			// forwarded by 4a, it could circle for ever. A process not in
			// an election asks; a participant does not, sparing the
			// question on the hot path of every election, and the message
			// meets a non-participant once the election in progress ends.
			ctx.Log("ELECTION(%d) dropped: no process has UID %d", msg.ID, msg.ID)
		case msg.ID > self: // 4a
			next, ok := p.Toward(ctx, msg.ID)
			if !ok {
				ctx.Log("ELECTION(%d) dropped: %d is suspected", msg.ID, msg.ID)
				return
			}
			p.mark(ctx, true)
			p.Candidate(ctx)
			ctx.Send(next, m) // forwarding m itself boxes nothing
		case msg.ID < self && !p.participant: // 4b (the base algorithm: always)
			p.Elect(ctx)
		case msg.ID < self: // 4c
		default: // 4d, then 5a
			p.mark(ctx, false)
			p.Follow(ctx, self)
			ctx.Send(p.Successor(ctx), Elected{ID: self})
		}
	case Elected:
		if msg.ID == self { // 5c
			return
		}
		if !ctx.IsProcess(msg.ID) {
			// Only a hand-made message names no process: no process would
			// stop it (5c), and one above every process would circle for
			// ever.
			ctx.Log("ELECTED(%d) dropped: no process has UID %d", msg.ID, msg.ID)
			return
		}
		if !p.Accepts(ctx, msg.ID, p) {
			return
		}
		p.mark(ctx, false) // 5b
		p.Follow(ctx, msg.ID)
		ctx.Send(p.Successor(ctx), m) // msg.ID is not suspected: it stops there
	}
}

func (p *node) Timer(ctx proc.Context, tag string) { p.Ring.Timer(ctx, tag, p) }

func (p *node) Suspect(ctx proc.Context, id proc.NodeID) { p.Ring.Suspect(ctx, id, p) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	if err := election.CheckCommand(name, args, "elect"); err != nil {
		return err
	}
	if p.participant {
		ctx.Log("already a participant: elect ignored")
		return nil
	}
	p.Elect(ctx)
	return nil
}
