// Package maekawa is Maekawa's sqrt(n) algorithm: a process enters the
// critical section with the votes of its quorum alone, any two quorums
// sharing a process that votes for one request at a time (M. Maekawa, "A
// sqrt(N) algorithm for mutual exclusion in decentralized systems", ACM
// TOCS 3(2), 1985). The registered Description states the rules; this
// comment keeps the arguments behind them.
//
// # Quorums
//
// The processes, in ring order, fill a grid of c = ceil(sqrt(n)) columns row
// by row; a process's quorum is its row and its column, itself included, so
// K <= 2c-1. Only the last row may be short (n not a square): two processes
// in the same row share it, and otherwise one of them, say j, is in a full
// row, which crosses i's column, so any two quorums intersect. Maekawa's
// finite projective planes give K ~ sqrt(n), hence his 3 sqrt(n) messages;
// the grid costs 3(K-1) ~ 6 sqrt(n) per entry without contention: K-1
// REQUEST, K-1 LOCKED, K-1 RELEASE (a process is its own quorum member and
// votes for itself without a message).
//
// # Deadlock
//
// variant=basic can deadlock: three requesters each holding votes the
// others need wait forever. variant=inquire breaks such cycles with FAILED,
// INQUIRE and RELINQUISH (the textbooks' YIELD). An arbiter sends INQUIRE
// once per vote, and a holder that enters before it can relinquish ignores
// the INQUIRE (it releases the vote on leaving). One rule the paper leaves
// implicit is stated and implemented: a waiting request overtaken in an
// arbiter's queue by a newer one of higher priority is sent FAILED then, so
// every request that is not first in line at an arbiter has been told so;
// without it an overtaken requester could keep its other votes forever.
//
// # Failures
//
// A crashed arbiter's vote, or a crashed requester holding votes, blocks
// every quorum containing it; a recovered process has forgotten its queue
// and its votes.
package maekawa

import (
	"fmt"
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/mutex"
	"dsim/core/proc"
)

// Request is REQUEST(ts, i) to every member of i's quorum.
type Request struct {
	TS int `json:"ts"`
}

func (Request) Kind() string { return "REQUEST" }

// Locked is an arbiter's vote (the texts' GRANT or REPLY) for the request
// stamped ts of the receiver.
type Locked struct {
	TS int `json:"ts"`
}

func (Locked) Kind() string { return "LOCKED" }

// Release gives the vote back after the critical section.
type Release struct {
	TS int `json:"ts"`
}

func (Release) Kind() string { return "RELEASE" }

// Failed tells a requester that a request of higher priority is ahead of
// its own at this arbiter.
type Failed struct {
	TS int `json:"ts"`
}

func (Failed) Kind() string { return "FAILED" }

// Inquire asks the holder of the arbiter's vote whether it can give it up
// for a request of higher priority.
type Inquire struct {
	TS int `json:"ts"`
}

func (Inquire) Kind() string { return "INQUIRE" }

// Relinquish gives an arbiter's vote back before the critical section (the
// textbooks' YIELD); the request waits in the arbiter's queue again.
type Relinquish struct {
	TS int `json:"ts"`
}

func (Relinquish) Kind() string { return "RELINQUISH" }

// The variant values.
const (
	Basic   = "basic"
	Inquiry = "inquire"
)

// State keys.
const (
	keyQuorum = "quorum"
	keyVote   = "voted_for"
)

func init() {
	algo.Register(algo.Spec{
		Name:    "mutex.maekawa",
		Summary: "Maekawa: REQUEST to the sqrt(n)-sized quorum (grid row and column); each member votes LOCKED for one request at a time; RELEASE after the critical section; FAILED, INQUIRE and RELINQUISH avoid deadlock",
		Description: `Text: Maekawa 1985 ("A sqrt(N) algorithm for mutual exclusion in decentralized systems", ACM TOCS 3(2)), variant=inquire (default) the full algorithm, variant=basic the voting scheme alone, which can deadlock; the lecture notes "Synchronization, Coordination and Agreement" name the permission-based algorithms ("Mutual Exclusion Algorithms") but not this one.
Rules: quorums are the rows and columns of a grid of ceil(sqrt(n)) columns filled in ring order, so any two intersect. To request, i stamps (ts, i) with its Lamport clock and sends REQUEST to its quorum; it enters once every member has sent LOCKED, and on leaving sends RELEASE to its quorum. Every process is an arbiter that votes for one request at a time: a REQUEST finding it unlocked gets LOCKED, otherwise it waits in a queue ordered by (ts, id); on RELEASE the arbiter votes for the head. With inquire, a REQUEST behind the locking or a waiting request in (ts, id) order is answered FAILED; otherwise the arbiter sends INQUIRE to the holder of its vote, which answers RELINQUISH (the textbooks' YIELD) once it knows it cannot enter now (it holds a FAILED, or has relinquished a vote not yet returned); the arbiter queues the relinquished request and votes for the head. 3(K-1) messages per entry without contention, K <= 2·ceil(sqrt(n))-1.
Where the text is silent: a waiting request overtaken in an arbiter's queue by a higher-priority one is sent FAILED then (implicit in the paper); every message names the timestamp of its request and one about another request is ignored (logged), as are a REQUEST an arbiter holds already (a duplicate: its vote, or queued) and a message from the process itself (only a hand-made one can be); an INQUIRE that arrives before its LOCKED waits for it. voted_for shows whose request holds an arbiter's vote.
Failures: reliable links, any delivery order (no FIFO needed). Crashes are not tolerated: a crashed arbiter or requester blocks every quorum containing it, and a recovered process has forgotten its queue and votes.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			Crashes: algo.NoCrashes,
		},
		Config: []algo.Param{
			{Name: "variant", Type: algo.Str, Default: Inquiry, Doc: `"inquire" (FAILED, INQUIRE and RELINQUISH: deadlock-free) or "basic" (REQUEST, LOCKED and RELEASE only: can deadlock)`},
		},
		Commands: mutex.Commands,
		State: append(slices.Clone(mutex.StateKeys), mutex.StampKey,
			algo.StateKey{Key: keyQuorum, Doc: "the process's quorum: its grid row and column, itself included (set at start)"},
			algo.StateKey{Key: keyVote, Doc: "the process whose request holds this arbiter's vote: one id, or none (set when it changes)"}),
		Messages:   []proc.Message{Request{}, Locked{}, Release{}, Failed{}, Inquire{}, Relinquish{}},
		Properties: mutex.Properties,
		New: func(v algo.Values) (proc.Factory, error) {
			variant := v.String("variant")
			if variant != Basic && variant != Inquiry {
				return nil, fmt.Errorf("config key \"variant\": want %q or %q, got %q", Inquiry, Basic, variant)
			}
			inquire := variant == Inquiry
			return func(proc.NodeID) proc.Node { return &node{inquire: inquire} }, nil
		},
		// The quorum of K = 2·ceil(sqrt(n))-1 ids, its votes and its published copy.
		Memory: algo.Memory{Boot: func(n int) uint64 { return 256 + 24*uint64(2*Columns(n)-1) }, Load: algo.Bytes(256), BootEvents: 3},
	})
}

// Quorum returns the ring positions (0..n-1) in the quorum of position i:
// its row and its column in the grid of Columns(n) columns, in increasing
// order.
func Quorum(n, i int) []int {
	c := Columns(n)
	row := i / c * c
	var q []int
	for k := row; k < min(row+c, n); k++ {
		q = append(q, k)
	}
	for k := i % c; k < n; k += c {
		if k < row || k >= row+c {
			q = append(q, k)
		}
	}
	slices.Sort(q)
	return q
}

// Columns is ceil(sqrt(n)), the width of the grid.
func Columns(n int) int {
	c := 1
	for c*c < n {
		c++
	}
	return c
}

// vote is what a requester knows of one arbiter of its quorum during a
// request.
type vote struct {
	granted  bool // its LOCKED is held
	failed   bool // it sent FAILED and has not voted since
	yielded  bool // its vote was relinquished and has not come back
	inquired bool // it sent INQUIRE, not yet answered
}

// waiting is a request in an arbiter's queue; failed once its requester
// knows that another request is ahead of it here.
type waiting struct {
	s      mutex.Stamp
	failed bool
}

type node struct {
	mutex.CS
	inquire bool
	clock   mutex.Clock
	quorum  []proc.NodeID  // in increasing ring position, itself included
	local   []proc.Message // messages to itself, delivered when the current step ends

	// As a requester.
	mine  mutex.Stamp
	votes []vote // by position in quorum

	// As an arbiter.
	locked   bool
	holder   mutex.Stamp
	inquired bool      // INQUIRE sent for the current vote
	queue    []waiting // in (ts, id) order
}

func (p *node) Start(ctx proc.Context) {
	// The quorum's ids are read from the peers, which list the processes
	// in ring order from the successor (position idx+1+k is peers[k]):
	// copying the whole ring to pick them would cost every process n ids
	// and n steps at boot, n² in the world, for the 2·sqrt(n) it keeps.
	peers, idx := ctx.Peers(), ctx.Index()
	n := len(peers) + 1
	pos := Quorum(n, idx)
	p.quorum = make([]proc.NodeID, len(pos))
	for k, i := range pos {
		if i == idx {
			p.quorum[k] = ctx.Self()
		} else {
			p.quorum[k] = peers[(i-idx-1+n)%n]
		}
	}
	p.votes = make([]vote, len(p.quorum))
	p.clock, p.mine, p.local = 0, mutex.Stamp{}, nil
	p.locked, p.inquired, p.queue = false, false, nil
	ctx.Set(keyQuorum, p.quorum)
	ctx.Set(keyVote, []proc.NodeID{})
	p.CS.Start(ctx)
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.CS.Command(ctx, p, name, args)
}

func (p *node) Timer(ctx proc.Context, tag string) { p.CS.Timer(ctx, p, tag) }

// send delivers to itself without the network: a process is a member of
// its own quorum but the texts count no message for it.
func (p *node) send(ctx proc.Context, to proc.NodeID, m proc.Message) {
	if to == ctx.Self() {
		p.local = append(p.local, m)
		return
	}
	ctx.Send(to, m)
}

// flush handles the messages sent to itself, in order, as if each arrived
// right after the step that sent it.
func (p *node) flush(ctx proc.Context) {
	for len(p.local) > 0 {
		m := p.local[0]
		p.local = p.local[1:]
		p.handle(ctx, ctx.Self(), m)
	}
}

func (p *node) multicast(ctx proc.Context, m proc.Message) {
	for _, id := range p.quorum {
		p.send(ctx, id, m)
	}
	p.flush(ctx)
}

// Want sends the stamped REQUEST to the quorum.
func (p *node) Want(ctx proc.Context) {
	p.mine = mutex.Stamp{TS: p.clock.Tick(), ID: ctx.Self()}
	clear(p.votes)
	ctx.Set(mutex.KeyStamp, p.mine.TS)
	p.multicast(ctx, Request{TS: p.mine.TS})
}

// Exit gives every vote back.
func (p *node) Exit(ctx proc.Context) {
	clear(p.votes)
	p.multicast(ctx, Release{TS: p.mine.TS})
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	if from == ctx.Self() {
		// What a process sends itself never travels the network (see
		// send): a message from itself that does is hand-made, and its
		// LOCKED would be a vote nobody gave.
		ctx.Log("%s from itself ignored: a process's messages to itself are local", m.Kind())
		return
	}
	p.handle(ctx, from, m)
	p.flush(ctx)
}

func (p *node) handle(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Request:
		p.clock.Witness(msg.TS)
		p.arrive(ctx, mutex.Stamp{TS: msg.TS, ID: from})
	case Release:
		if p.takeBack(ctx, from, msg.TS, msg) {
			p.grantNext(ctx)
		}
	case Relinquish:
		if p.takeBack(ctx, from, msg.TS, msg) {
			p.enqueue(waiting{s: p.holder, failed: true})
			p.grantNext(ctx)
		}
	case Locked:
		if v := p.about(ctx, from, msg.TS, msg); v != nil {
			v.granted, v.failed, v.yielded = true, false, false
			p.tryEnter(ctx)
		}
	case Failed:
		// A FAILED always precedes the arbiter's first LOCKED for the
		// request; one arriving after it (unordered links) is stale.
		if v := p.about(ctx, from, msg.TS, msg); v != nil && !v.granted && !v.yielded {
			v.failed = true
			p.relinquish(ctx)
		}
	case Inquire:
		if v := p.about(ctx, from, msg.TS, msg); v != nil {
			v.inquired = true
			p.relinquish(ctx)
		}
	}
}

// takeBack frees the arbiter's vote if from's request ts holds it: only
// that request can release or relinquish it.
func (p *node) takeBack(ctx proc.Context, from proc.NodeID, ts int, m proc.Message) bool {
	if p.locked && p.holder == (mutex.Stamp{TS: ts, ID: from}) {
		p.locked = false
		return true
	}
	ctx.Log("%s from %d for request ts=%d ignored: it does not hold this vote", m.Kind(), from, ts)
	return false
}

// about returns the vote of arbiter from for the pending request, or nil
// (logged) when m concerns another request or the process is not waiting.
func (p *node) about(ctx proc.Context, from proc.NodeID, ts int, m proc.Message) *vote {
	k := slices.Index(p.quorum, from)
	if !p.Wanted() || ts != p.mine.TS || k < 0 {
		ctx.Log("%s from %d for request ts=%d ignored: no such request waiting here (cs=%s)", m.Kind(), from, ts, p.State())
		return nil
	}
	return &p.votes[k]
}

func (p *node) tryEnter(ctx proc.Context) {
	for _, v := range p.votes {
		if !v.granted {
			p.relinquish(ctx)
			return
		}
	}
	p.Enter(ctx)
}

// relinquish answers the INQUIREs of the arbiters whose votes are held,
// once the process knows it cannot enter now.
func (p *node) relinquish(ctx proc.Context) {
	blocked := false
	for _, v := range p.votes {
		blocked = blocked || v.failed || v.yielded
	}
	if !blocked {
		return
	}
	for k := range p.votes {
		if v := &p.votes[k]; v.inquired && v.granted {
			v.inquired, v.granted, v.yielded = false, false, true
			p.send(ctx, p.quorum[k], Relinquish{TS: p.mine.TS})
		}
	}
}

// arrive is the arbiter's REQUEST rule.
func (p *node) arrive(ctx proc.Context, s mutex.Stamp) {
	if p.locked && p.holder == s || slices.ContainsFunc(p.queue, func(w waiting) bool { return w.s == s }) {
		// A requester stamps each request anew: the same stamp again is
		// a copy (a duplicated message). Queued, it would take the vote
		// again once the request is over, for a request nobody waits for.
		ctx.Log("REQUEST(%d, %d) is here already: the copy is ignored", s.TS, s.ID)
		return
	}
	if !p.locked {
		p.lock(ctx, s)
		return
	}
	p.enqueue(waiting{s: s})
	p.review(ctx)
}

func (p *node) enqueue(w waiting) {
	i, _ := slices.BinarySearchFunc(p.queue, w.s, func(a waiting, s mutex.Stamp) int { return a.s.Compare(s) })
	p.queue = slices.Insert(p.queue, i, w)
}

func (p *node) lock(ctx proc.Context, s mutex.Stamp) {
	p.locked, p.holder, p.inquired = true, s, false
	ctx.Set(keyVote, []proc.NodeID{s.ID})
	p.send(ctx, s.ID, Locked{TS: s.TS})
}

// grantNext votes for the head of the queue once the vote is free.
func (p *node) grantNext(ctx proc.Context) {
	if len(p.queue) == 0 {
		ctx.Set(keyVote, []proc.NodeID{})
		return
	}
	next := p.queue[0]
	p.queue = p.queue[1:]
	p.lock(ctx, next.s)
	p.review(ctx)
}

// review is the deadlock-avoidance side of an arbiter (inquire variant):
// every waiting request but a head that outranks the vote's holder is told
// FAILED once, and such a head makes the arbiter INQUIRE once.
func (p *node) review(ctx proc.Context) {
	if !p.inquire {
		return
	}
	for i := range p.queue {
		w := &p.queue[i]
		if w.failed || (i == 0 && w.s.Less(p.holder)) {
			continue
		}
		w.failed = true
		p.send(ctx, w.s.ID, Failed{TS: w.s.TS})
	}
	if len(p.queue) > 0 && p.queue[0].s.Less(p.holder) && !p.inquired {
		p.inquired = true
		p.send(ctx, p.holder.ID, Inquire{TS: p.holder.TS})
	}
}
