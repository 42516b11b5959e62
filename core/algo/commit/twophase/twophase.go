// Package twophase is the two-phase commit protocol as Silberschatz,
// Galvin and Gagne's "Operating System Concepts", chapter "Distributed
// Coordination", section "Atomicity" gives it: the coordinator asks every
// participant to prepare, commits only if every one answered ready within
// a timeout, and the log records on stable storage let a failed site, or
// the participants of a failed coordinator, find out T's fate; when all
// they know is <ready T>, they are blocked until the coordinator recovers.
package twophase

import (
	"math"
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/commit"
	"dsim/core/proc"
)

// Ack acknowledges the decision on T to its coordinator.
type Ack struct {
	T int `json:"t"`
}

func (Ack) Kind() string { return "ACK" }

// Query asks a site what it knows of T: the rules for a failed
// participant's recovery and for a failed coordinator have the
// participants consult the coordinator and the other sites.
type Query struct {
	T int `json:"t"`
}

func (Query) Kind() string { return "QUERY" }

// Status answers a Query from the answering site's log: "commit" or
// "abort" (it holds the record), "ready" (only <ready T>), or "prepare"
// (the coordinator, up and still collecting votes: the decision will
// come). The coordinator answers with its decision message instead, once
// it has decided.
type Status struct {
	T     int    `json:"t"`
	State string `json:"state"`
}

func (Status) Kind() string { return "STATUS" }

// unknown is the coordinator of a transaction a recovered participant
// knows from its log only: the records do not name it.
const unknown = proc.NodeID(math.MinInt32)

func init() {
	algo.Register(algo.Spec{
		Name:    "commit.twophase",
		Summary: "two-phase commit: prepare T, ready T / abort T, commit T / abort T, acknowledgements; log records on stable storage; a failed coordinator can leave the participants blocked",
		Description: `Text: Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Atomicity", its parts "The Two-Phase Commit Protocol" and "Failure Handling in 2PC" (failure of a participating site, failure of the coordinator).
Phase 1: the coordinator Ci of T (the commit command) adds <prepare T> to the log and sends prepare T to every participant (every other process). A participant that is willing to commit its part adds <ready T> to the log and answers ready T; otherwise it adds <no T> and answers abort T (the vote command, or config abort at random).
Phase 2: T is committed only if every participant answered ready T before the coordinator's timeout (config timeout); Ci adds <commit T> or <abort T> to the log and sends commit T or abort T to every participant, which logs it and acknowledges it (ACK); with every acknowledgement Ci adds <complete T>.
Failure of a participant: on recovery it reads its log: <commit T>: redo(T); <abort T> (or <no T>): undo(T); <ready T> only: it must consult Ci about T's fate, here by asking Ci and every other site (QUERY), as the coordinator-failure rule does; no record of T: it never answered prepare T, so Ci cannot have committed T (when asked, it aborts T).
Failure of the coordinator: a participant with <ready T> that suspects Ci (the failure detector) asks every other site (QUERY, answered STATUS from the answering site's log): if an active site has <commit T>, T is committed; if one has <abort T>, T is aborted; if one has no <ready T>, Ci cannot have decided to commit, so T is aborted (that site aborts T as it answers, so that it never votes ready afterwards); if every active site has only <ready T>, they must wait for Ci to recover: phase blocked, the blocking problem. A recovered Ci reads its log: <complete T>: nothing; <commit T> or <abort T>: it sends the decision again and collects the acknowledgements; <prepare T> alone: it aborts T (no site can have committed) and sends abort T.
Where the text is silent: a participant that votes no aborts T at once (it logs <abort T> after <no T>); Ci answers a QUERY with its decision, acknowledged like the first one, or with STATUS prepare while it collects votes; a site still in an undecided transaction votes no on another; the records do not name the coordinator, so a recovered participant asks everyone. A participant keeps one transaction's keys at a time: the txn key names it.
Assumptions: reliable links in any order, crashes and recoveries with stable storage, a failure detector (the scenario's detector key) to suspect a failed coordinator, and votes back within the timeout (a round trip under it). commit.nonblocking is not promised: scenario commit/twophase-blocking shows it failing.`,
		Topology:    "complete",
		Assumptions: algo.Assumptions{Crashes: algo.CrashRecovery, Latency: algo.LatencyBound{Key: "timeout", Trips: 2, Timeout: true}},
		Config:      commit.Params(),
		Commands:    commit.Commands,
		State:       commit.State,
		Messages:    append(slices.Clone(commit.Messages), Ack{}, Query{}, Status{}),
		Properties:  []algo.Property{commit.Atomic},
		New: func(v algo.Values) (proc.Factory, error) {
			s := commit.NewSite(v)
			return func(proc.NodeID) proc.Node { return &node{Site: s} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(200)},
	})
}

type node struct {
	commit.Site
	acked []proc.NodeID // the coordinator: participants that acknowledged the decision
	// asking: a participant's query under way, the sites whose answer it
	// awaits (nil: none); waitCoord: Ci answered that it is collecting votes.
	asking    []proc.NodeID
	waitCoord bool
}

// Start is the recovery rules: a recovered site reads its log.
func (p *node) Start(ctx proc.Context) {
	t := commit.Recover(ctx)
	if !ctx.Recovered() || t == 0 {
		return
	}
	if commit.Has(ctx, commit.Prepare, t) { // it coordinated T
		p.Join(ctx, t, ctx.Self())
		p.Parts = slices.Clone(ctx.Peers())
		ctx.Set(commit.KeyParticipants, p.Parts)
		switch d := p.logged(ctx, t); {
		case d == "":
			ctx.Log("recovery: <prepare T%d> without a decision: aborting T%d", t, t)
			p.decide(ctx, commit.Abort)
		case commit.Has(ctx, commit.Complete, t):
			p.Decide(ctx, d)
			p.SetPhase(ctx, commit.Complete)
		default:
			ctx.Log("recovery: <%s T%d> without <complete T%d>: sending the decision again", d, t, t)
			p.decide(ctx, d)
		}
		return
	}
	p.Join(ctx, t, unknown)
	switch {
	case commit.Has(ctx, commit.Ready, t):
		ctx.Set(commit.KeyVote, commit.Ready)
	case commit.Has(ctx, commit.No, t):
		ctx.Set(commit.KeyVote, commit.No)
	}
	switch d := p.logged(ctx, t); {
	case d != "": // <commit T>: redo(T); <abort T>: undo(T)
		p.Decide(ctx, d)
	case commit.Has(ctx, commit.No, t):
		p.Decide(ctx, commit.Abort)
	default: // <ready T>: consult Ci and the other sites
		p.SetPhase(ctx, commit.Ready)
		ctx.Log("recovery: <ready T%d> only: asking the other sites", t)
		p.ask(ctx)
	}
}

// logged is the decision the log holds for T ("" none).
func (p *node) logged(ctx proc.Context, t int) string {
	switch {
	case commit.Has(ctx, commit.Commit, t):
		return commit.Commit
	case commit.Has(ctx, commit.Abort, t):
		return commit.Abort
	}
	return ""
}

// decide is phase 2 at the coordinator: log the decision, send it to
// every participant, and collect their acknowledgements.
func (p *node) decide(ctx proc.Context, d string) {
	ctx.CancelTimer(commit.TimerVotes)
	p.Decide(ctx, d)
	p.acked = nil
	for _, to := range p.Parts {
		ctx.Send(to, decision(d, p.T))
	}
}

func decision(d string, t int) proc.Message {
	if d == commit.Commit {
		return commit.CommitMsg{T: t}
	}
	return commit.AbortMsg{T: t}
}

// ask sends QUERY to every other site and awaits the answers of those it
// does not suspect. A suspected site is asked too: the detector trusts a
// recovered site only a while after its recovery, and its answer, if it
// is up, may be the one that decides.
func (p *node) ask(ctx proc.Context) {
	p.asking, p.waitCoord = []proc.NodeID{}, false
	for _, id := range ctx.Peers() {
		if !ctx.Suspected(id) {
			p.asking = append(p.asking, id)
		}
		ctx.Send(id, Query{T: p.T})
	}
	p.answered(ctx, unknown)
}

// answered notes that id answered the query with nothing decisive and,
// once every site asked has, applies the rule: Ci is collecting votes, so
// the decision will come; or every active site has only <ready T>: blocked.
func (p *node) answered(ctx proc.Context, id proc.NodeID) {
	if p.asking == nil {
		return
	}
	p.asking = slices.DeleteFunc(p.asking, func(x proc.NodeID) bool { return x == id })
	if len(p.asking) > 0 {
		return
	}
	p.asking = nil
	if !p.waitCoord {
		ctx.Log("every active site has only <ready T%d>: blocked until the coordinator recovers", p.T)
		p.SetPhase(ctx, commit.Blocked)
	}
}

// learn takes T's fate from another site's answer.
func (p *node) learn(ctx proc.Context, d string) {
	p.asking = nil
	if !p.Decided() {
		p.Decide(ctx, d)
	}
}

// Suspect is the rule for a failed coordinator: a participant with
// <ready T> and no decision asks the other sites. A site it was waiting
// for that fails counts as answered.
func (p *node) Suspect(ctx proc.Context, id proc.NodeID) {
	if p.T == 0 || p.IsCoord(ctx) || p.Decided() {
		return
	}
	if id == p.Coord && p.Phase == commit.Ready && p.asking == nil {
		ctx.Log("coordinator %d failed: asking the other sites about T%d", id, p.T)
		p.ask(ctx)
		return
	}
	p.answered(ctx, id)
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case commit.PrepareMsg:
		if p.T == msg.T && !p.IsCoord(ctx) { // a duplicate, or after T was aborted when asked
			p.revote(ctx, from)
			return
		}
		p.Vote(ctx, from, msg.T)
	case commit.ReadyMsg:
		if p.coordinating(ctx, msg.T) && p.Phase == commit.Prepare && p.Voted(from) {
			p.decide(ctx, commit.Commit)
		}
	case commit.AbortMsg:
		if p.coordinating(ctx, msg.T) {
			if p.Phase == commit.Prepare { // a vote no
				p.decide(ctx, commit.Abort)
			}
			return
		}
		p.decided(ctx, from, msg.T, commit.Abort)
	case commit.CommitMsg:
		p.decided(ctx, from, msg.T, commit.Commit)
	case Ack:
		if !p.coordinating(ctx, msg.T) || !p.Decided() || p.Phase == commit.Complete || slices.Contains(p.acked, from) || !slices.Contains(p.Parts, from) {
			return
		}
		p.acked = append(p.acked, from)
		if len(p.acked) == len(p.Parts) {
			ctx.WriteStable(commit.Rec(commit.Complete, p.T))
			p.SetPhase(ctx, commit.Complete)
		}
	case Query:
		p.answer(ctx, from, msg.T)
	case Status:
		if msg.T != p.T || p.Decided() {
			return
		}
		switch msg.State { // from a site not awaited (suspected), only a decision counts
		case commit.Commit, commit.Abort:
			p.learn(ctx, msg.State)
		case commit.Prepare: // Ci, up: a recovered participant learns who it is
			p.Coord, p.waitCoord = from, true
			p.answered(ctx, from)
		default:
			p.answered(ctx, from)
		}
	}
}

func (p *node) coordinating(ctx proc.Context, t int) bool { return p.T == t && p.IsCoord(ctx) }

// revote answers a prepare again: as it voted, or abort T once T is
// aborted here.
func (p *node) revote(ctx proc.Context, to proc.NodeID) {
	if p.Decision == commit.Abort {
		ctx.Send(to, commit.AbortMsg{T: p.T})
		return
	}
	ctx.Send(to, commit.ReadyMsg{T: p.T})
}

// decided is a participant receiving the coordinator's decision: it logs
// it and acknowledges it.
func (p *node) decided(ctx proc.Context, from proc.NodeID, t int, d string) {
	if t != p.T && !p.Early(ctx, t, from) {
		ctx.Log("%s T%d: not this site's transaction (T%d)", d, t, p.T)
		return
	}
	p.Coord = from
	p.learn(ctx, d)
	ctx.Send(from, Ack{T: t})
}

// answer is a site's reply to a QUERY about T, from its log: the
// coordinator sends its decision, or STATUS prepare while it collects
// votes; a participant its record. A site with no record of T never voted
// on it: it aborts T (the rule's "no control record").
func (p *node) answer(ctx proc.Context, to proc.NodeID, t int) {
	if commit.Has(ctx, commit.Prepare, t) {
		if d := p.logged(ctx, t); d != "" {
			ctx.Send(to, decision(d, t))
		} else {
			ctx.Send(to, Status{T: t, State: commit.Prepare})
		}
		return
	}
	state := p.logged(ctx, t)
	switch {
	case state != "":
	case commit.Has(ctx, commit.No, t):
		state = commit.Abort
	case commit.Has(ctx, commit.Ready, t):
		state = commit.Ready
	case p.T != 0 && p.T != t && !p.Decided(): // busy with another transaction: log only
		ctx.WriteStable(commit.Rec(commit.Abort, t))
		state = commit.Abort
	default:
		ctx.Log("asked about T%d, of which the log has no record: aborting it", t)
		p.Join(ctx, t, unknown)
		p.Decide(ctx, commit.Abort)
		state = commit.Abort
	}
	ctx.Send(to, Status{T: t, State: state})
}

func (p *node) Timer(ctx proc.Context, tag string) {
	if tag == commit.TimerVotes && p.IsCoord(ctx) && p.Phase == commit.Prepare {
		ctx.Log("timeout: not every participant answered ready T%d", p.T)
		p.decide(ctx, commit.Abort)
	}
}
