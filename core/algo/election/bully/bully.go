// Package bully is the bully election algorithm for a system where every
// process can reach every other one (Silberschatz, Galvin and Gagne,
// Operating System Concepts, ch. 18; the lecture notes "Synchronization,
// Coordination and Agreement"; the handwritten notes on election algorithms).
package bully

import (
	"fmt"

	"dsim/core/algo"
	"dsim/core/algo/election"
	"dsim/core/proc"
)

// Election is sent to every process with a higher number: "Pi has started an
// election".
type Election struct{}

func (Election) Kind() string { return "ELECTION" }

// Answer is the response to an ELECTION from a lower process (the texts'
// answer, OK or "I am alive" message).
type Answer struct{}

func (Answer) Kind() string { return "ANSWER" }

// Coordinator is "Pj is the new coordinator".
type Coordinator struct {
	ID proc.NodeID `json:"id"`
}

func (Coordinator) Kind() string { return "COORDINATOR" }

// Probe is the texts' request to the coordinator ("if process Pi sends a
// request that is not answered by the coordinator within a time interval
// T"): a coordinator that does not reply within T is assumed to have
// failed. It is called PROBE rather than REQUEST so that an algorithm
// composed with this one (the central mutual exclusion coordinator) keeps
// REQUEST for its own.
type Probe struct{}

func (Probe) Kind() string { return "PROBE" }

// Reply is the coordinator's reply to a PROBE.
type Reply struct{}

func (Reply) Kind() string { return "REPLY" }

// Timer tags: T (waiting for an ANSWER), T' (waiting for a COORDINATOR after
// an ANSWER), reply (waiting T for the coordinator's REPLY), probe (the
// periodic request).
const (
	timerT     = "T"
	timerT2    = "T'"
	timerReply = "reply"
	timerProbe = "probe"
)

// Config is the algorithm's configuration.
type Config struct {
	election.Boot
	T     proc.Duration // wait for an ANSWER, and for the coordinator's REPLY
	T2    proc.Duration // T': after an ANSWER, wait for a COORDINATOR
	Probe proc.Duration // period of the automatic PROBE to the coordinator; 0: off
}

func (c Config) validate() error {
	if err := c.Boot.Validate(); err != nil {
		return err
	}
	if c.T < 1 || c.T2 < 1 {
		return fmt.Errorf("T and T2 must be at least 1 tick, got T=%d T2=%d", c.T, c.T2)
	}
	if c.Probe < 0 {
		return fmt.Errorf("probe must be 0 (off) or a period in ticks, got %d", c.Probe)
	}
	return nil
}

func init() {
	algo.Register(algo.Spec{
		Name:    "election.bully",
		Summary: "bully algorithm: ELECTION to every higher process, ANSWER stops it, the highest live process announces COORDINATOR",
		Description: `Silberschatz, Galvin and Gagne, Operating System Concepts, ch. 18 "Distributed Coordination", "The Bully Algorithm" (with the worked example P1..P4); the lecture notes "Synchronization, Coordination and Agreement", "Bully Algorithm" (the same rules with T and T', the "victory message from a lower ID" rule, and the 0..7 example); and the handwritten notes on election algorithms (the steps).
Rules: a process whose request (PROBE) the coordinator does not answer within T (REPLY) assumes the coordinator has failed and starts an election: it sends ELECTION to every process with a higher number and waits T for an ANSWER (timer "T"); with no ANSWER it elects itself and sends COORDINATOR to every lower process; with an ANSWER it waits T' for a COORDINATOR (timer "T'") and restarts the election if none comes. A process receiving ELECTION from a lower process sends ANSWER and starts its own election unless it has already started one. A process receiving COORDINATOR from a higher process records it; from a lower process it starts a new election (the lecture notes: "a process with a higher ID number will bully a lower ID process out of the coordinator position"). A recovered process immediately runs the algorithm, so the highest live process, finding nobody higher, sends COORDINATOR to all lower processes at once.
Failure model: crash-recovery (a recovered process knows it has failed: the texts' assumption), network partitions that heal, reliable links otherwise (no loss), and the texts' synchrony: T at least a round trip.
Where the texts are silent: the probe command (and, with probe > 0, a timer every probe ticks) makes a follower send PROBE to its coordinator, and a follower that knows no coordinator starts an election instead; only the process in role leader answers a PROBE, so a process that believes in the wrong coordinator finds out; the elect command at a process already in an election does nothing; COORDINATOR is sent to all lower processes, crashed or not (the network drops what cannot arrive).
Where the texts are silent, healed partitions: during a partition each side elects its own highest process, and after the heal no rule of the texts makes the two coordinators meet. So the probe (command or timer) at a coordinator sends ELECTION to every higher process its failure detector does not suspect: it won because they did not answer, and this is the recovered-process rule seen from the other side (Silberschatz, Galvin and Gagne, "Election Algorithms", the bully algorithm: a recovered process holds an election, and one with the highest number bullies the others). A higher process answers and, by the ELECTION rule, holds its own election, whose COORDINATOR every lower process then follows; the coordinator stays until that COORDINATOR comes. A suspected process is not asked: it runs the algorithm itself when it recovers. The highest live process has nobody to ask, so a settled system sends nothing more than before.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			Partitions: true, Crashes: algo.CrashRecovery, Latency: algo.LatencyBound{Key: "T", Trips: 2, Timeout: true},
		},
		Config: append(election.BootParams(),
			algo.Param{Name: "T", Type: algo.Int, Default: 30, Min: 1, Max: 1e9, Doc: "ticks to wait for an ANSWER to ELECTION, and for the coordinator's REPLY to a PROBE"},
			algo.Param{Name: "T2", Type: algo.Int, Default: 80, Min: 1, Max: 1e9, Doc: "T': ticks to wait for a COORDINATOR after an ANSWER before restarting the election"},
			algo.Param{Name: "probe", Type: algo.Int, Default: 0, Min: 0, Max: 1e9, Doc: "every probe ticks a follower sends PROBE to its coordinator, and a coordinator ELECTION to the higher processes its detector does not suspect (0: only on the probe command)"},
		),
		Commands: []algo.CommandSpec{
			election.ElectCommand,
			{Name: "probe", Doc: "send PROBE (the request) to the coordinator; no REPLY within T starts an election. At the coordinator: send ELECTION to every higher process the failure detector does not suspect (after a healed partition, the higher one answers and takes over)"},
		},
		State:      election.StateKeys,
		Messages:   []proc.Message{Election{}, Answer{}, Coordinator{}, Probe{}, Reply{}},
		Properties: election.Properties,
		New: func(v algo.Values) (proc.Factory, error) {
			c := Config{Boot: election.BootFrom(v), T: v.Time("T"), T2: v.Time("T2"), Probe: v.Time("probe")}
			if err := c.validate(); err != nil {
				return nil, err
			}
			return func(proc.NodeID) proc.Node { return &node{cfg: &c} }, nil
		},
		// An election from below sends ELECTION and ANSWER between nearly every
		// pair, most of them in flight at once: n² messages in the world.
		Memory: algo.Memory{Boot: algo.Bytes(128), Load: algo.PerPeer(1024, 120), BootEvents: 1},
	})
}

// phase says what an electing process waits for.
type phase uint8

const (
	idle            phase = iota
	waitAnswer            // ELECTION sent, timer T running
	waitCoordinator       // ANSWER received, timer T' running
)

type node struct {
	cfg    *Config
	role   string
	leader proc.NodeID
	known  bool
	phase  phase
	asking bool // a PROBE is waiting for its REPLY
}

func (p *node) Start(ctx proc.Context) {
	if p.cfg.Probe > 0 {
		ctx.SetTimer(p.cfg.Probe, timerProbe)
	}
	if ctx.Recovered() {
		ctx.Log("recovered: running the election algorithm")
		p.elect(ctx)
		return
	}
	if p.cfg.Leader != election.None {
		p.follow(ctx, p.cfg.Leader)
	} else {
		p.setRole(ctx, election.Follower)
	}
	if p.cfg.Start == ctx.Self() {
		p.elect(ctx)
	}
}

func (p *node) setRole(ctx proc.Context, role string) {
	if p.role != role {
		p.role = role
		ctx.Set(election.KeyRole, role)
	}
}

func (p *node) follow(ctx proc.Context, id proc.NodeID) {
	p.leader, p.known = id, true
	ctx.Set(election.KeyLeader, id)
	if id == ctx.Self() {
		p.setRole(ctx, election.Leader)
	} else {
		p.setRole(ctx, election.Follower)
	}
	p.phase, p.asking = idle, false
	ctx.CancelTimer(timerT)
	ctx.CancelTimer(timerT2)
	ctx.CancelTimer(timerReply)
}

// elect sends ELECTION to every higher process and waits T; with none
// higher it wins at once.
func (p *node) elect(ctx proc.Context) {
	p.setRole(ctx, election.Candidate)
	ctx.CancelTimer(timerT2)
	self := ctx.Self()
	higher := 0
	for _, id := range ctx.Peers() {
		if id > self {
			ctx.Send(id, Election{})
			higher++
		}
	}
	if higher == 0 {
		p.win(ctx)
		return
	}
	p.phase = waitAnswer
	ctx.SetTimer(p.cfg.T, timerT)
}

// win makes this process the coordinator and tells every lower process.
func (p *node) win(ctx proc.Context) {
	self := ctx.Self()
	p.follow(ctx, self)
	for _, id := range ctx.Peers() {
		if id < self {
			ctx.Send(id, Coordinator{ID: self})
		}
	}
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	self := ctx.Self()
	switch msg := m.(type) {
	case Election:
		if from > self {
			ctx.Log("ELECTION from higher process %d ignored", from)
			return
		}
		ctx.Send(from, Answer{})
		if p.role != election.Candidate {
			p.elect(ctx)
		}
	case Answer:
		if p.phase == waitAnswer {
			p.phase = waitCoordinator
			ctx.CancelTimer(timerT)
			ctx.SetTimer(p.cfg.T2, timerT2)
		}
	case Coordinator:
		switch {
		case msg.ID > self:
			p.follow(ctx, msg.ID)
		case msg.ID < self && p.role != election.Candidate:
			ctx.Log("COORDINATOR %d is lower than this process: starting an election", msg.ID)
			p.elect(ctx)
		}
	case Probe:
		if p.role == election.Leader {
			ctx.Send(from, Reply{})
		}
	case Reply:
		if p.asking {
			p.asking = false
			ctx.CancelTimer(timerReply)
		}
	}
}

func (p *node) Timer(ctx proc.Context, tag string) {
	switch tag {
	case timerT:
		if p.phase == waitAnswer {
			ctx.Log("no ANSWER within T: electing itself")
			p.win(ctx)
		}
	case timerT2:
		if p.phase == waitCoordinator {
			ctx.Log("no COORDINATOR within T': restarting the election")
			p.elect(ctx)
		}
	case timerReply:
		p.asking = false
		if p.role == election.Follower {
			ctx.Log("coordinator %d did not reply within T: starting an election", p.leader)
			p.elect(ctx)
		}
	case timerProbe:
		ctx.SetTimer(p.cfg.Probe, timerProbe)
		p.probe(ctx)
	}
}

// probe sends PROBE to the coordinator and waits T for the REPLY; at the
// coordinator it checks the higher processes instead.
func (p *node) probe(ctx proc.Context) {
	if p.role == election.Leader {
		p.check(ctx)
		return
	}
	if p.role != election.Follower || p.asking {
		return
	}
	if !p.known {
		ctx.Log("no coordinator known: starting an election")
		p.elect(ctx)
		return
	}
	p.asking = true
	ctx.Send(p.leader, Probe{})
	ctx.SetTimer(p.cfg.T, timerReply)
}

// check sends ELECTION to every higher process the failure detector does
// not suspect. A coordinator below the highest process won because those
// did not answer; if they are alive after all (a healed partition: the
// detector, which sees crashes only, never suspected them) nothing else
// brings them back to it, as a recovered process is brought back by its
// own election. A higher process that receives it answers and holds its
// own election, whose COORDINATOR reaches every lower process; a suspected
// one is left to run the algorithm itself when it recovers. The ANSWER
// changes nothing here: the coordinator stays until that COORDINATOR comes.
func (p *node) check(ctx proc.Context) {
	self := ctx.Self()
	for _, id := range ctx.Peers() {
		if id > self && !ctx.Suspected(id) {
			ctx.Send(id, Election{})
		}
	}
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	if err := election.CheckCommand(name, args, "elect", "probe"); err != nil {
		return err
	}
	switch {
	case name == "probe":
		p.probe(ctx)
	case p.role == election.Candidate:
		ctx.Log("already in an election: elect ignored")
	default:
		p.elect(ctx)
	}
	return nil
}
