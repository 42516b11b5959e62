// Package suzukikasami is the Suzuki-Kasami broadcast token algorithm
// (I. Suzuki and T. Kasami, "A distributed mutual exclusion algorithm", ACM
// TOCS 3(4), 1985), which the lecture notes "Synchronization, Coordination
// and Agreement" name among the token-based algorithms.
//
// # Failures
//
// The notes say of the similar Ricart-Agrawala second algorithm that "the
// failure of a process, except the one which holds the token, doesn't
// prevent progress"; here too that holds only for a crash the failure
// detector reports in time: a head of Q the detector suspects is dropped
// from Q, but a process that crashed after requesting and is not yet
// suspected (the detector reports a crash only after its delay) can be sent
// the token, which is dropped with it. A crash of the holder loses the
// token the same way. Nothing regenerates a lost token, unlike
// mutex.tokenring, so every later request waits for ever. A dropped
// requester's request stays outstanding (RN[j] = LN[j] + 1) and is queued
// again at a later release if it comes back. Recovery is not tolerated: a
// recovered process restarts its own request numbers from 0 and has
// forgotten RN. No FIFO links are needed: RN keeps the maximum, and
// sequence numbers tell old requests from current ones.
package suzukikasami

import (
	"maps"
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/mutex"
	"dsim/core/proc"
)

// Request is REQUEST(j, n): process j's n-th request.
type Request struct {
	ID proc.NodeID `json:"id"`
	SN int         `json:"sn"`
}

func (Request) Kind() string { return "REQUEST" }

// Token carries LN[j], the number of j's request served last, and the
// queue Q of processes waiting for the token.
type Token struct {
	LN map[proc.NodeID]int `json:"ln"`
	Q  []proc.NodeID       `json:"q"`
}

func (Token) Kind() string { return "TOKEN" }

// KeySN is the state key with this process's own RN[i].
const KeySN = "sn"

func init() {
	algo.Register(algo.Spec{
		Name:    "mutex.suzukikasami",
		Summary: "Suzuki-Kasami: REQUEST(j, n) broadcast, RN[] at every process, the TOKEN carries LN[] and a queue of waiting processes",
		Description: `Text: Suzuki and Kasami 1985, named in the list of token-based algorithms of the lecture notes "Synchronization, Coordination and Agreement" ("Uses sequence numbers rather than timestamps to differentiate between old and current requests"); the standard rules.
Rules: every process i keeps RN[j], the highest request number heard from each j; the token carries LN[j], the number of j's request served last, and a FIFO queue Q. Requesting: without the token, i increments RN[i] and sends REQUEST(i, RN[i]) to every other process; with the idle token it enters at once. Receiving REQUEST(j, n): RN[j] := max(RN[j], n); a process holding the idle token sends the TOKEN to j if RN[j] = LN[j] + 1. Releasing: LN[i] := RN[i]; every j not in Q with RN[j] = LN[j] + 1 is appended to Q; if Q is not empty the token goes to its head (removed from Q), else the process keeps it. Per entry: n-1 REQUEST and one TOKEN, 0 when the requester holds the token.
Where the paper leaves a choice: the first holder is config holder (default the first process in ring order); at a release processes join Q in ring order from the successor; a head of Q the failure detector suspects is dropped from Q (its request stays outstanding); a TOKEN reaching a process that does not want it (only a recovered or hand-made one can) is passed on at once as at a release, without touching LN; a second TOKEN reaching a process that holds one (only a duplicated or hand-made one can) is dropped; a REQUEST naming the receiver is ignored, the token is never sent for a REQUEST naming no process, and entries of Q that name no other process or repeat one are dropped (only hand-made messages have them).
Failures: no FIFO links needed. "The failure of a process, except the one which holds the token, doesn't prevent progress" (the notes, of the similar Ricart-Agrawala second algorithm) holds only when the detector suspects the crashed process before anyone sends it the token; otherwise, as when the holder crashes, the token is lost and (unlike the token ring) not regenerated. Recovery, lost and duplicated messages are not tolerated.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			Crashes: algo.NoCrashes,
		},
		Config:     []algo.Param{mutex.HolderParam},
		Commands:   mutex.Commands,
		State:      append(append([]algo.StateKey{}, mutex.StateKeys...), mutex.TokenKey, algo.StateKey{Key: KeySN, Doc: "RN[i]: the number of this process's latest request (set when it requests)"}),
		Messages:   []proc.Message{Request{}, Token{}},
		Properties: mutex.Properties,
		New: func(v algo.Values) (proc.Factory, error) {
			holder := v.ID("holder")
			return func(proc.NodeID) proc.Node { return &node{holder: holder} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(256), Load: algo.Bytes(1024), BootEvents: 2},
	})
}

type node struct {
	mutex.CS
	holder proc.NodeID
	rn     map[proc.NodeID]int
	token  *Token // nil unless this process holds the token
}

func (p *node) Start(ctx proc.Context) {
	p.CS.Start(ctx)
	p.rn = map[proc.NodeID]int{}
	if mutex.StartsWithToken(ctx, p.holder) {
		p.token = &Token{LN: map[proc.NodeID]int{ctx.Self(): 0}}
		for _, k := range ctx.Peers() {
			p.token.LN[k] = 0
		}
	}
	ctx.Set(mutex.KeyToken, p.token != nil)
}

func (p *node) Want(ctx proc.Context) {
	if p.token != nil {
		ctx.Log("holding the idle token: entering without messages")
		p.CS.Enter(ctx)
		return
	}
	self := ctx.Self()
	p.rn[self]++
	sn := p.rn[self]
	ctx.Set(KeySN, sn)
	for _, j := range ctx.Peers() {
		ctx.Send(j, Request{ID: self, SN: sn})
	}
}

func (p *node) Exit(ctx proc.Context) {
	self := ctx.Self()
	p.token.LN[self] = p.rn[self]
	p.pass(ctx)
}

// pass queues every outstanding request not yet in Q, in ring order from
// the successor, and sends the token to the head of Q, if any.
func (p *node) pass(ctx proc.Context) {
	t := p.token
	for _, j := range ctx.Peers() {
		if p.rn[j] == t.LN[j]+1 && !slices.Contains(t.Q, j) {
			t.Q = append(t.Q, j)
		}
	}
	for len(t.Q) > 0 {
		head := t.Q[0]
		t.Q = t.Q[1:]
		if ctx.Suspected(head) {
			ctx.Log("head of Q %d is suspected: dropped from Q", head)
			continue
		}
		p.send(ctx, head)
		return
	}
}

func (p *node) send(ctx proc.Context, to proc.NodeID) {
	t := p.token
	p.token = nil
	ctx.Set(mutex.KeyToken, false)
	ctx.Send(to, *t)
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Request:
		if msg.ID == ctx.Self() {
			// REQUEST(j, n) is another process's request: one naming
			// this process is hand-made, and would change its own RN[i].
			ctx.Log("REQUEST(%d, %d) ignored: it names this process", msg.ID, msg.SN)
			return
		}
		p.rn[msg.ID] = max(p.rn[msg.ID], msg.SN)
		if p.token != nil && !p.Held() && p.rn[msg.ID] == p.token.LN[msg.ID]+1 {
			if !slices.Contains(ctx.Peers(), msg.ID) {
				// Only a hand-made REQUEST names no process: the token
				// sent to it would be lost.
				ctx.Log("REQUEST(%d, %d) names no process: the token stays", msg.ID, msg.SN)
				return
			}
			p.send(ctx, msg.ID)
		}
	case Token:
		if p.token != nil {
			// There is one token, and this process has it: a second one
			// can only be a duplicate or hand-made. Taking it would pass
			// a token on during the critical section and leave none for
			// the release.
			ctx.Log("TOKEN while holding the token: a second token, dropped")
			return
		}
		// The received value is the sender's recorded message: work on a
		// copy, with an empty LN for a token without one (every LN[j] is
		// then 0, as at the start) and Q keeping only other processes,
		// each once: only a hand-made token names any other, and the
		// token sent to one would be lost.
		p.token = &Token{LN: maps.Clone(msg.LN)}
		if p.token.LN == nil {
			p.token.LN = map[proc.NodeID]int{}
		}
		for _, j := range msg.Q {
			if slices.Contains(ctx.Peers(), j) && !slices.Contains(p.token.Q, j) {
				p.token.Q = append(p.token.Q, j)
			}
		}
		ctx.Set(mutex.KeyToken, true)
		if p.Wanted() {
			p.CS.Enter(ctx)
			return
		}
		ctx.Log("TOKEN while not requesting: passing it on")
		p.pass(ctx)
	}
}

func (p *node) Timer(ctx proc.Context, tag string) { p.CS.Timer(ctx, p, tag) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.CS.Command(ctx, p, name, args)
}
