// Package raymond is Raymond's tree-based token algorithm (K. Raymond, "A
// tree-based algorithm for distributed mutual exclusion", ACM TOCS 7(1),
// 1989), which the lecture notes "Synchronization, Coordination and
// Agreement" name among the token-based algorithms.
package raymond

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/mutex"
	"dsim/core/proc"
)

// Request asks the neighbour in the direction of the privilege for it, on
// behalf of this process or of a neighbour further away.
type Request struct{}

func (Request) Kind() string { return "REQUEST" }

// Privilege is the token, handed to a neighbour.
type Privilege struct{}

func (Privilege) Kind() string { return "PRIVILEGE" }

// Initialize spreads from the first holder over the tree: each process's
// HOLDER becomes the neighbour it first hears it from.
type Initialize struct{}

func (Initialize) Kind() string { return "INITIALIZE" }

// State keys besides the shared ones.
const (
	KeyHolder = "holder" // HOLDER
	KeyQueue  = "queue"  // REQUEST_Q
	KeyAsked  = "asked"  // ASKED
)

func init() {
	algo.Register(algo.Spec{
		Name:    "mutex.raymond",
		Summary: "Raymond: HOLDER pointers toward the privilege over a tree, a REQUEST_Q per process, REQUEST toward the holder, PRIVILEGE back along the path",
		Description: `Raymond 1989, named in the list of token-based algorithms of the lecture notes "Synchronization, Coordination and Agreement"; the paper's variables and procedures.
Every process keeps HOLDER (itself when it has the privilege, else the neighbour in its direction), USING (in the critical section: cs = held), REQUEST_Q (itself and neighbours that asked through it, FIFO) and ASKED (a REQUEST has gone to HOLDER for the head of the queue). ASSIGN_PRIVILEGE: if HOLDER is self, not USING and the queue is not empty, HOLDER := dequeue, ASKED := false, and either the process enters (it dequeued itself) or it sends PRIVILEGE to the new HOLDER. MAKE_REQUEST: if HOLDER is not self, the queue is not empty and not ASKED, send REQUEST to HOLDER and set ASKED. Wanting the critical section enqueues self, receiving REQUEST from X enqueues X, receiving PRIVILEGE sets HOLDER := self, leaving the critical section clears USING; each is followed by ASSIGN_PRIVILEGE then MAKE_REQUEST. Initialization as in the paper: the first holder (config holder, by default the first process in ring order: the root of the "tree" topology) sends INITIALIZE to its neighbours, and each process takes the sender of the first INITIALIZE it gets as HOLDER and forwards it to its other neighbours (n-1 messages on a tree, before any request). A request whose process has no HOLDER yet waits in its queue until INITIALIZE comes. A message from the process itself (only a hand-made one can be) is ignored: a process queues its own requests.
Messages per entry: a request d tree edges away from the idle privilege costs d REQUEST and d PRIVILEGE, 0 for the holder; O(log n) on average on a balanced tree. On a graph that is not a tree the algorithm runs on the spanning tree INITIALIZE draws (later copies of INITIALIZE are ignored).
No FIFO links needed: REQUEST only enqueues and ASKED stops repeats. Failures are not tolerated beyond a process that nobody needs: a crash of the privilege holder or of a process on the path between a requester and the holder blocks those requests for ever, and the paper's recovery procedure is not implemented (a recovered process knows no HOLDER). Lost or duplicated messages are not tolerated.`,
		Topology: "tree",
		Assumptions: algo.Assumptions{
			Crashes: algo.NoCrashes,
		},
		Config:   []algo.Param{mutex.HolderParam},
		Commands: mutex.Commands,
		State: append(append([]algo.StateKey{}, mutex.StateKeys...), mutex.TokenKey,
			algo.StateKey{Key: KeyHolder, Doc: "HOLDER: this process when it has the privilege, else the neighbour in its direction (unset before INITIALIZE)"},
			algo.StateKey{Key: KeyQueue, Doc: "REQUEST_Q: the processes (this one or neighbours) waiting for the privilege through this process, head first"},
			algo.StateKey{Key: KeyAsked, Doc: "ASKED: a REQUEST has been sent to HOLDER for the head of the queue"}),
		Messages:   []proc.Message{Request{}, Privilege{}, Initialize{}},
		Properties: mutex.Properties,
		New: func(v algo.Values) (proc.Factory, error) {
			holder := v.ID("holder")
			return func(proc.NodeID) proc.Node { return &node{first: holder} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(320), Load: algo.Bytes(128), BootEvents: 5},
	})
}

type node struct {
	mutex.CS
	first  proc.NodeID // config holder
	holder proc.NodeID // HOLDER, once known
	known  bool        // INITIALIZE has set HOLDER
	queue  []proc.NodeID
	asked  bool
}

func (p *node) Start(ctx proc.Context) {
	p.CS.Start(ctx)
	if ctx.Recovered() {
		ctx.Log("recovered without a HOLDER: the recovery procedure is not implemented")
	}
	if !mutex.StartsWithToken(ctx, p.first) {
		ctx.Set(mutex.KeyToken, false)
		return
	}
	p.setHolder(ctx, ctx.Self())
	for _, x := range ctx.Neighbors() {
		ctx.Send(x, Initialize{})
	}
}

func (p *node) setHolder(ctx proc.Context, h proc.NodeID) {
	had := p.known && p.holder == ctx.Self()
	p.holder, p.known = h, true
	ctx.Set(KeyHolder, h)
	if has := h == ctx.Self(); has != had {
		ctx.Set(mutex.KeyToken, has)
	}
}

func (p *node) setQueue(ctx proc.Context, q []proc.NodeID) {
	p.queue = q
	ctx.Set(KeyQueue, slices.Clone(q))
}

func (p *node) setAsked(ctx proc.Context, a bool) {
	if p.asked != a {
		p.asked = a
		ctx.Set(KeyAsked, a)
	}
}

func (p *node) enqueue(ctx proc.Context, x proc.NodeID) {
	p.setQueue(ctx, append(p.queue, x))
}

// assignPrivilege is ASSIGN_PRIVILEGE.
func (p *node) assignPrivilege(ctx proc.Context) {
	self := ctx.Self()
	if !p.known || p.holder != self || p.Held() || len(p.queue) == 0 {
		return
	}
	next := p.queue[0]
	p.setQueue(ctx, p.queue[1:])
	p.setAsked(ctx, false)
	if next == self {
		p.CS.Enter(ctx)
		return
	}
	p.setHolder(ctx, next)
	ctx.Send(next, Privilege{})
}

// makeRequest is MAKE_REQUEST.
func (p *node) makeRequest(ctx proc.Context) {
	if !p.known || p.holder == ctx.Self() || len(p.queue) == 0 || p.asked {
		return
	}
	p.setAsked(ctx, true)
	ctx.Send(p.holder, Request{})
}

// step is what follows every event in the paper.
func (p *node) step(ctx proc.Context) {
	p.assignPrivilege(ctx)
	p.makeRequest(ctx)
}

func (p *node) Want(ctx proc.Context) {
	p.enqueue(ctx, ctx.Self())
	p.step(ctx)
}

func (p *node) Exit(ctx proc.Context) { p.step(ctx) }

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	if from == ctx.Self() {
		// A process never sends itself a message: it queues its own
		// request itself, and a REQUEST from itself would make
		// ASSIGN_PRIVILEGE enter for a request it never made. Only a
		// hand-made message can come from itself.
		ctx.Log("%s from itself ignored: a process sends itself nothing", m.Kind())
		return
	}
	switch m.(type) {
	case Initialize:
		if p.known {
			return
		}
		p.setHolder(ctx, from)
		for _, x := range ctx.Neighbors() {
			if x != from {
				ctx.Send(x, Initialize{})
			}
		}
	case Request:
		p.enqueue(ctx, from)
	case Privilege:
		p.setHolder(ctx, ctx.Self())
	}
	p.step(ctx)
}

func (p *node) Timer(ctx proc.Context, tag string) { p.CS.Timer(ctx, p, tag) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.CS.Command(ctx, p, name, args)
}
