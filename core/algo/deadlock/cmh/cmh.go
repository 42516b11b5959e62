// Package cmh is Chandy, Misra and Haas's edge chasing: a blocked
// transaction sends probes along the wait-for edges, and a probe that comes
// back to its initiator declares the deadlock.
package cmh

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

// Probe is the probe (i, j, k) of transaction Init, sent on behalf of the
// last transaction of Path (j; Path is Init first, then every transaction
// the probe passed, to name the cycle) to the site of To (k), which j
// waits for: its home first, which passes it to the site where To waits.
//
// Run is To's run as the sender knows it: To's home drops a probe for a
// run of To that was rolled back. Try and Item identify the initiator's blocking (its run, and the item it
// waits for), as the paper's sequence numbers identify a probe
// computation: the initiator's home declares only if it is still blocked
// there.
type Probe struct {
	Init int   `json:"init"`
	Try  int   `json:"try"`
	Item int   `json:"item"`
	Path []int `json:"path"`
	To   int   `json:"to"`
	Run  int   `json:"run"`
}

func (Probe) Kind() string { return "PROBE" }

// Site is a site of the transaction model that chases edges.
type Site struct {
	txn.Site
	bound int
	homes map[int]proc.NodeID // the home of each transaction whose requests came here
	tries map[int]int         // and the run of its last request here
}

func init() {
	deadlock.Scheme{
		Name:    "deadlock.cmh",
		Summary: "Chandy-Misra-Haas edge chasing: a transaction that becomes blocked sends probes (initiator, sender, receiver) along the wait-for edges; a probe back at its initiator declares the deadlock",
		Description: `Chandy, Misra and Haas, "Distributed Deadlock Detection" (1983), the resource model, section "A Deadlock Detection Algorithm" for distributed databases, on the transaction model, for comparison with the chapter's detectors (Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Deadlock Handling"). When a transaction Ti is blocked (its request queued at a lock site), that site sends a probe (i, i, j) for every transaction Tj Ti waits for there. A probe (i, j, k) is sent on: Tk's home site (which knows whether Tk is blocked, and at which site) passes it to the site where Tk waits, which sends a probe (i, k, m) for every Tm that Tk waits for there. "If a probe (i, j, i) is received", the initiator is on a cycle: "Pi is deadlocked". Probes travel only along wait-for edges that exist when they are passed, and under strict two-phase locking a blocked transaction stays blocked until its blocker ends.
Where the paper leaves a choice: the site where the probe comes back declares the deadlock (the deadlock key: the cycle the probe passed) and rolls the initiator back (the victim: through the model's ABORT); a probe is not sent to a transaction it has passed already (another cycle, found by that transaction's own probe), and an unblocked transaction drops the probes that reach it.
Not promised: deadlock.sound. The paper's argument needs every transaction of the chain to stay blocked, but here a transaction also ends by being rolled back (another detection's victim): a probe that passed it before it was rolled back can still come back and declare a cycle the global graph never had at once. Each probe carries the run of the transaction it is sent to (dropped by its home if that run was rolled back) and the initiator's blocking (the paper's sequence numbers: the initiator's home declares only if it is still blocked on the same item in the same run); the sweep still finds phantoms in about one world in ten at moderate contention, where cycles overlap.
Bound (deadlock.complete, the bound key): the probe of the transaction whose wait closes a cycle of at most config cycle transactions makes two crossings per edge (home, then the site where it waits), and the victim's ABORT and UNLOCKs two more: (2 * cycle + 2) times config latency.`,
		Params: []algo.Param{
			{Name: "cycle", Type: algo.Int, Default: 16, Min: 1, Max: 1e6, Doc: "the longest cycle, in transactions, the bound of deadlock.complete covers"},
			{Name: "latency", Type: algo.Int, Default: 10, Min: 1, Max: 1e6, Doc: "the latency bound of the links, in ticks, for the bound of deadlock.complete"},
		},
		State: []algo.StateKey{
			{Key: deadlock.KeyDeadlock, Doc: "at the site where a probe comes back to its initiator: the cycle, in cycle order from the smallest id"},
			{Key: deadlock.KeyBound, Doc: "the ticks within which a deadlock is broken: (2 * cycle + 2) times config latency"},
		},
		Messages:    []proc.Message{Probe{}},
		Properties:  []algo.Property{deadlock.Complete},
		Assumptions: algo.Assumptions{FIFO: true, Latency: algo.LatencyBound{Key: "latency", Trips: 1}},
		Node: func(v algo.Values, s txn.Site) proc.Node {
			p := &Site{Site: s, bound: (2*v.Int("cycle") + 2) * v.Int("latency")}
			p.OnWait = p.blocked
			return p
		},
		Memory: deadlock.DetectorMemory(16),
	}.Register()
}

// Start starts the model's site and states the bound.
func (p *Site) Start(ctx proc.Context) {
	p.homes, p.tries = nil, nil
	p.Site.Start(ctx)
	ctx.Set(deadlock.KeyBound, p.bound)
}

// Receive handles probes, notes the homes of the requests, and passes the
// model's messages on.
func (p *Site) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Probe:
		p.received(ctx, msg)
	case txn.Request:
		if p.homes == nil {
			p.homes, p.tries = map[int]proc.NodeID{}, map[int]int{}
		}
		p.homes[msg.T], p.tries[msg.T] = from, msg.Try
		p.Site.Receive(ctx, from, m)
	default:
		p.Site.Receive(ctx, from, m)
	}
}

// blocked runs when a request of l.T is queued here: T initiates.
func (p *Site) blocked(ctx proc.Context, item int, l txn.Lock) {
	p.chase(ctx, Probe{Init: l.T, Try: p.run(l.T), Item: item, To: l.T})
}

// run is t's run as this site knows it: from its record at its home, from
// its last request elsewhere (0: unknown).
func (p *Site) run(t int) int {
	if x := p.Find(t); x != nil {
		return x.Try
	}
	return p.tries[t]
}

// chase sends the probe on behalf of pr.To, which has received it, to
// every transaction it waits for here (to its home): back at the
// initiator, the probe goes to the initiator's home, to be judged.
func (p *Site) chase(ctx proc.Context, pr Probe) {
	path := append(slices.Clone(pr.Path), pr.To)
	for _, e := range deadlock.Edges(p.Table.State()) {
		if e.From != pr.To || slices.Contains(path[1:], e.To) {
			continue
		}
		to, ok := p.home(ctx, e.To)
		p.send(ctx, to, ok, Probe{Init: pr.Init, Try: pr.Try, Item: pr.Item, Path: path, To: e.To, Run: p.run(e.To)})
	}
}

// home is the home site of t: this one, or where its requests came from.
func (p *Site) home(ctx proc.Context, t int) (proc.NodeID, bool) {
	if p.Find(t) != nil {
		return ctx.Self(), true
	}
	h, ok := p.homes[t]
	return h, ok
}

func (p *Site) send(ctx proc.Context, to proc.NodeID, ok bool, pr Probe) {
	if !ok {
		return
	}
	if to == ctx.Self() {
		p.received(ctx, pr)
		return
	}
	ctx.Send(to, pr)
}

// received takes a probe for To: at To's home, or at the site where To
// waits (sent on by the home), where it is chased.
func (p *Site) received(ctx proc.Context, pr Probe) {
	if p.Find(pr.To) != nil {
		p.probe(ctx, pr)
	} else if p.Table != nil {
		p.chase(ctx, pr)
	}
}

// probe handles a probe for transaction To at its home: back at its
// initiator, still blocked as it was (the same run, the same item), it
// declares the deadlock; otherwise
// it goes on to the site where To waits, if it does, to be chased there.
func (p *Site) probe(ctx proc.Context, pr Probe) {
	x := p.Find(pr.To)
	if x == nil || x.Status != txn.Waiting || x.Next >= len(x.Ops) || pr.Run != 0 && pr.Run != x.Try {
		return // not blocked, or in another run
	}
	item := x.Ops[x.Next].Item
	if pr.To == pr.Init {
		if x.Try == pr.Try && item == pr.Item && len(pr.Path) > 1 {
			p.declare(ctx, pr)
		}
		return
	}
	if at := p.Place.Primary(item); at != ctx.Self() {
		ctx.Send(at, pr)
	} else if p.Table != nil {
		p.chase(ctx, pr)
	}
}

// declare sets the deadlock key to the cycle the probe passed and rolls
// its initiator, homed here, back.
func (p *Site) declare(ctx proc.Context, pr Probe) {
	i := slices.Index(pr.Path, slices.Min(pr.Path))
	ctx.Set(deadlock.KeyDeadlock, append(slices.Clone(pr.Path[i:]), pr.Path[:i]...))
	p.Abort(ctx, pr.Init)
}
