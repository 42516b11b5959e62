// Package lamport is Lamport's distributed mutual exclusion algorithm: every
// process keeps a queue of requests ordered by (timestamp, id) and enters
// when its own request heads the queue and every other process has sent it
// something later (the lecture notes "Synchronization, Coordination and
// Agreement", "Lamport's Algorithm").
package lamport

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/mutex"
	"dsim/core/proc"
)

// Request is REQUEST(ts_i, i): the sender's request, stamped with its
// Lamport clock; the id is the sender's.
type Request struct {
	TS int `json:"ts"`
}

func (Request) Kind() string { return "REQUEST" }

// Reply is the timestamped REPLY to a REQUEST. Its only purpose is to carry
// a timestamp later than the request's, proving that the replier's earlier
// requests have arrived (on FIFO links).
type Reply struct {
	TS int `json:"ts"`
}

func (Reply) Kind() string { return "REPLY" }

// Release is the timestamped RELEASE: the sender has left the critical
// section and its request leaves every queue.
type Release struct {
	TS int `json:"ts"`
}

func (Release) Kind() string { return "RELEASE" }

// keyQueue shows the request queue, head first, as process ids.
const keyQueue = "queue"

func init() {
	algo.Register(algo.Spec{
		Name:    "mutex.lamport",
		Summary: "Lamport: timestamped REQUEST to all, REPLY from all, request queues ordered by (timestamp, id), RELEASE to all; needs FIFO links",
		Description: `The lecture notes "Synchronization, Coordination and Agreement", "Lamport's Algorithm" (and "Some notable points"): every process i keeps a request queue q_i sorted by (timestamp, id).
Rules: to request, i sends a timestamped REQUEST(ts_i, i) to every other process and puts (ts_i, i) in its own queue. A process j receiving REQUEST(ts_i, i) puts it in q_j and sends a timestamped REPLY to i. i enters the critical section when (ts_i, i) is at the head of its own queue and it has received a message (any message: REQUEST, REPLY or RELEASE) with a timestamp larger than (ts_i, i) from every other process. To release, i removes its request from its own queue and sends a timestamped RELEASE to every other process; a process receiving it removes i's request from its queue. Every message carries the sender's Lamport clock (ticked before each send; a REQUEST or RELEASE to all is one event with one timestamp), and every receipt advances the receiver's clock past it. Cost: 3(n-1) messages per entry; requests are granted in (timestamp, id) order.
Where the text is silent: "larger than (ts_i, i)" compares (timestamp, id) pairs, so a message stamped ts_i from a higher id counts; a RELEASE removes the sender's oldest entry; a REQUEST whose stamp is in the queue already (a duplicate) is answered but not queued again, and a message from the process itself (only a hand-made one can be) is ignored; a REPLY is sent whatever the receiver's own state; req_ts is the request's timestamp and queue the ids in queue order.
Assumptions: a complete graph and FIFO, reliable links ("Requires FIFO channels"): on links that reorder, a REPLY can overtake the REQUEST sent before it and two processes enter together (scenario mutex/lamport-no-fifo). Crashes are not tolerated: a crashed process never replies, so every later request waits forever, and a recovered process starts with an empty queue and a fresh clock.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			FIFO: true, Crashes: algo.NoCrashes,
		},
		Commands:   mutex.Commands,
		State:      append(slices.Clone(mutex.StateKeys), mutex.StampKey, algo.StateKey{Key: keyQueue, Doc: "the ids of the requests in this process's queue, head first (set when it changes)"}),
		Messages:   []proc.Message{Request{}, Reply{}, Release{}},
		Properties: append(slices.Clone(mutex.Properties), mutex.Ordering),
		New: func(algo.Values) (proc.Factory, error) {
			return func(proc.NodeID) proc.Node { return &node{} }, nil
		},
		// Every process keeps the latest timestamp of every other one, a map entry
		// per peer: n² in the world, inherent in the entry rule.
		Memory: algo.Memory{Boot: algo.PerPeer(256, algo.MapEntryBytes), Load: algo.Bytes(1280), BootEvents: 1},
	})
}

type node struct {
	mutex.CS
	clock mutex.Clock
	queue []mutex.Stamp // sorted by (timestamp, id)
	mine  mutex.Stamp   // the current request, while Wanted or Held
	// latest is the largest timestamp received from each other process.
	latest map[proc.NodeID]int
}

func (p *node) Start(ctx proc.Context) {
	p.clock, p.queue, p.mine = 0, nil, mutex.Stamp{}
	p.latest = make(map[proc.NodeID]int, len(ctx.Peers()))
	p.CS.Start(ctx)
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.CS.Command(ctx, p, name, args)
}

func (p *node) Timer(ctx proc.Context, tag string) {
	p.CS.Timer(ctx, p, tag)
}

// Want sends REQUEST(ts_i, i) to all others and queues it locally.
func (p *node) Want(ctx proc.Context) {
	p.mine = mutex.Stamp{TS: p.clock.Tick(), ID: ctx.Self()}
	ctx.Set(mutex.KeyStamp, p.mine.TS)
	p.enqueue(ctx, p.mine)
	for _, id := range ctx.Peers() {
		ctx.Send(id, Request{TS: p.mine.TS})
	}
	p.tryEnter(ctx)
}

// Exit removes the own request and sends a timestamped RELEASE to all.
func (p *node) Exit(ctx proc.Context) {
	p.dequeue(ctx, ctx.Self())
	ts := p.clock.Tick()
	for _, id := range ctx.Peers() {
		ctx.Send(id, Release{TS: ts})
	}
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	if from == ctx.Self() {
		// A process queues its own request itself and sends only to the
		// others: a message from itself is hand-made, and would queue a
		// request it never made.
		ctx.Log("%s from itself ignored: a process sends itself nothing", m.Kind())
		return
	}
	var ts int
	switch msg := m.(type) {
	case Request:
		ts = msg.TS
		p.clock.Witness(ts)
		if s := (mutex.Stamp{TS: ts, ID: from}); slices.Contains(p.queue, s) {
			// A process stamps each request anew: the same stamp again
			// is a copy (a duplicated message), which one RELEASE would
			// leave behind in the queue for ever.
			ctx.Log("REQUEST(%d, %d) is in the queue already: not queued again", ts, from)
		} else {
			p.enqueue(ctx, s)
		}
		ctx.Send(from, Reply{TS: p.clock.Tick()})
	case Reply:
		ts = msg.TS
		p.clock.Witness(ts)
	case Release:
		ts = msg.TS
		p.clock.Witness(ts)
		if !p.dequeue(ctx, from) {
			ctx.Log("RELEASE from %d with no request of it in the queue", from)
		}
	default:
		return
	}
	p.latest[from] = max(p.latest[from], ts)
	p.tryEnter(ctx)
}

// tryEnter applies the entry rule: own request at the head of the queue and
// a later message from every other process.
func (p *node) tryEnter(ctx proc.Context) {
	if !p.Wanted() || len(p.queue) == 0 || p.queue[0] != p.mine {
		return
	}
	for _, id := range ctx.Peers() {
		ts, ok := p.latest[id]
		if !ok || !p.mine.Less(mutex.Stamp{TS: ts, ID: id}) {
			return
		}
	}
	p.Enter(ctx)
}

func (p *node) enqueue(ctx proc.Context, s mutex.Stamp) {
	i, _ := slices.BinarySearchFunc(p.queue, s, mutex.Stamp.Compare)
	p.queue = slices.Insert(p.queue, i, s)
	p.publish(ctx)
}

// dequeue removes id's oldest request and reports whether it had one.
func (p *node) dequeue(ctx proc.Context, id proc.NodeID) bool {
	i := slices.IndexFunc(p.queue, func(s mutex.Stamp) bool { return s.ID == id })
	if i < 0 {
		return false
	}
	p.queue = slices.Delete(p.queue, i, i+1)
	p.publish(ctx)
	return true
}

func (p *node) publish(ctx proc.Context) {
	ids := make([]proc.NodeID, len(p.queue))
	for i, s := range p.queue {
		ids[i] = s.ID
	}
	ctx.Set(keyQueue, ids)
}
