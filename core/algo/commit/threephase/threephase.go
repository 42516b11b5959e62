// Package threephase is Skeen's three-phase commit, the non-blocking
// counterpart of two-phase commit that Silberschatz, Galvin and Gagne's
// "Operating System Concepts" mentions in its section "Atomicity": a
// precommit phase between the votes and the decision makes sure no site
// commits while another is still uncertain, so that the live sites can
// decide T without the coordinator, by a termination protocol.
package threephase

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/commit"
	"dsim/core/proc"
)

// PreCommit is "prepare to commit T": every participant voted ready.
type PreCommit struct {
	T int `json:"t"`
}

func (PreCommit) Kind() string { return "PRECOMMIT" }

// Ack acknowledges a PRECOMMIT.
type Ack struct {
	T int `json:"t"`
}

func (Ack) Kind() string { return "ACK" }

// StateReq is the termination protocol's new coordinator asking a site
// for its state in T.
type StateReq struct {
	T int `json:"t"`
}

func (StateReq) Kind() string { return "STATE-REQ" }

// StateRep is a site's state in T: "none" (it never voted), "ready"
// (uncertain), "precommit", "commit" or "abort".
type StateRep struct {
	T     int    `json:"t"`
	State string `json:"state"`
}

func (StateRep) Kind() string { return "STATE-REP" }

// none is the state of a site with no record of T.
const none = "none"

func init() {
	algo.Register(algo.Spec{
		Name:    "commit.threephase",
		Summary: "three-phase commit (Skeen): prepare T, ready T / abort T, precommit T, ack, commit T; a failed coordinator is replaced by the lowest live site, which decides from the live sites' states: non-blocking",
		Description: `Text: Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Atomicity" names the three-phase commit protocol as the way around two-phase commit's blocking; the protocol is Skeen's, "Nonblocking Commit Protocols" (1981): the central site protocol with a prepared (precommit) state between the votes and the commit; its termination protocol, run by a backup coordinator chosen among the live sites, follows the rules Bernstein, Hadzilacos and Goodman give it, "Concurrency Control and Recovery in Database Systems", chapter "Distributed Recovery", section "Three-Phase Commit".
Phase 1: the coordinator (the commit command) logs <prepare T> and sends prepare T to every participant (every other process); each logs <ready T> and answers ready T, or logs <no T>, answers abort T and aborts (the vote command, or config abort at random). Phase 2: if every participant answered ready T before the timeout (config timeout), the coordinator logs <precommit T> and sends precommit T; each participant logs <precommit T> and acknowledges (ACK); otherwise the coordinator logs <abort T> and sends abort T. Phase 3: once every participant it does not suspect has acknowledged, the coordinator logs <commit T> and sends commit T. No site commits while another live one is still uncertain (ready without precommit): Skeen's condition for a non-blocking protocol.
Termination protocol: an undecided site whose detector suspects its coordinator takes the lowest id it does not suspect as the new coordinator and sends it its state (STATE-REP); the new coordinator asks every site it does not suspect for its state (STATE-REQ) and decides from them and its own: if one has aborted, abort; if one has committed, commit; if every one is uncertain (ready, or no record of T), abort; otherwise (some precommitted, none decided) it sends precommit T to all, waits for their acknowledgements, then commits. It sends its decision to every site it does not suspect. A new coordinator that fails is replaced the same way.
Where the text is silent: a site ignores every message from a process its detector suspects (a failed coordinator's late messages must not undo what the termination protocol decided); a site asked for its state with no record of T answers none and takes no further part in T but the decision. A site takes part in one transaction at a time: one still in an undecided transaction votes no on another, and answers a STATE-REQ about another from its log.
Assumptions (Skeen's): crash-stop sites with a perfect failure detector (the scenario's detector key), no partitions, reliable links, and votes back within the timeout (a round trip under it). The termination protocol then decides for every live site: commit.nonblocking.`,
		Topology:    "complete",
		Assumptions: algo.Assumptions{Crashes: algo.CrashStop, Latency: algo.LatencyBound{Key: "timeout", Trips: 2, Timeout: true}},
		Config:      commit.Params(),
		Commands:    commit.Commands,
		State:       commit.State,
		Messages:    append(slices.Clone(commit.Messages), PreCommit{}, Ack{}, StateReq{}, StateRep{}),
		Properties:  []algo.Property{commit.Atomic, commit.NonBlocking},
		New: func(v algo.Values) (proc.Factory, error) {
			s := commit.NewSite(v)
			return func(proc.NodeID) proc.Node { return &node{Site: s} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(200)},
	})
}

type node struct {
	commit.Site
	// lead is the coordinator this site follows: the original one, or the
	// termination protocol's.
	lead proc.NodeID
	// At a coordinator: the sites whose ACK (acking) or STATE-REP
	// (asking) it awaits, and the states reported.
	acking, asking []proc.NodeID
	states         []string
	terminating    bool
}

func (p *node) Start(proc.Context) {}

// state is the site's state in T, for the termination protocol.
func (p *node) state() string {
	switch {
	case p.T == 0:
		return none
	case p.Decided():
		return p.Decision
	case p.Phase == commit.PreCommit:
		return commit.PreCommit
	case p.Phase == commit.Ready:
		return commit.Ready
	}
	return none
}

// live lists the other sites the detector does not suspect: a non-nil
// list, as the coordinator's lists of sites it awaits are nil when it
// awaits nothing.
func live(ctx proc.Context) []proc.NodeID {
	out := []proc.NodeID{}
	for _, id := range ctx.Peers() {
		if !ctx.Suspected(id) {
			out = append(out, id)
		}
	}
	return out
}

// decide logs and sends the decision to every live site.
func (p *node) decide(ctx proc.Context, d string) {
	ctx.CancelTimer(commit.TimerVotes)
	to := p.recipients(ctx)
	p.acking, p.asking, p.terminating = nil, nil, false
	if !p.Decided() {
		p.Decide(ctx, d)
	}
	for _, id := range to {
		p.tell(ctx, id)
	}
}

// tell sends the site's decision to id.
func (p *node) tell(ctx proc.Context, id proc.NodeID) {
	if p.Decision == commit.Commit {
		ctx.Send(id, commit.CommitMsg{T: p.T})
	} else {
		ctx.Send(id, commit.AbortMsg{T: p.T})
	}
}

// recipients are the sites a coordinator speaks to: the original one its
// participants, a new one every live site.
func (p *node) recipients(ctx proc.Context) []proc.NodeID {
	if p.terminating || !p.IsCoord(ctx) {
		return live(ctx)
	}
	return slices.DeleteFunc(slices.Clone(p.Parts), ctx.Suspected)
}

// precommit is phase 2 (and the termination protocol's last step): log
// <precommit T>, send precommit T and await the acknowledgements.
func (p *node) precommit(ctx proc.Context) {
	ctx.CancelTimer(commit.TimerVotes)
	if p.Phase != commit.PreCommit {
		ctx.WriteStable(commit.Rec(commit.PreCommit, p.T))
		p.SetPhase(ctx, commit.PreCommit)
	}
	p.acking = p.recipients(ctx)
	for _, to := range p.acking {
		ctx.Send(to, PreCommit{T: p.T})
	}
	p.acked(ctx, ctx.Self()) // with nobody to wait for, it commits at once
}

// acked notes an acknowledgement and commits with the last one.
func (p *node) acked(ctx proc.Context, id proc.NodeID) {
	if p.acking == nil {
		return
	}
	p.acking = slices.DeleteFunc(p.acking, func(x proc.NodeID) bool { return x == id })
	if len(p.acking) == 0 {
		p.acking = nil
		p.decide(ctx, commit.Commit)
	}
}

// Suspect: a coordinator stops waiting for a failed site (one that had not
// voted makes T abort); an undecided participant whose coordinator failed
// starts the termination protocol.
func (p *node) Suspect(ctx proc.Context, id proc.NodeID) {
	if p.Decided() {
		return
	}
	if p.IsCoord(ctx) && p.Phase == commit.Prepare && !p.terminating {
		if slices.Contains(p.Parts, id) && !p.Votes[id] {
			ctx.Log("participant %d failed before voting: aborting T%d", id, p.T)
			p.decide(ctx, commit.Abort)
		}
		return
	}
	p.acked(ctx, id)
	p.reported(ctx, id, "")
	if id != p.lead || p.T == 0 {
		return
	}
	p.elect(ctx)
}

// elect takes the lowest live id as the new coordinator: this site starts
// the termination protocol, or sends its state to the new coordinator.
func (p *node) elect(ctx proc.Context) {
	next := ctx.Self()
	for _, id := range live(ctx) {
		next = min(next, id)
	}
	p.lead = next
	if next != ctx.Self() {
		ctx.Log("coordinator failed: %d takes over T%d", next, p.T)
		ctx.Send(next, StateRep{T: p.T, State: p.state()})
		return
	}
	p.terminate(ctx)
}

// terminate is the new coordinator asking every live site for its state.
func (p *node) terminate(ctx proc.Context) {
	ctx.Log("termination protocol for T%d: asking the live sites for their states", p.T)
	p.terminating, p.lead, p.acking = true, ctx.Self(), nil
	p.states = []string{p.state()}
	p.asking = live(ctx)
	for _, to := range p.asking {
		ctx.Send(to, StateReq{T: p.T})
	}
	p.reported(ctx, ctx.Self(), "")
}

// reported notes a site's state and, with every live one, applies the
// termination rule.
func (p *node) reported(ctx proc.Context, id proc.NodeID, state string) {
	if !p.terminating || p.asking == nil {
		return
	}
	if state != "" {
		p.states = append(p.states, state)
	}
	p.asking = slices.DeleteFunc(p.asking, func(x proc.NodeID) bool { return x == id })
	if len(p.asking) > 0 {
		return
	}
	p.asking = nil
	switch {
	case slices.Contains(p.states, commit.Abort):
		p.decide(ctx, commit.Abort)
	case slices.Contains(p.states, commit.Commit):
		p.decide(ctx, commit.Commit)
	case slices.Contains(p.states, commit.PreCommit):
		p.precommit(ctx)
	default: // every live site uncertain
		p.decide(ctx, commit.Abort)
	}
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	if ctx.Suspected(from) {
		ctx.Log("%s from %d, which has failed: ignored", m.Kind(), from)
		return
	}
	switch msg := m.(type) {
	case commit.PrepareMsg:
		if p.T == msg.T { // it already took part in T's termination
			return
		}
		p.lead = from
		p.Vote(ctx, from, msg.T)
	case commit.ReadyMsg:
		if p.mine(ctx, msg.T) && p.Phase == commit.Prepare && !p.terminating && p.Voted(from) {
			p.precommit(ctx)
		}
	case commit.AbortMsg:
		if p.mine(ctx, msg.T) && p.Phase == commit.Prepare && !p.terminating {
			p.decide(ctx, commit.Abort) // a vote no
		} else {
			p.decided(ctx, from, msg.T, commit.Abort)
		}
	case commit.CommitMsg:
		p.decided(ctx, from, msg.T, commit.Commit)
	case PreCommit:
		if msg.T != p.T || from != p.lead || p.Decided() {
			return
		}
		if p.Phase != commit.PreCommit {
			ctx.WriteStable(commit.Rec(commit.PreCommit, p.T))
			p.SetPhase(ctx, commit.PreCommit)
		}
		ctx.Send(from, Ack{T: p.T})
	case Ack:
		if msg.T == p.T {
			p.acked(ctx, from)
		}
	case StateReq:
		p.asked(ctx, from, msg.T)
	case StateRep:
		if p.T == 0 {
			p.Join(ctx, msg.T, proc.MinID) // it never heard of T: the termination tells it
		}
		if msg.T != p.T {
			return
		}
		if p.Decided() { // it learnt T's fate first: it tells the site
			p.tell(ctx, from)
			return
		}
		if !p.terminating {
			p.terminate(ctx)
		}
		p.reported(ctx, from, msg.State)
	}
}

// decided takes the decision of the coordinator it follows, or one that
// overtook its prepare T.
func (p *node) decided(ctx proc.Context, from proc.NodeID, t int, d string) {
	if p.Early(ctx, t, from) {
		p.lead = from
	}
	if t == p.T && from == p.lead && !p.Decided() {
		p.Decide(ctx, d)
	}
}

func (p *node) mine(ctx proc.Context, t int) bool { return t == p.T && p.IsCoord(ctx) }

// asked answers a new coordinator's STATE-REQ and follows it. A site that
// never heard of T joins it, with no record: it will not vote on it.
func (p *node) asked(ctx proc.Context, from proc.NodeID, t int) {
	if p.T == 0 {
		p.Join(ctx, t, proc.MinID)
	}
	if t != p.T { // another transaction, decided here: its state from the log
		ctx.Send(from, StateRep{T: t, State: logged(ctx, t)})
		return
	}
	p.lead, p.terminating, p.asking, p.acking = from, false, nil, nil
	ctx.Send(from, StateRep{T: t, State: p.state()})
}

// logged is a site's state in T as its log records it.
func logged(ctx proc.Context, t int) string {
	switch {
	case commit.Has(ctx, commit.Commit, t):
		return commit.Commit
	case commit.Has(ctx, commit.Abort, t), commit.Has(ctx, commit.No, t):
		return commit.Abort
	case commit.Has(ctx, commit.PreCommit, t):
		return commit.PreCommit
	case commit.Has(ctx, commit.Ready, t):
		return commit.Ready
	}
	return none
}

func (p *node) Timer(ctx proc.Context, tag string) {
	if tag == commit.TimerVotes && p.IsCoord(ctx) && p.Phase == commit.Prepare && !p.terminating {
		ctx.Log("timeout: not every participant answered ready T%d", p.T)
		p.decide(ctx, commit.Abort)
	}
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	if err := p.Site.Command(ctx, name, args); err != nil {
		return err
	}
	if name == "commit" {
		p.lead = ctx.Self()
	}
	return nil
}
