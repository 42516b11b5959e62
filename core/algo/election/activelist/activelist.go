// Package activelist is the ring election with active lists of
// Silberschatz, Galvin and Gagne (Operating System Concepts, "Distributed
// Coordination", "The Ring Algorithm") and of the lecture notes
// "Synchronization, Coordination and Agreement" ("Ring Algorithm" and its
// Example1): elect(i) messages and the three cases a, b, c, the notes'
// Elected messages, and the textbook's inquiry for a recovering process.
package activelist

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/election"
	"dsim/core/proc"
)

// Elect is the text's elect(i), numbered with the election it belongs to.
type Elect struct {
	ID    proc.NodeID `json:"id"`
	Round int         `json:"round"`
}

func (Elect) Kind() string { return "ELECT" }

// Elected is the lecture notes' "Elected(P3)": the coordinator a process
// chose in case c, sent to its right neighbour.
type Elected struct {
	ID    proc.NodeID `json:"id"`
	Round int         `json:"round"`
}

func (Elected) Kind() string { return "ELECTED" }

// Inquiry is the textbook's inquiry message of a recovering process,
// forwarded round the ring to the coordinator.
type Inquiry struct {
	Origin proc.NodeID `json:"origin"`
}

func (Inquiry) Kind() string { return "INQUIRY" }

// Reply is the coordinator's reply "containing its number", forwarded
// round the ring to the process that inquired; it also carries the round
// of the election that chose it.
type Reply struct {
	ID    proc.NodeID `json:"id"`
	To    proc.NodeID `json:"to"`
	Round int         `json:"round"`
}

func (Reply) Kind() string { return "REPLY" }

// InquiryTimer is the timer of a recovered process waiting for a Reply.
const InquiryTimer = "inquiry"

// Config is the algorithm's configuration.
type Config struct {
	election.RingConfig
	// Elected makes case c send Elected(coordinator) to the right
	// neighbour, as the lecture notes' example does.
	Elected bool
	// Inquiry makes a recovered process inquire of the coordinator
	// instead of starting an election.
	Inquiry bool
}

func init() {
	algo.Register(algo.Spec{
		Name:    "election.activelist",
		Summary: "ring election with active lists: every process sends elect(i) round the ring and collects the ids it sees",
		Description: `Silberschatz, Galvin and Gagne, Operating System Concepts, "Distributed Coordination", "The Ring Algorithm" (cases a, b, c, and the inquiry of a recovering process), and the lecture notes "Synchronization, Coordination and Agreement", "Ring Algorithm" and "Ring Algorithm: Example1" (P1..P4, P1 and P4 crashed, P2 detecting, P3 elected, two Elected(P3) messages), on a unidirectional ring.
Rules: a process Pi that detects a coordinator failure creates a new active list, sends elect(i) to its right neighbour and adds i to the list. When Pi receives elect(j) from the left: (a) if it is the first elect message it has seen or sent in this election, Pi creates a new active list with j and i, then sends elect(i) followed by elect(j); (b) if j != i, Pi adds j to its active list and forwards the message; (c) if j = i, its own message is back and the active list holds every active process: Pi takes the largest number as the coordinator. Elected (config elected, on by default so that the notes' example is reproduced): in case c Pi also sends Elected(coordinator) to its right neighbour, as P2 and P3 each send "Elected(P3)" in the example; it is not forwarded, and its receiver, which reaches the same conclusion from its own list, takes no action on it (the notes never say what it does). With elected false no announcement is sent, as in the textbook's rules. Recovery (config inquiry, on by default): the textbook's solution, "one solution requires a recovering process to send an inquiry message. This message is forwarded around the ring to the current coordinator, which in turn sends a reply containing its number"; INQUIRY travels the ring to the process in role leader, and REPLY travels on round the ring to the inquirer (links are unidirectional). After the example, P1's recovery costs 2 INQUIRY and 1 REPLY, where an election costs 10 ELECT. With inquiry false a recovered process starts an election instead, as the other ring algorithms do.
Where the texts are silent: (1) "the first elect message of this election" needs to know which election a message belongs to, so elect(i) carries a round number: a newer round is case a (the newer election replaces the one under way); an older round is dropped during an election, and after one it means that its sender has fallen behind (it recovered), so a new round starts; an elect of the round that has just ended here, or a second elect(j) from the same j within a round (j crashed and lost its state), means that some active list missed a process, so a new round starts too. Like the text's "sends elect(i), followed by elect(j)", these rules assume FIFO links that do not duplicate messages. (2) the right neighbour is the first process the declared failure detector does not suspect, an elect(j) whose owner j would be skipped is dropped (it could only circle), and the coordinator chosen in case c is the largest id in the list the detector does not suspect and that is a process (a hand-made elect(j) may name another); (3) a process that finds its right neighbour is back (the detector trusts it again) while forwarding in a round it started sending to a farther process starts a new round, because the process that came back missed the earlier messages; (4) a process in an election with no outcome after 3·n·hop ticks starts a new round (timer "restart"); (5) who detects the coordinator failure: with watch (the default) its first live successor, once the detector suspects it (in the example P2, P1 being down too), and only that process; watch_all makes every process that suspects it detect it, and watch false leaves it to the elect command; a process that still follows the suspected coordinator 3·n·hop ticks after suspecting it, no elect having reached it, detects it then (timer "watch", with restart); (6) a participant (a process that has sent or forwarded an elect of the election under way, role candidate) that detects the failure itself, by the elect command, does nothing: case a is for the first elect message it has seen or sent, and its own later detection adds nothing (as Chang-Roberts' rule 2 is for processes not yet in an election); (7) the inquiry: a recovered process inquires once the detector trusts it again (until then its neighbours skip it and a reply could not reach it); the reply's round becomes its own; a coordinator lower than the inquirer, or suspected, is not accepted and the inquirer starts an election, because it may be the highest and must then become coordinator; an inquiry back at the inquirer found no coordinator (an election is under way or the coordinator has crashed) and the inquirer starts an election; so does an inquirer with no reply within 3·n·hop ticks (timer "inquiry", with restart); an INQUIRY or REPLY whose inquirer is no process or would be skipped is dropped (it could only circle).
Model: FIFO links that neither lose nor duplicate messages (the text's "sends elect(i), followed by elect(j)"), and no partition; crashes and recoveries at any time, noticed through the failure detector; every message crosses a link within hop ticks: the restart, watch and inquiry timers are sized on it, and with a hop below the latency they end elections still under way and the results can be wrong.`,
		Topology: "ring",
		Assumptions: algo.Assumptions{
			FIFO: true, Crashes: algo.CrashRecovery, Latency: algo.LatencyBound{Key: "hop", Trips: 1},
		},
		Config: append(election.RingParams(),
			algo.Param{Name: "elected", Type: algo.Bool, Default: true,
				Doc: "in case c a process also sends Elected(coordinator) to its right neighbour, as in the lecture notes' example (false: no announcement, as in the textbook's rules)"},
			algo.Param{Name: "inquiry", Type: algo.Bool, Default: true,
				Doc: "a recovered process sends an inquiry round the ring to the coordinator, which replies with its number (false: it starts an election)"},
		),
		Commands: []algo.CommandSpec{election.ElectCommand},
		State: append(append([]algo.StateKey(nil), election.StateKeys...),
			algo.StateKey{Key: "active", Doc: "the active list: the ids this process has seen in the current election"},
			algo.StateKey{Key: "round", Doc: "the number of the election this process last took part in"}),
		Messages:   []proc.Message{Elect{}, Elected{}, Inquiry{}, Reply{}},
		Properties: election.Properties,
		New: func(v algo.Values) (proc.Factory, error) {
			c := Config{RingConfig: election.RingConfigFrom(v), Elected: v.Bool("elected"), Inquiry: v.Bool("inquiry")}
			if err := c.Validate(); err != nil {
				return nil, err
			}
			return func(proc.NodeID) proc.Node { return &node{Ring: election.Ring{Cfg: &c.RingConfig}, cfg: &c} }, nil
		},
		// An election leaves every process with its complete active list, and
		// the restart timers of small worlds fall on distinct ticks of the
		// kernel's calendar, 2 KiB each: measured, 5.3 KiB a process at n=400.
		// Larger worlds hold less each: the lists they publish at every
		// message reach the kernel's work limit, which ends the run.
		Memory: algo.Memory{Boot: algo.Bytes(160), Load: algo.Bytes(5632), BootEvents: 1},
	})
}

type node struct {
	election.Ring
	cfg    *Config
	round  int
	active []proc.NodeID
	// to is where this process last sent a message of round sentIn: if
	// a process before it comes back within the round, it missed messages.
	to     proc.NodeID
	sentIn int
	// inquiring: this recovered process waits for the Reply to its Inquiry.
	inquiring bool
}

func (p *node) Start(ctx proc.Context) { p.Ring.Start(ctx, p, false) }

// Elect starts a new election: a new round with the active list [i].
func (p *node) Elect(ctx proc.Context) { p.join(ctx, p.round+1, ctx.Self()) }

// join takes part in round r from its start: the active list is [j, i]
// (just [i] when this process starts it), and elect(i) goes out followed by
// elect(j).
func (p *node) join(ctx proc.Context, r int, j proc.NodeID) {
	self := ctx.Self()
	p.endInquiry(ctx)
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

func (p *node) send(ctx proc.Context, m Elect) {
	next, ok := p.Toward(ctx, m.ID)
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
func closer(ctx proc.Context, a, b proc.NodeID) bool {
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

func (p *node) Receive(ctx proc.Context, _ proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Elect:
		p.elect(ctx, msg)
	case Inquiry:
		p.inquiry(ctx, msg)
	case Reply:
		p.reply(ctx, msg)
	case Elected:
		// The receiver reaches the same conclusion from its own list in
		// case c: the announcement asks nothing of it.
	}
}

// elect is the rule for elect(j): cases a, b and c.
func (p *node) elect(ctx proc.Context, msg Elect) {
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
func (p *node) complete(ctx proc.Context) {
	best := ctx.Self()
	for _, id := range p.active {
		// A hand-made elect(j) may name an id of no process, which
		// cannot be the coordinator.
		if id > best && !ctx.Suspected(id) && ctx.IsProcess(id) {
			best = id
		}
	}
	ctx.Log("own elect is back: the active list %v is complete, %d is the coordinator", p.active, best)
	p.Follow(ctx, best)
	if next := p.Successor(ctx); p.cfg.Elected && next != ctx.Self() {
		ctx.Send(next, Elected{ID: best, Round: p.round})
	}
}

// Rejoin is the rule of a recovered process the detector trusts again: it
// sends an inquiry round the ring to the coordinator, or with inquiry off
// starts an election.
func (p *node) Rejoin(ctx proc.Context) {
	if !p.cfg.Inquiry {
		ctx.Log("recovered and trusted again: starting an election")
		p.Elect(ctx)
		return
	}
	ctx.Log("recovered and trusted again: sending an inquiry round the ring to the coordinator")
	p.inquiring = true
	if p.Cfg.Restart {
		ctx.SetTimer(proc.Duration(3*ctx.N())*p.Cfg.Hop, InquiryTimer)
	}
	ctx.Send(p.Successor(ctx), Inquiry{Origin: ctx.Self()})
}

// endInquiry stops waiting for a Reply: this process has joined an election
// or has its answer.
func (p *node) endInquiry(ctx proc.Context) {
	if p.inquiring {
		p.inquiring = false
		if p.Cfg.Restart {
			ctx.CancelTimer(InquiryTimer)
		}
	}
}

// inquiry forwards an Inquiry to the coordinator, which replies with its
// number; back at the inquirer, it found none.
func (p *node) inquiry(ctx proc.Context, msg Inquiry) {
	self := ctx.Self()
	switch {
	case msg.Origin == self:
		if p.inquiring {
			ctx.Log("own inquiry is back: no coordinator answered, starting an election")
			p.Elect(ctx)
		}
	case !ctx.IsProcess(msg.Origin):
		ctx.Log("inquiry of %d dropped: %d is no process", msg.Origin, msg.Origin)
	case p.Leading():
		p.toward(ctx, msg.Origin, Reply{ID: self, To: msg.Origin, Round: p.round})
	default:
		p.toward(ctx, msg.Origin, msg)
	}
}

// reply forwards a Reply to the inquirer, which follows the coordinator it
// names unless that one is lower than itself or suspected.
func (p *node) reply(ctx proc.Context, msg Reply) {
	switch {
	case msg.To != ctx.Self():
		if ctx.IsProcess(msg.To) {
			p.toward(ctx, msg.To, msg)
		} else {
			ctx.Log("reply to %d dropped: %d is no process", msg.To, msg.To)
		}
	case !p.inquiring:
		ctx.Log("reply from %d dropped: no inquiry is under way", msg.ID)
	case !ctx.IsProcess(msg.ID):
		ctx.Log("reply from %d dropped: %d is no process", msg.ID, msg.ID)
	default:
		p.endInquiry(ctx)
		if msg.Round > p.round {
			p.round = msg.Round
			ctx.Set("round", p.round)
		}
		if p.Accepts(ctx, msg.ID, p) {
			ctx.Log("the coordinator %d replied to the inquiry", msg.ID)
			p.Follow(ctx, msg.ID)
		}
	}
}

// toward sends m on round the ring to owner, unless the walk would skip
// owner: it could then only circle.
func (p *node) toward(ctx proc.Context, owner proc.NodeID, m proc.Message) {
	if next, ok := p.Toward(ctx, owner); ok {
		ctx.Send(next, m)
	} else {
		ctx.Log("%s dropped: %d is suspected", m.Kind(), owner)
	}
}

func (p *node) Timer(ctx proc.Context, tag string) {
	if tag == InquiryTimer {
		if p.inquiring {
			ctx.Log("no reply to the inquiry within 3·n·hop ticks: starting an election")
			p.Elect(ctx)
		}
		return
	}
	p.Ring.Timer(ctx, tag, p)
}

func (p *node) Suspect(ctx proc.Context, id proc.NodeID) { p.Ring.Suspect(ctx, id, p) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	if err := election.CheckCommand(name, args, "elect"); err != nil {
		return err
	}
	if p.Electing() {
		ctx.Log("already taking part in round %d: elect ignored", p.round)
		return nil
	}
	p.Elect(ctx)
	return nil
}
