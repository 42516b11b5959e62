// Package ricartagrawala2 is the Ricart-Agrawala second algorithm, the
// token-based one, exactly as the lecture notes "Synchronization,
// Coordination and Agreement" state it in rules RI1, RI2, RA1, RH1, RH2, RR1
// and RR2 ("Ricart-Agrawala Second Algorithm").
//
// # Failures
//
// The notes say that "the failure of a process, except the one which holds
// the token, doesn't prevent progress". That holds only for a crash the
// failure detector reports in time: the RR2 search passes over a suspected
// process, but a process that crashed after requesting and is not yet
// suspected (the detector reports a crash only after its delay) can be
// chosen, and the TOKEN sent to it is dropped with it. A crash of the holder
// loses the token the same way. Nothing regenerates a lost token, unlike
// mutex.tokenring, so every later request waits for ever. A suspected
// requester's request stays pending (request[k] > token[k]) and is served if
// it comes back. Recovery is not tolerated: a recovered process has
// forgotten the requests it received, so it may keep a token it got for an
// old request while others wait. No FIFO links are needed, because
// request[] keeps the maximum and there is a single TOKEN.
package ricartagrawala2

import (
	"maps"

	"dsim/core/algo"
	"dsim/core/algo/mutex"
	"dsim/core/proc"
)

// Request is RA1's request message (TPi, i): the requester's logical clock
// and its identifier.
type Request struct {
	TS int         `json:"ts"`
	ID proc.NodeID `json:"id"`
}

func (Request) Kind() string { return "REQUEST" }

// Token carries token[k], the logical clock of Pk's last holding of it.
type Token struct {
	Token map[proc.NodeID]int `json:"token"`
}

func (Token) Kind() string { return "TOKEN" }

// The values of the token_state key: the notes' states with respect to the
// token.
const (
	NoToken      = "NO-TOKEN"
	TokenPresent = "TOKEN-PRESENT" // held, not in use
	TokenHeld    = "TOKEN-HELD"    // held and in use: in the critical section
)

// KeyState is the state key showing NO-TOKEN, TOKEN-PRESENT or TOKEN-HELD.
const KeyState = "token_state"

// Config is the algorithm's configuration.
type Config struct {
	Holder proc.NodeID // RI1's Px; -1: the first process
}

func init() {
	algo.Register(algo.Spec{
		Name:    "mutex.ricartagrawala2",
		Summary: "Ricart-Agrawala second algorithm: REQUEST (clock, id) to all, the TOKEN carries token[k] and goes to the pending requester with the next id after i (i+1, ..., n, 1, ..., i-1)",
		Description: `Text: the lecture notes "Synchronization, Coordination and Agreement", "Ricart-Agrawala Second Algorithm", rules RI1, RI2, RA1, RH1, RH2, RR1 and RR2 as written there.
Rules: RI1: every process starts NO-TOKEN except the holder (config holder, default the first in ring order), which starts TOKEN-PRESENT. RI2: token[k] = 0 and request[k] = 0 for every k. RA1: a NO-TOKEN process that wants the critical section sends REQUEST(TPi, i), TPi its Lamport clock after a tick, to every other process and waits for the TOKEN; on getting it (at once when TOKEN-PRESENT) it becomes TOKEN-HELD and enters. RH1: on a REQUEST(TPj, j), request[j] := max(request[j], TPj), and the clock advances past TPj. RH2: a TOKEN-PRESENT process that gets a REQUEST releases at once (RR2). RR1: on leaving it becomes TOKEN-PRESENT. RR2: it searches k = i+1, ..., n, 1, ..., i-1 (the ids in numeric order from the next one above i, then from the lowest: the ring order of the processes plays no part) for the first request[k] > token[k], sets token[i] to its clock, becomes NO-TOKEN and sends the TOKEN to Pk; with none pending it keeps the token. Per entry: n-1 REQUEST and one TOKEN, 0 when the requester holds the token.
Where the text is silent: with ids that are not 1..n, the search takes the ids above i in increasing order, then those below i in increasing order; token_state shows NO-TOKEN, TOKEN-PRESENT or TOKEN-HELD; a TOKEN reaching a process that does not want it (only a recovered or hand-made one can) makes it TOKEN-PRESENT and it runs RR2 at once; a second TOKEN reaching a process that holds one (TOKEN-PRESENT or TOKEN-HELD: only a duplicated or hand-made one can) is dropped; the RR2 search passes over a process the failure detector suspects.
Failures: no FIFO links needed. The notes' "the failure of a process, except the one which holds the token, doesn't prevent progress" holds only when the detector suspects the crashed process before anyone sends it the token; otherwise, as when the holder crashes, the token is lost and (unlike the token ring) not regenerated. Recovery, lost and duplicated messages are not tolerated.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			Crashes: algo.NoCrashes,
		},
		Config:     []algo.Param{mutex.HolderParam},
		Commands:   mutex.Commands,
		State:      append(append([]algo.StateKey{}, mutex.StateKeys...), mutex.StampKey, mutex.TokenKey, algo.StateKey{Key: KeyState, Doc: `"NO-TOKEN", "TOKEN-PRESENT" (holding the token unused) or "TOKEN-HELD" (holding it in the critical section)`}),
		Messages:   []proc.Message{Request{}, Token{}},
		Properties: mutex.Properties,
		New: func(v algo.Values) (proc.Factory, error) {
			c := Config{Holder: v.ID("holder")}
			return func(proc.NodeID) proc.Node { return &node{cfg: &c} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(288), Load: algo.Bytes(1024), BootEvents: 3},
	})
}

type node struct {
	mutex.CS
	cfg     *Config
	clock   mutex.Clock
	state   string
	request map[proc.NodeID]int
	token   map[proc.NodeID]int // nil unless this process holds the token
}

func (p *node) Start(ctx proc.Context) {
	p.CS.Start(ctx)
	p.request = map[proc.NodeID]int{} // RI2: request[k] = 0
	if !mutex.StartsWithToken(ctx, p.cfg.Holder) {
		p.setState(ctx, NoToken) // RI1
		return
	}
	// RI1 and RI2: this is Px, TOKEN-PRESENT, with token[k] = 0 for all k.
	p.token = map[proc.NodeID]int{ctx.Self(): 0}
	for _, k := range ctx.Peers() {
		p.token[k] = 0
	}
	p.setState(ctx, TokenPresent)
}

func (p *node) setState(ctx proc.Context, s string) {
	if p.state == "" || (s == NoToken) != (p.state == NoToken) {
		ctx.Set(mutex.KeyToken, s != NoToken)
	}
	p.state = s
	ctx.Set(KeyState, s)
}

// Want is RA1.
func (p *node) Want(ctx proc.Context) {
	if p.state == NoToken {
		ts := p.clock.Tick()
		ctx.Set(mutex.KeyStamp, ts)
		ctx.Log("RA1: NO-TOKEN, REQUEST(%d, %d) to all", ts, ctx.Self())
		for _, k := range ctx.Peers() {
			ctx.Send(k, Request{TS: ts, ID: ctx.Self()})
		}
		return
	}
	ctx.Log("RA1: token present, entering without messages")
	p.use(ctx)
}

// use is the end of RA1: TOKEN-HELD, enter the critical section.
func (p *node) use(ctx proc.Context) {
	p.setState(ctx, TokenHeld)
	p.CS.Enter(ctx)
}

// Exit is RR1 then RR2.
func (p *node) Exit(ctx proc.Context) {
	p.setState(ctx, TokenPresent)
	p.release(ctx)
}

// release is RR2: "for k = [i+1, i+2, ..., n, 1, 2, ..., i-1]", the ids in
// numeric order from the one after i, whatever order the processes are
// listed in, the token goes to the first Pk with request[k] > token[k]; with
// none pending it stays.
func (p *node) release(ctx proc.Context) {
	self := ctx.Self()
	k, found := proc.NodeID(0), false
	for _, j := range ctx.Peers() {
		if p.request[j] <= p.token[j] || ctx.Suspected(j) {
			continue
		}
		if !found || before(self, j, k) {
			k, found = j, true
		}
	}
	for _, j := range ctx.Peers() {
		if p.request[j] > p.token[j] && ctx.Suspected(j) && (!found || before(self, j, k)) {
			ctx.Log("RR2: %d has a pending request but is suspected: passed over", j)
		}
	}
	if !found {
		return
	}
	p.token[self] = int(p.clock)
	tok := p.token
	p.token = nil
	p.setState(ctx, NoToken)
	ctx.Log("RR2: request[%d]=%d > token[%d]=%d: TOKEN to %d", k, p.request[k], k, tok[k], k)
	ctx.Send(k, Token{Token: tok})
}

// before reports whether RR2, searching from i, reaches a before b: the ids
// above i come first, in increasing order, then those below i, in
// increasing order (i+1, ..., n, 1, ..., i-1 for the ids 1..n).
func before(i, a, b proc.NodeID) bool {
	if (a > i) != (b > i) {
		return a > i
	}
	return a < b
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Request:
		p.clock.Witness(msg.TS)
		p.request[msg.ID] = max(p.request[msg.ID], msg.TS) // RH1
		if p.state == TokenPresent {
			ctx.Log("RH2: TOKEN-PRESENT, releasing for REQUEST(%d, %d)", msg.TS, msg.ID)
			p.release(ctx)
		}
	case Token:
		if p.state != NoToken {
			// There is one TOKEN, and this process has it: a second one
			// can only be a duplicate or hand-made. Taking it would
			// replace the token in use (TOKEN-HELD) or pass one on while
			// keeping the other.
			ctx.Log("TOKEN while %s: a second token, dropped", p.state)
			return
		}
		// The received map is the sender's recorded message: work on a
		// copy (an empty one for a token without the map: every
		// token[k] is then 0, as in RI2).
		p.token = maps.Clone(msg.Token)
		if p.token == nil {
			p.token = map[proc.NodeID]int{}
		}
		if p.Wanted() {
			p.use(ctx)
			return
		}
		ctx.Log("TOKEN while not requesting: TOKEN-PRESENT, passing it on if anyone waits")
		p.setState(ctx, TokenPresent)
		p.release(ctx)
	}
}

func (p *node) Timer(ctx proc.Context, tag string) { p.CS.Timer(ctx, p, tag) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.CS.Command(ctx, p, name, args)
}
