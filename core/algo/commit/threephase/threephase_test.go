package threephase

import (
	"slices"
	"strings"
	"testing"

	"dsim/core/algo/commit"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

// site makes process self of 1..4 (1 coordinates), booted.
func site(t *testing.T, self proc.NodeID) (proc.Node, *algotest.Fake) {
	t.Helper()
	return algotest.Booted(t, "commit.threephase", nil, self, 1, 2, 3, 4)
}

func sent(to []proc.NodeID, m proc.Message) []algotest.Sent {
	var out []algotest.Sent
	for _, id := range to {
		out = append(out, algotest.Sent{To: id, Msg: m})
	}
	return out
}

func expect(t *testing.T, f *algotest.Fake, log string, msgs []algotest.Sent, decision any) {
	t.Helper()
	if got := strings.Join(f.Records, " "); got != log {
		t.Errorf("log %q, want %q", got, log)
	}
	if got := f.Take(); !slices.Equal(got, msgs) {
		t.Errorf("sent %v, want %v", got, msgs)
	}
	if got := f.State[commit.KeyDecision]; got != decision {
		t.Errorf("decision %v, want %v", got, decision)
	}
}

func suspect(n proc.Node, f *algotest.Fake, id proc.NodeID) {
	f.Down[id] = true
	n.(proc.SuspectHandler).Suspect(f, id)
}

var parts = []proc.NodeID{2, 3, 4}

// TestCoordinator: with every ready T, the coordinator logs <precommit T>
// and sends precommit T; with every acknowledgement it logs <commit T> and
// sends commit T. A participant that fails before voting aborts T.
func TestCoordinator(t *testing.T) {
	c, f := site(t, 1)
	if err := c.Command(f, "commit", nil); err != nil {
		t.Fatal(err)
	}
	expect(t, f, "<prepare T1>", sent(parts, commit.PrepareMsg{T: 1}), nil)
	for _, id := range parts {
		c.Receive(f, id, commit.ReadyMsg{T: 1})
	}
	expect(t, f, "<prepare T1> <precommit T1>", sent(parts, PreCommit{T: 1}), nil)
	c.Receive(f, 2, Ack{T: 1})
	suspect(c, f, 4) // crash-stop: a failed participant's acknowledgement is not awaited
	expect(t, f, "<prepare T1> <precommit T1>", nil, nil)
	c.Receive(f, 3, Ack{T: 1})
	expect(t, f, "<prepare T1> <precommit T1> <commit T1>", sent([]proc.NodeID{2, 3}, commit.CommitMsg{T: 1}), commit.Commit)

	c, f = site(t, 1)
	if err := c.Command(f, "commit", nil); err != nil {
		t.Fatal(err)
	}
	c.Receive(f, 2, commit.ReadyMsg{T: 1})
	f.Take()
	suspect(c, f, 3)
	expect(t, f, "<prepare T1> <abort T1>", sent([]proc.NodeID{2, 4}, commit.AbortMsg{T: 1}), commit.Abort)
}

// TestParticipant: prepare T, precommit T (logged, acknowledged), commit T.
func TestParticipant(t *testing.T) {
	p, f := site(t, 3)
	p.Receive(f, 1, commit.PrepareMsg{T: 1})
	expect(t, f, "<ready T1>", []algotest.Sent{{To: 1, Msg: commit.ReadyMsg{T: 1}}}, nil)
	p.Receive(f, 1, PreCommit{T: 1})
	expect(t, f, "<ready T1> <precommit T1>", []algotest.Sent{{To: 1, Msg: Ack{T: 1}}}, nil)
	if f.State[commit.KeyPhase] != commit.PreCommit {
		t.Errorf("phase %v", f.State[commit.KeyPhase])
	}
	p.Receive(f, 1, commit.CommitMsg{T: 1})
	expect(t, f, "<ready T1> <precommit T1> <commit T1>", nil, commit.Commit)
}

// TestTerminationElection: when the coordinator fails, the lowest live
// site takes over and asks the live sites for their states; every other
// sends it its own.
func TestTerminationElection(t *testing.T) {
	p, f := site(t, 3)
	p.Receive(f, 1, commit.PrepareMsg{T: 1})
	f.Take()
	suspect(p, f, 1)
	expect(t, f, "<ready T1>", []algotest.Sent{{To: 2, Msg: StateRep{T: 1, State: commit.Ready}}}, nil)
	p.Receive(f, 1, commit.CommitMsg{T: 1}) // the failed coordinator's late messages are ignored
	expect(t, f, "<ready T1>", nil, nil)

	p, f = site(t, 2)
	p.Receive(f, 1, commit.PrepareMsg{T: 1})
	f.Take()
	suspect(p, f, 1)
	expect(t, f, "<ready T1>", sent([]proc.NodeID{3, 4}, StateReq{T: 1}), nil)
}

// TestTerminationRule: the new coordinator decides from the live sites'
// states and its own: one aborted, abort; one committed, commit; all
// uncertain, abort; some precommitted, precommit T to all, then commit.
func TestTerminationRule(t *testing.T) {
	for _, tc := range []struct {
		mine, s3, s4 string
		log          string
		msgs         []algotest.Sent
		decision     any
	}{
		{commit.Ready, commit.Ready, commit.Abort, "<ready T1> <abort T1>", sent([]proc.NodeID{3, 4}, commit.AbortMsg{T: 1}), commit.Abort},
		{commit.Ready, commit.PreCommit, commit.Commit, "<ready T1> <commit T1>", sent([]proc.NodeID{3, 4}, commit.CommitMsg{T: 1}), commit.Commit},
		{commit.Ready, commit.Ready, none, "<ready T1> <abort T1>", sent([]proc.NodeID{3, 4}, commit.AbortMsg{T: 1}), commit.Abort},
		{commit.Ready, commit.PreCommit, commit.Ready, "<ready T1> <precommit T1>", sent([]proc.NodeID{3, 4}, PreCommit{T: 1}), nil},
		{commit.PreCommit, commit.Ready, commit.Ready, "<ready T1> <precommit T1>", sent([]proc.NodeID{3, 4}, PreCommit{T: 1}), nil},
	} {
		p, f := site(t, 2)
		p.Receive(f, 1, commit.PrepareMsg{T: 1})
		if tc.mine == commit.PreCommit {
			p.Receive(f, 1, PreCommit{T: 1})
		}
		suspect(p, f, 1)
		f.Take()
		p.Receive(f, 3, StateRep{T: 1, State: tc.s3})
		p.Receive(f, 4, StateRep{T: 1, State: tc.s4})
		t.Run(tc.mine+" "+tc.s3+" "+tc.s4, func(t *testing.T) { expect(t, f, tc.log, tc.msgs, tc.decision) })
		if tc.decision == nil { // the precommit round
			p.Receive(f, 3, Ack{T: 1})
			p.Receive(f, 4, Ack{T: 1})
			expect(t, f, tc.log+" <commit T1>", sent([]proc.NodeID{3, 4}, commit.CommitMsg{T: 1}), commit.Commit)
		}
	}
}

// TestTerminationStragglers: a site that never heard of T answers none
// and takes the decision; a decided site tells a site that reports to it.
func TestTerminationStragglers(t *testing.T) {
	p, f := site(t, 4)
	f.Down[1] = true
	p.Receive(f, 2, StateReq{T: 1})
	expect(t, f, "", []algotest.Sent{{To: 2, Msg: StateRep{T: 1, State: none}}}, nil)
	p.Receive(f, 1, commit.PrepareMsg{T: 1}) // from the failed coordinator: ignored
	p.Receive(f, 2, commit.AbortMsg{T: 1})
	expect(t, f, "<abort T1>", nil, commit.Abort)

	p, f = site(t, 2)
	p.Receive(f, 1, commit.PrepareMsg{T: 1})
	p.Receive(f, 1, PreCommit{T: 1})
	p.Receive(f, 1, commit.CommitMsg{T: 1})
	f.Take()
	suspect(p, f, 1)
	p.Receive(f, 3, StateRep{T: 1, State: commit.PreCommit})
	expect(t, f, "<ready T1> <precommit T1> <commit T1>", []algotest.Sent{{To: 3, Msg: commit.CommitMsg{T: 1}}}, commit.Commit)

	// A site gone on to T2 answers about T1 from its log.
	p.Receive(f, 3, commit.PrepareMsg{T: 2})
	f.Take()
	p.Receive(f, 4, StateReq{T: 1})
	if got := f.Take(); !slices.Equal(got, []algotest.Sent{{To: 4, Msg: StateRep{T: 1, State: commit.Commit}}}) {
		t.Errorf("asked about T1 in T2: answered %v", got)
	}
}
