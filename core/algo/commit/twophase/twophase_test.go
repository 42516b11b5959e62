package twophase

import (
	"slices"
	"strings"
	"testing"

	"dsim/core/algo/commit"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

// site makes process self of 1..3 (1 coordinates), booted.
func site(t *testing.T, self proc.NodeID) (proc.Node, *algotest.Fake) {
	t.Helper()
	return algotest.Booted(t, "commit.twophase", nil, self, 1, 2, 3)
}

// recovered makes process self of 1..3 recover with the stable log given.
func recovered(t *testing.T, self proc.NodeID, log ...string) (proc.Node, *algotest.Fake) {
	t.Helper()
	n := algotest.Process(t, "commit.twophase", nil, self)
	f := algotest.NewFake(self, 1, 2, 3)
	f.Records, f.Lives = log, 1
	n.Start(f)
	return n, f
}

func sent(to []proc.NodeID, m proc.Message) []algotest.Sent {
	var out []algotest.Sent
	for _, id := range to {
		out = append(out, algotest.Sent{To: id, Msg: m})
	}
	return out
}

func expect(t *testing.T, f *algotest.Fake, log string, msgs []algotest.Sent, keys ...any) {
	t.Helper()
	if got := strings.Join(f.Records, " "); got != log {
		t.Errorf("log %q, want %q", got, log)
	}
	if got := f.Take(); !slices.Equal(got, msgs) {
		t.Errorf("sent %v, want %v", got, msgs)
	}
	for i := 0; i < len(keys); i += 2 {
		if got := f.State[keys[i].(string)]; got != keys[i+1] {
			t.Errorf("%s = %v, want %v", keys[i], got, keys[i+1])
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPhase1: Ci adds <prepare T> to the log and sends prepare T to every
// participant; a participant adds <ready T> and answers ready T, or adds
// <no T> and answers abort T.
func TestPhase1(t *testing.T) {
	c, f := site(t, 1)
	must(t, c.Command(f, "commit", proc.Args{"t": 7}))
	expect(t, f, "<prepare T7>", sent([]proc.NodeID{2, 3}, commit.PrepareMsg{T: 7}), commit.KeyTxn, 7, commit.KeyPhase, commit.Prepare)
	if f.Timers[commit.TimerVotes] != 10 || !slices.Equal(f.State[commit.KeyParticipants].([]proc.NodeID), []proc.NodeID{2, 3}) {
		t.Errorf("timers %v, participants %v", f.Timers, f.State[commit.KeyParticipants])
	}

	p, f := site(t, 2)
	p.Receive(f, 1, commit.PrepareMsg{T: 7})
	expect(t, f, "<ready T7>", sent([]proc.NodeID{1}, commit.ReadyMsg{T: 7}), commit.KeyVote, commit.Ready, commit.KeyPhase, commit.Ready)
	p.Receive(f, 1, commit.PrepareMsg{T: 7}) // a duplicate: the same answer, no new record
	expect(t, f, "<ready T7>", sent([]proc.NodeID{1}, commit.ReadyMsg{T: 7}))

	// One transaction at a time: prepare T8 while T7 is undecided is refused.
	p.Receive(f, 3, commit.PrepareMsg{T: 8})
	expect(t, f, "<ready T7> <no T8>", sent([]proc.NodeID{3}, commit.AbortMsg{T: 8}), commit.KeyTxn, 7, commit.KeyPhase, commit.Ready)

	p, f = site(t, 3)
	must(t, p.Command(f, "vote", proc.Args{"value": "no"}))
	p.Receive(f, 1, commit.PrepareMsg{T: 7})
	expect(t, f, "<no T7> <abort T7>", sent([]proc.NodeID{1}, commit.AbortMsg{T: 7}), commit.KeyVote, commit.No, commit.KeyDecision, commit.Abort)
}

// TestPhase2: T is committed only if every participant answered ready T;
// Ci logs the decision and sends it, the participants log it and
// acknowledge, and with every acknowledgement Ci adds <complete T>.
func TestPhase2(t *testing.T) {
	c, f := site(t, 1)
	must(t, c.Command(f, "commit", nil))
	f.Take()
	c.Receive(f, 2, commit.ReadyMsg{T: 1})
	expect(t, f, "<prepare T1>", nil, commit.KeyDecision, nil)
	c.Receive(f, 3, commit.ReadyMsg{T: 1})
	expect(t, f, "<prepare T1> <commit T1>", sent([]proc.NodeID{2, 3}, commit.CommitMsg{T: 1}), commit.KeyDecision, commit.Commit)
	if _, armed := f.Timers[commit.TimerVotes]; armed {
		t.Error("the timeout is still armed after the decision")
	}
	c.Receive(f, 2, Ack{T: 1})
	c.Receive(f, 2, Ack{T: 1}) // a duplicate counts once
	expect(t, f, "<prepare T1> <commit T1>", nil, commit.KeyPhase, commit.Commit)
	c.Receive(f, 3, Ack{T: 1})
	expect(t, f, "<prepare T1> <commit T1> <complete T1>", nil, commit.KeyPhase, commit.Complete)

	p, f := site(t, 2)
	p.Receive(f, 1, commit.PrepareMsg{T: 1})
	f.Take()
	p.Receive(f, 1, commit.CommitMsg{T: 1})
	expect(t, f, "<ready T1> <commit T1>", sent([]proc.NodeID{1}, Ack{T: 1}), commit.KeyDecision, commit.Commit)
}

// TestPhase2Abort: one abort T, or a participant silent until the
// timeout, aborts T.
func TestPhase2Abort(t *testing.T) {
	c, f := site(t, 1)
	must(t, c.Command(f, "commit", nil))
	f.Take()
	c.Receive(f, 3, commit.AbortMsg{T: 1})
	expect(t, f, "<prepare T1> <abort T1>", sent([]proc.NodeID{2, 3}, commit.AbortMsg{T: 1}), commit.KeyDecision, commit.Abort)
	c.Receive(f, 2, commit.ReadyMsg{T: 1}) // too late: nothing changes
	expect(t, f, "<prepare T1> <abort T1>", nil, commit.KeyDecision, commit.Abort)

	c, f = site(t, 1)
	must(t, c.Command(f, "commit", nil))
	c.Receive(f, 2, commit.ReadyMsg{T: 1})
	f.Take()
	c.Timer(f, commit.TimerVotes)
	expect(t, f, "<prepare T1> <abort T1>", sent([]proc.NodeID{2, 3}, commit.AbortMsg{T: 1}), commit.KeyDecision, commit.Abort)
}

// TestFailureOfParticipant: the recovery rules, from the log.
func TestFailureOfParticipant(t *testing.T) {
	for _, tc := range []struct {
		log      []string
		decision any
		phase    any
		sent     []algotest.Sent
	}{
		{[]string{"<ready T1>", "<commit T1>"}, commit.Commit, commit.Commit, nil},                     // redo(T)
		{[]string{"<ready T1>", "<abort T1>"}, commit.Abort, commit.Abort, nil},                        // undo(T)
		{[]string{"<no T1>"}, commit.Abort, commit.Abort, nil},                                         // undo(T)
		{[]string{"<ready T1>"}, nil, commit.Ready, sent([]proc.NodeID{3, 1}, Query{T: 1})},            // consult Ci and the others
		{[]string{"<ready T1>", "<no T2>"}, nil, commit.Ready, sent([]proc.NodeID{3, 1}, Query{T: 1})}, // T1 first: T2 was refused while in it
		{nil, nil, nil, nil}, // nothing to do
	} {
		_, f := recovered(t, 2, tc.log...)
		if f.State[commit.KeyDecision] != tc.decision || f.State[commit.KeyPhase] != tc.phase || !slices.Equal(f.Take(), tc.sent) {
			t.Errorf("log %q: decision %v, phase %v, want %v, %v and sent %v", tc.log, f.State[commit.KeyDecision], f.State[commit.KeyPhase], tc.decision, tc.phase, tc.sent)
		}
	}
	// Ci up and collecting votes: the decision will come, no blocking;
	// should Ci fail, the participant asks again.
	p, f := recovered(t, 2, "<ready T1>")
	f.Take()
	p.Receive(f, 3, Status{T: 1, State: commit.Ready})
	p.Receive(f, 1, Status{T: 1, State: commit.Prepare})
	expect(t, f, "<ready T1>", nil, commit.KeyPhase, commit.Ready)
	f.Down[1] = true
	p.(proc.SuspectHandler).Suspect(f, 1)
	expect(t, f, "<ready T1>", sent([]proc.NodeID{3, 1}, Query{T: 1}), commit.KeyPhase, commit.Ready)
	p.Receive(f, 3, Status{T: 1, State: commit.Ready})
	expect(t, f, "<ready T1>", nil, commit.KeyPhase, commit.Blocked)

	// A participant with <ready T> learns T's fate from any answer.
	p, f = recovered(t, 2, "<ready T1>")
	f.Take()
	p.Receive(f, 3, Status{T: 1, State: commit.Ready})
	p.Receive(f, 1, commit.CommitMsg{T: 1})
	expect(t, f, "<ready T1> <commit T1>", sent([]proc.NodeID{1}, Ack{T: 1}), commit.KeyDecision, commit.Commit)
}

// TestFailureOfCoordinator: a participant with <ready T> whose detector
// suspects Ci asks the other sites: one with <commit T> or <abort T>
// decides T; if all have only <ready T>, the participant is blocked; a
// site with no <ready T> aborts T as it answers.
func TestFailureOfCoordinator(t *testing.T) {
	for _, tc := range []struct {
		answer        string
		phase, decide any
	}{
		{commit.Commit, commit.Commit, commit.Commit},
		{commit.Abort, commit.Abort, commit.Abort},
		{commit.Ready, commit.Blocked, nil},
	} {
		p, f := site(t, 2)
		p.Receive(f, 1, commit.PrepareMsg{T: 1})
		f.Take()
		f.Down[1] = true
		p.(proc.SuspectHandler).Suspect(f, 1)
		// Ci too, suspected: its answer is not awaited, but it may be up again.
		expect(t, f, "<ready T1>", sent([]proc.NodeID{3, 1}, Query{T: 1}))
		p.Receive(f, 3, Status{T: 1, State: tc.answer})
		if f.State[commit.KeyPhase] != tc.phase || f.State[commit.KeyDecision] != tc.decide {
			t.Errorf("answer %s: phase %v decision %v, want %v, %v", tc.answer, f.State[commit.KeyPhase], f.State[commit.KeyDecision], tc.phase, tc.decide)
		}
	}
	// The answering sites, from their logs.
	for _, tc := range []struct {
		log  []string
		want string
	}{
		{[]string{"<ready T1>"}, commit.Ready},
		{[]string{"<ready T1>", "<commit T1>"}, commit.Commit},
		{[]string{"<no T1>"}, commit.Abort},
		{nil, commit.Abort}, // no <ready T>: Ci cannot have committed
	} {
		p, f := recovered(t, 3, tc.log...)
		f.Take()
		p.Receive(f, 2, Query{T: 1})
		if got := f.Take(); !slices.Equal(got, []algotest.Sent{{To: 2, Msg: Status{T: 1, State: tc.want}}}) {
			t.Errorf("log %q: answered %v, want %s", tc.log, got, tc.want)
		}
		if tc.log == nil && (f.State[commit.KeyDecision] != commit.Abort || strings.Join(f.Records, " ") != "<abort T1>") {
			t.Errorf("a site with no record answered abort without aborting T1: %v %q", f.State, f.Records)
		}
	}
}

// TestCoordinatorRecovery: Ci reads its log: a decision without
// <complete T> is sent again; <prepare T> alone aborts T.
func TestCoordinatorRecovery(t *testing.T) {
	_, f := recovered(t, 1, "<prepare T1>")
	expect(t, f, "<prepare T1> <abort T1>", sent([]proc.NodeID{2, 3}, commit.AbortMsg{T: 1}), commit.KeyDecision, commit.Abort)
	c, f := recovered(t, 1, "<prepare T1>", "<commit T1>")
	expect(t, f, "<prepare T1> <commit T1>", sent([]proc.NodeID{2, 3}, commit.CommitMsg{T: 1}), commit.KeyDecision, commit.Commit)
	c.Receive(f, 2, Query{T: 1}) // a recovered participant asks: the decision again
	expect(t, f, "<prepare T1> <commit T1>", []algotest.Sent{{To: 2, Msg: commit.CommitMsg{T: 1}}})
	_, f = recovered(t, 1, "<prepare T1>", "<commit T1>", "<complete T1>")
	expect(t, f, "<prepare T1> <commit T1> <complete T1>", nil, commit.KeyPhase, commit.Complete, commit.KeyDecision, commit.Commit)
}

func TestCommandErrors(t *testing.T) {
	c, f := site(t, 1)
	for _, tc := range []struct {
		name string
		args proc.Args
		want string
	}{
		{"commit", proc.Args{"t": 0}, "commit: t=0 is not in 1..1e9"},
		{"commit", proc.Args{"t": "x"}, `argument "t" must be an integer, got "x"`},
		{"commit", proc.Args{"id": 1}, `command "commit" takes only t=, got id=1`},
		{"vote", proc.Args{"value": "maybe"}, `command "vote" takes value="ready" or value="no", got value="maybe"`},
		{"vote", nil, `command "vote" takes value="ready" or value="no", got `},
		{"elect", nil, `unknown command "elect" (known: commit, vote)`},
	} {
		if err := c.Command(f, tc.name, tc.args); err == nil || err.Error() != tc.want {
			t.Errorf("%s %v: got %v, want %q", tc.name, tc.args, err, tc.want)
		}
	}
	must(t, c.Command(f, "commit", nil))
	if err := c.Command(f, "commit", proc.Args{"t": 2}); err == nil || err.Error() != "commit: transaction T1 is still undecided here" {
		t.Errorf("a second transaction: %v", err)
	}
	c.Timer(f, commit.TimerVotes)
	if err := c.Command(f, "commit", proc.Args{"t": 1}); err == nil || err.Error() != "commit: T1 is not a new transaction here (its log names it)" {
		t.Errorf("T1 again: %v", err)
	}
	must(t, c.Command(f, "commit", proc.Args{"t": 2}))
	expect(t, f, "<prepare T1> <abort T1> <prepare T2>", append(append(sent([]proc.NodeID{2, 3}, commit.PrepareMsg{T: 1}), sent([]proc.NodeID{2, 3}, commit.AbortMsg{T: 1})...), sent([]proc.NodeID{2, 3}, commit.PrepareMsg{T: 2})...), commit.KeyTxn, 2)
}
