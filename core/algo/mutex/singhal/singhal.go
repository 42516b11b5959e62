// Package singhal is Singhal's dynamic information-structure mutual
// exclusion algorithm: each process asks only the processes in its request
// set, and the request and inform sets change as the processes use the
// critical section (M. Singhal, "A dynamic information-structure mutual
// exclusion algorithm for distributed systems", ICDCS 1989; IEEE TPDS
// 3(1), 1992).
//
// # Why it is safe
//
// Initially, with S_1..S_n the processes in ring order, R_i = {S_1, ...,
// S_(i-1)}: a staircase in which, of any two processes, at least one is in
// the other's request set, so of two concurrent requesters one asks the
// other. The rules keep that property as the sets change; the last process
// to use the critical section moves to the top of the staircase (an empty
// request set). From the initial staircase the first process's first
// request costs 0 messages and the last one's 2(n-1).
//
// FIFO links are not needed: the Lamport timestamps order every conflict
// the same way at both ends, whatever the delivery order. Singhal's
// heuristically-aided token algorithm, with its state vectors SV and SN and
// states R, E, H, N, is a different algorithm: package singhaltoken,
// mutex.singhaltoken.
package singhal

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/mutex"
	"dsim/core/proc"
)

// Request is REQUEST(ts, i), stamped with the sender's Lamport clock.
type Request struct {
	TS int `json:"ts"`
}

func (Request) Kind() string { return "REQUEST" }

// Reply is the permission: the sender leaves the receiver's request set
// and, from then on, asks the receiver before entering itself.
type Reply struct{}

func (Reply) Kind() string { return "REPLY" }

// State keys.
const (
	keyRequestSet = "request_set"
	keyInformSet  = "inform_set"
)

func init() {
	algo.Register(algo.Spec{
		Name:    "mutex.singhal",
		Summary: "Singhal's dynamic information-structure algorithm, permission-based (REQUEST and REPLY, no token; his token algorithm is mutex.singhaltoken): REQUEST only to the request set R_i, which starts as a staircase (process i asks the i-1 processes before it) and changes with every REPLY; deferred requests wait in the inform set I_i; 0 to 2(n-1) messages per entry",
		Description: `Text: the lecture notes "Synchronization, Coordination and Agreement" list "Singhal Algorithm" among the token-based algorithms, without its rules; that one is his heuristically-aided token algorithm, mutex.singhaltoken. This is his other, permission-based algorithm, the dynamic information structure (ICDCS 1989; IEEE TPDS 3(1), 1992): a process enters on REPLY messages, with no token, as in Ricart-Agrawala; the rules as Kshemkalyani and Singhal give them ("Distributed Computing", section 9.5). Requesting / executing / neither are the cs key's wanted / held / released.
Rules: each process i keeps a request set R_i (the processes it must ask before entering) and an inform set I_i (those it must answer when it leaves); initially R_i = {S_1, ..., S_(i-1)}, S_1..S_n the processes in ring order, and I_i is empty. To request, i stamps (ts, i) with its Lamport clock and sends REQUEST to every process in R_i; it enters when R_i is empty (at once if it already is). A REPLY from j removes j from R_i. A process j receiving REQUEST(ts, i) advances its clock past ts and: when neither requesting nor executing, adds i to R_j and sends REPLY; when executing, or requesting with the earlier (ts, id), adds i to I_j; when requesting with the later one, sends REPLY and, if i is not in R_j, adds i to R_j and sends i a REQUEST with its own stamp. On leaving, i sends REPLY to every process in I_i, moves them into R_i and empties I_i. Per entry: 0 messages when R_i is empty, 2|R_i| otherwise.
Where the text is silent: ties of timestamps go to the smaller id; only REQUEST carries a timestamp (a REPLY answers the single outstanding REQUEST to its sender). request_set and inform_set show the sets in ring order.
Failures: needs a complete graph and reliable links, any delivery order (no FIFO needed). Crashes are not tolerated: a crashed process never replies, and a recovered process starts from the initial staircase, which no longer matches the others' sets.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			Crashes: algo.NoCrashes,
		},
		Commands: mutex.Commands,
		State: append(slices.Clone(mutex.StateKeys), mutex.StampKey,
			algo.StateKey{Key: keyRequestSet, Doc: "R_i: the processes this one must ask before entering, in ring order (set when it changes)"},
			algo.StateKey{Key: keyInformSet, Doc: "I_i: the processes this one answers when it leaves, in ring order (set when it changes)"}),
		Messages:   []proc.Message{Request{}, Reply{}},
		Properties: mutex.Properties,
		New: func(algo.Values) (proc.Factory, error) {
			shared := &ringCache{}
			return func(proc.NodeID) proc.Node { return &node{ring: shared} }, nil
		},
		// R_i and I_i, a byte per peer, and R_i published: the initial staircase
		// holds n(n-1)/2 requests in the world, inherent in the algorithm.
		Memory: algo.Memory{Boot: algo.PerPeer(256, 8), Load: algo.Bytes(512), BootEvents: 3},
	})
}

type node struct {
	mutex.CS
	ring   *ringCache
	clock  mutex.Clock
	mine   mutex.Stamp
	order  []proc.NodeID       // every process in ring order, S_1..S_n (shared)
	pos    map[proc.NodeID]int // index in order (shared)
	asks   []bool              // R_i, by index in order (never this process)
	tells  []bool              // I_i, by index in order (never this process)
	asking int                 // |R_i|
}

// ringCache holds S_1..S_n and each one's index for every process of a
// world. Every process knows the same list, the system's static
// configuration, as it knows its peers; one copy serves them all, where a
// copy and an index per process cost n² in the world (an id and a map
// entry per process and peer, about 40 bytes each) for what the rules
// need: R_i and I_i, a byte per peer.
type ringCache struct {
	ids []proc.NodeID
	pos map[proc.NodeID]int
}

// of returns the list of ctx's world, building it at the first Start (or
// anew for a factory reused in another world).
func (c *ringCache) of(ctx proc.Context) ([]proc.NodeID, map[proc.NodeID]int) {
	peers, idx, self := ctx.Peers(), ctx.Index(), ctx.Self()
	n := len(peers) + 1
	if len(c.ids) != n || c.ids[idx] != self || (n > 1 && c.ids[(idx+1)%n] != peers[0]) {
		ids := make([]proc.NodeID, n)
		pos := make(map[proc.NodeID]int, n)
		ids[idx] = self
		for k, id := range peers {
			ids[(idx+1+k)%n] = id
		}
		for k, id := range ids {
			pos[id] = k
		}
		c.ids, c.pos = ids, pos
	}
	return c.ids, c.pos
}

func (p *node) Start(ctx proc.Context) {
	// Indexes are ring positions, S_1 first: this process's own slot stays
	// empty, and the processes before it are the first Index.
	idx := ctx.Index()
	p.order, p.pos = p.ring.of(ctx)
	n := len(p.order)
	p.asks, p.tells = make([]bool, n), make([]bool, n)
	for k := range idx {
		p.asks[k] = true
	}
	p.asking, p.clock, p.mine = idx, 0, mutex.Stamp{}
	p.publish(ctx, keyRequestSet, p.asks)
	p.publish(ctx, keyInformSet, p.tells)
	p.CS.Start(ctx)
}

func (p *node) publish(ctx proc.Context, key string, set []bool) {
	ids := []proc.NodeID{}
	for k, in := range set {
		if in {
			ids = append(ids, p.order[k])
		}
	}
	ctx.Set(key, ids)
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.CS.Command(ctx, p, name, args)
}

func (p *node) Timer(ctx proc.Context, tag string) { p.CS.Timer(ctx, p, tag) }

// Want asks every process of the request set, or enters at once when it is
// empty.
func (p *node) Want(ctx proc.Context) {
	p.mine = mutex.Stamp{TS: p.clock.Tick(), ID: ctx.Self()}
	ctx.Set(mutex.KeyStamp, p.mine.TS)
	for k, in := range p.asks {
		if in {
			ctx.Send(p.order[k], Request{TS: p.mine.TS})
		}
	}
	p.tryEnter(ctx)
}

// Exit answers the inform set and moves it into the request set.
func (p *node) Exit(ctx proc.Context) {
	moved := false
	for k, in := range p.tells {
		if in {
			ctx.Send(p.order[k], Reply{})
			p.tells[k] = false
			p.ask(k)
			moved = true
		}
	}
	if moved {
		p.publish(ctx, keyInformSet, p.tells)
		p.publish(ctx, keyRequestSet, p.asks)
	}
}

// ask adds the process at index k to the request set.
func (p *node) ask(k int) {
	if !p.asks[k] {
		p.asks[k] = true
		p.asking++
	}
}

func (p *node) tryEnter(ctx proc.Context) {
	if p.Wanted() && p.asking == 0 {
		p.Enter(ctx)
	}
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	k, ok := p.pos[from]
	if !ok || from == ctx.Self() {
		ctx.Log("%s from %d ignored: not a process of this system", m.Kind(), from)
		return
	}
	switch msg := m.(type) {
	case Request:
		p.clock.Witness(msg.TS)
		switch {
		case p.Held() || p.Wanted() && p.mine.Less(mutex.Stamp{TS: msg.TS, ID: from}):
			p.tells[k] = true
			p.publish(ctx, keyInformSet, p.tells)
		case p.Wanted():
			ctx.Send(from, Reply{})
			if !p.asks[k] {
				p.ask(k)
				ctx.Send(from, Request{TS: p.mine.TS})
				p.publish(ctx, keyRequestSet, p.asks)
			}
		default:
			p.ask(k)
			ctx.Send(from, Reply{})
			p.publish(ctx, keyRequestSet, p.asks)
		}
	case Reply:
		if !p.asks[k] {
			ctx.Log("REPLY from %d ignored: not in the request set", from)
			return
		}
		p.asks[k] = false
		p.asking--
		p.publish(ctx, keyRequestSet, p.asks)
		p.tryEnter(ctx)
	}
}
