// Package commit holds what the atomic commit protocols share: the
// properties they promise, the state keys that show a transaction's
// progress in the trace, the log records they write to stable storage, the
// messages of the first phase (prepare T, answered ready T or abort T) and
// of the decision (commit T, abort T), the coordinator's start and the
// participants' vote. The protocols live in the sub-packages twophase and
// threephase.
//
// How a transaction shows in the trace. A site that takes part in
// transaction T sets the key transaction to T first; its keys phase, vote and
// decision then speak of T. The coordinator sets participants to the sites
// it asks to vote. A participant sets vote once ("ready" or "no") and
// every site sets decision once ("commit" or "abort"); a recovered site
// sets them again from its log, to the same values. Every record written
// to stable storage is a state event of key log (proc.KeyStable), in the
// text's notation: "<prepare T1>", "<ready T1>", "<no T1>", "<commit T1>",
// "<abort T1>", "<complete T1>".
package commit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dsim/core/algo"
	"dsim/core/proc"
)

// The properties (see init), judged by core/check from the events alone.
const (
	Atomic      = "commit.atomic"
	NonBlocking = "commit.nonblocking"
)

// State keys.
const (
	KeyTxn          = "transaction"  // the transaction the keys below speak of (the transaction model's txn key is another)
	KeyPhase        = "phase"        // where the site is in the protocol
	KeyVote         = "vote"         // a participant's vote: Ready or No
	KeyDecision     = "decision"     // Commit or Abort, set once
	KeyParticipants = "participants" // at the coordinator: the sites asked to vote
)

// Values of the keys. Phases: Prepare (a coordinator collecting votes),
// Ready (a participant that voted ready, waiting), Blocked, Commit, Abort,
// Complete (a coordinator with every acknowledgement), and PreCommit for
// the three-phase protocol.
const (
	Ready     = "ready"
	No        = "no"
	Prepare   = "prepare"
	PreCommit = "precommit"
	Commit    = "commit"
	Abort     = "abort"
	Blocked   = "blocked"
	Complete  = "complete"
)

func init() {
	algo.DeclareFamily("commit", "atomic commit: every site of a distributed transaction commits, or every site aborts")
	algo.DeclareProperty(Atomic, "every site that decides a transaction (state decision) decides the same, and it is decided commit only if every participant the coordinator asked (state participants) voted ready (state vote) before")
	algo.DeclareProperty(NonBlocking, "every participant that is up when the property is judged (at the end of the run) and took part in a transaction (set txn to it) has decided it: none is left waiting, or blocked, for a failed coordinator to recover")
}

// State documents the keys, for the protocols' specs.
var State = []algo.StateKey{
	{Key: KeyTxn, Doc: "the transaction T the keys phase, vote and decision speak of; set first, when the site learns of T"},
	{Key: KeyPhase, Doc: `where the site is: "prepare" (the coordinator collecting votes), "ready" (a participant that voted ready, waiting for the decision), "precommit" (three-phase only), "blocked" (every site it could ask only has <ready T>: it waits for the coordinator), "commit", "abort", "complete" (the coordinator has every acknowledgement)`},
	{Key: KeyVote, Doc: `a participant's vote on T: "ready" (it logged <ready T>) or "no" (it logged <no T>)`},
	{Key: KeyDecision, Doc: `"commit" or "abort": the site's decision on T, set once (again, to the same value, by a recovered site reading its log)`},
	{Key: KeyParticipants, Doc: "at the coordinator: the ids of the sites it sent prepare T"},
	{Key: proc.KeyStable, Doc: `the record the site last wrote to its stable log, in the text's notation ("<ready T1>"): one state event per record`},
}

// Rec is the log record of a kind for T, as the text writes it: "<ready T1>".
func Rec(kind string, t int) string { return "<" + kind + " T" + strconv.Itoa(t) + ">" }

// Has reports whether the site's stable log holds the record kind for T.
func Has(ctx proc.Context, kind string, t int) bool {
	return slices.Contains(ctx.Stable(), Rec(kind, t))
}

// record splits a log record "<kind Tn>" into its kind and n (0: none).
func record(r string) (string, int) {
	kind, num, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(r, "<"), ">"), " T")
	t, err := strconv.Atoi(num)
	if !ok || err != nil {
		return "", 0
	}
	return kind, t
}

// Named reports whether the stable log holds a record of T.
func Named(ctx proc.Context, t int) bool {
	return slices.ContainsFunc(ctx.Stable(), func(r string) bool { _, n := record(r); return n == t })
}

// Recover is the transaction a recovered site takes up, read from its
// stable log: the last one the log leaves undecided (no <commit T>,
// <abort T> or <no T>), else the last one it names (0: none). A site takes
// part in one transaction at a time, but may have voted no on another
// meanwhile, or aborted one it was asked about.
func Recover(ctx proc.Context) int {
	log, last := ctx.Stable(), 0
	for i := len(log) - 1; i >= 0; i-- {
		_, t := record(log[i])
		if last == 0 {
			last = t
		}
		if t != 0 && !Has(ctx, Commit, t) && !Has(ctx, Abort, t) && !Has(ctx, No, t) {
			return t
		}
	}
	return last
}

// PrepareMsg is the coordinator's "prepare T": will the site commit its
// part of T?
type PrepareMsg struct {
	T int `json:"t"`
}

func (PrepareMsg) Kind() string { return "PREPARE" }

// ReadyMsg is a participant's "ready T": it logged <ready T> and will
// commit T if told to.
type ReadyMsg struct {
	T int `json:"t"`
}

func (ReadyMsg) Kind() string { return "READY" }

// AbortMsg is "abort T": a participant's vote no, or the decision.
type AbortMsg struct {
	T int `json:"t"`
}

func (AbortMsg) Kind() string { return "ABORT" }

// CommitMsg is the decision "commit T".
type CommitMsg struct {
	T int `json:"t"`
}

func (CommitMsg) Kind() string { return "COMMIT" }

// Messages are the messages both protocols send.
var Messages = []proc.Message{PrepareMsg{}, ReadyMsg{}, AbortMsg{}, CommitMsg{}}

// Params are the configuration keys both protocols read.
func Params() []algo.Param {
	return []algo.Param{
		{Name: "timeout", Type: algo.Int, Default: 10, Min: 1, Max: 1e6, Doc: "ticks of local time the coordinator waits for the votes after sending prepare T: a participant that has not answered by then counts as abort T (at least a round trip)"},
		{Name: "abort", Type: algo.Float, Default: 0.0, Min: 0, Max: 1, Doc: "the chance that a participant votes abort T (no) on a prepare, where no vote command said how it votes (0: every participant votes ready)"},
	}
}

// Commands are the coordinator's commit and the participants' vote.
var Commands = []algo.CommandSpec{
	{Name: "commit", Args: "[t=<n>]", Doc: "start the protocol for transaction T = n (default 1) here, the coordinator, over every other process as its participants"},
	{Name: "vote", Args: `value="ready"|"no"`, Doc: "how this participant votes on the next prepare it receives (by default ready, or no at the chance of config abort)"},
}

// TimerVotes is the tag of the coordinator's wait for the votes.
const TimerVotes = "timeout"

// Site is what both protocols keep of the transaction at a site. The
// protocols embed it.
type Site struct {
	T        int         // the transaction (0: none yet)
	Coord    proc.NodeID // its coordinator
	Parts    []proc.NodeID
	Decision string
	Phase    string
	Votes    map[proc.NodeID]bool // at the coordinator: who voted ready
	next     string               // the vote command's: Ready, No, or "" (config abort)
	timeout  proc.Duration
	abort    float64
}

// NewSite reads the configuration Params describes.
func NewSite(v algo.Values) Site {
	return Site{timeout: v.Time("timeout"), abort: v.Float("abort")}
}

// IsCoord reports whether this site coordinates T.
func (s *Site) IsCoord(ctx proc.Context) bool { return s.T != 0 && s.Coord == ctx.Self() }

// Join makes T the site's transaction, coordinated by coord.
func (s *Site) Join(ctx proc.Context, t int, coord proc.NodeID) {
	s.T, s.Coord, s.Parts, s.Decision, s.Phase, s.Votes = t, coord, nil, "", "", nil
	ctx.Set(KeyTxn, t)
}

// SetPhase sets the phase key.
func (s *Site) SetPhase(ctx proc.Context, phase string) {
	s.Phase = phase
	ctx.Set(KeyPhase, phase)
}

// Decide records decision d (Commit or Abort) for T: the log record
// <commit T> or <abort T> (unless the log holds it, as for a recovered
// site redoing it), the decision and the phase.
func (s *Site) Decide(ctx proc.Context, d string) {
	if !Has(ctx, d, s.T) {
		ctx.WriteStable(Rec(d, s.T))
	}
	s.Decision = d
	ctx.Set(KeyDecision, d)
	s.SetPhase(ctx, d)
}

// Early takes a decision on transaction t that arrives from coord before
// its prepare T (on links that reorder): a site with no transaction
// undecided joins t to take it. It reports whether the site did.
func (s *Site) Early(ctx proc.Context, t int, coord proc.NodeID) bool {
	if t == s.T || s.T != 0 && !s.Decided() || t < s.T {
		return false
	}
	s.Join(ctx, t, coord)
	return true
}

// Decided reports whether the site has decided T.
func (s *Site) Decided() bool { return s.Decision != "" }

// Command handles commit, the first phase at the coordinator (it logs
// <prepare T>, sends prepare T to every participant and arms its timeout),
// and vote.
func (s *Site) Command(ctx proc.Context, name string, args proc.Args) error {
	switch name {
	case "commit":
		for k := range args {
			if k != "t" {
				return fmt.Errorf("command \"commit\" takes only t=, got %s", args)
			}
		}
		t, err := args.Int("t", 1)
		switch {
		case err != nil:
			return err
		case t < 1 || t > 1e9:
			return fmt.Errorf("commit: t=%d is not in 1..1e9", t)
		case s.T != 0 && !s.Decided():
			return fmt.Errorf("commit: transaction T%d is still undecided here", s.T)
		case t == s.T || Named(ctx, t):
			return fmt.Errorf("commit: T%d is not a new transaction here (its log names it)", t)
		case len(ctx.Peers()) == 0:
			return fmt.Errorf("commit: no participant (the coordinator is alone)")
		}
		s.Join(ctx, t, ctx.Self())
		s.Parts = slices.Clone(ctx.Peers())
		s.Votes = map[proc.NodeID]bool{}
		ctx.Set(KeyParticipants, s.Parts)
		ctx.WriteStable(Rec(Prepare, t))
		s.SetPhase(ctx, Prepare)
		for _, p := range s.Parts {
			ctx.Send(p, PrepareMsg{T: t})
		}
		ctx.SetTimer(s.timeout, TimerVotes)
		return nil
	case "vote":
		v, ok := args["value"].(string)
		if len(args) != 1 || !ok || v != Ready && v != No {
			return fmt.Errorf(`command "vote" takes value="ready" or value="no", got %s`, args)
		}
		s.next = v
		return nil
	}
	return fmt.Errorf("unknown command %q (known: commit, vote)", name)
}

// Vote is the participant's answer to prepare T from coord: it logs
// <ready T> and answers ready T, or logs <no T>, answers abort T and
// aborts T at once (a site that voted no knows T cannot commit). A site
// still in another undecided transaction votes no on T without leaving
// it: it logs <no T> and answers abort T.
func (s *Site) Vote(ctx proc.Context, coord proc.NodeID, t int) {
	if s.T != 0 && s.T != t && !s.Decided() {
		ctx.Log("prepare T%d while T%d is undecided: voting abort", t, s.T)
		ctx.WriteStable(Rec(No, t))
		ctx.Send(coord, AbortMsg{T: t})
		return
	}
	vote := s.next
	if vote == "" {
		vote = Ready
		if s.abort > 0 && ctx.Rand().Float64() < s.abort {
			vote = No
		}
	}
	s.next = ""
	s.Join(ctx, t, coord)
	ctx.Set(KeyVote, vote)
	if vote == No {
		ctx.WriteStable(Rec(No, t))
		ctx.Send(coord, AbortMsg{T: t})
		s.Decide(ctx, Abort)
		return
	}
	ctx.WriteStable(Rec(Ready, t))
	s.SetPhase(ctx, Ready)
	ctx.Send(coord, ReadyMsg{T: t})
}

// Voted counts a ready vote at the coordinator and reports whether every
// participant has voted ready.
func (s *Site) Voted(from proc.NodeID) bool {
	if s.Votes == nil || !slices.Contains(s.Parts, from) {
		return false
	}
	s.Votes[from] = true
	return len(s.Votes) == len(s.Parts)
}
