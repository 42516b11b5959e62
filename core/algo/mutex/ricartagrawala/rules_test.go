package ricartagrawala

import (
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/mutex"
	"dsim/core/proc"
)

// The Ricart-Agrawala rules one at a time, at process 2 of the processes
// 1, 2 and 3, calling its handlers directly and reading what it asked for.

func process2(t *testing.T) (proc.Node, *algotest.Fake) {
	ctx := algotest.NewFake(2, 1, 2, 3)
	p := algotest.Process(t, "mutex.ricartagrawala", nil, 2)
	p.Start(ctx)
	return p, ctx
}

func command(t *testing.T, p proc.Node, ctx *algotest.Fake, name string) {
	t.Helper()
	if err := p.Command(ctx, name, nil); err != nil {
		t.Fatal(err)
	}
}

func expectSent(t *testing.T, ctx *algotest.Fake, what string, want ...algotest.Sent) {
	t.Helper()
	if got := ctx.Take(); !slices.Equal(got, want) {
		t.Errorf("%s: sent %v, want %v", what, got, want)
	}
}

func expectCS(t *testing.T, ctx *algotest.Fake, want string) {
	t.Helper()
	if got := ctx.State[mutex.KeyCS]; got != want {
		t.Errorf("cs is %v, want %q", got, want)
	}
}

// TestRuleRequest: a request is WANTED and sends REQUEST(ts_i, i), stamped
// with the Lamport clock, to every other process; it enters on the last
// REPLY.
func TestRuleRequest(t *testing.T) {
	p, ctx := process2(t)
	command(t, p, ctx, "request")
	expectCS(t, ctx, mutex.Wanted)
	expectSent(t, ctx, "the request", algotest.Sent{To: 3, Msg: Request{TS: 1}}, algotest.Sent{To: 1, Msg: Request{TS: 1}})
	p.Receive(ctx, 3, Reply{TS: 1})
	expectCS(t, ctx, mutex.Wanted)
	p.Receive(ctx, 1, Reply{TS: 1})
	expectCS(t, ctx, mutex.Held)
}

// TestRuleReplyWhenReleased: a process neither requesting nor in the
// critical section replies at once.
func TestRuleReplyWhenReleased(t *testing.T) {
	p, ctx := process2(t)
	p.Receive(ctx, 1, Request{TS: 7})
	expectSent(t, ctx, "a REQUEST while RELEASED", algotest.Sent{To: 1, Msg: Reply{TS: 7}})
}

// TestRuleWantedComparesStamps: a requesting process replies to a smaller
// (timestamp, id) and defers a larger one; equal timestamps are ordered
// by id.
func TestRuleWantedComparesStamps(t *testing.T) {
	p, ctx := process2(t)
	command(t, p, ctx, "request") // (1, 2)
	ctx.Take()
	p.Receive(ctx, 1, Request{TS: 1}) // (1, 1) is smaller: reply
	expectSent(t, ctx, "REQUEST (1, 1) against (1, 2)", algotest.Sent{To: 1, Msg: Reply{TS: 1}})
	p.Receive(ctx, 3, Request{TS: 1}) // (1, 3) is larger: defer
	expectSent(t, ctx, "REQUEST (1, 3) against (1, 2)")
	if got := ctx.State[keyDeferred]; !slices.Equal(got.([]proc.NodeID), []proc.NodeID{3}) {
		t.Errorf("deferred %v, want [3]", got)
	}
}

// TestRuleReleaseRepliesToDeferred: HELD defers every request, and the
// release replies to them in the order they came.
func TestRuleReleaseRepliesToDeferred(t *testing.T) {
	p, ctx := process2(t)
	command(t, p, ctx, "request")
	p.Receive(ctx, 3, Reply{TS: 1})
	p.Receive(ctx, 1, Reply{TS: 1})
	ctx.Take()
	p.Receive(ctx, 3, Request{TS: 1})
	p.Receive(ctx, 1, Request{TS: 5})
	expectSent(t, ctx, "REQUESTs while HELD")
	command(t, p, ctx, "release")
	expectCS(t, ctx, mutex.Released)
	expectSent(t, ctx, "the release", algotest.Sent{To: 3, Msg: Reply{TS: 1}}, algotest.Sent{To: 1, Msg: Reply{TS: 5}})
}
