// Package vector is the vector clock of Fidge and Mattern: every process
// keeps a vector V_i of N counters, its own counting its events and each
// other one the events of that process it has heard of through messages, so
// that V(a) < V(b) exactly when a happened before b (the lecture notes
// "Synchronization, Coordination and Agreement", section 3.1.3.5 "Vector
// clock").
package vector

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/clock"
	"dsim/core/proc"
)

// Msg is a message carrying t = V_i, its sender's vector at the send (VC3).
type Msg struct {
	V []int `json:"v"`
}

func (Msg) Kind() string { return "MSG" }

func init() {
	algo.Register(algo.Spec{
		Name:    "clock.vector",
		Summary: "Fidge/Mattern vector clocks: each process counts its own events in V_i[i], messages carry V_i and receivers merge them, so V(a) < V(b) if and only if a happened before b",
		Description: `The lecture notes "Synchronization, Coordination and Agreement", section 3.1.3.5 "Vector clock", which name the clock; the rules are stated as in the notes' first reference, Coulouris, Dollimore and Kindberg, "Distributed Systems: Concepts and Design" (4th ed.), section 11.4 "Logical time and logical clocks", and labelled as they label them:
VC1: initially V_i[j] = 0 for every i and j.
VC2: just before p_i timestamps an event, it sets V_i[i] := V_i[i] + 1.
VC3: p_i includes the value t = V_i in every message it sends.
VC4: when p_i receives a timestamp t in a message, it sets V_i[j] := max(V_i[j], t[j]) for every j (a merge); the receive is an event, so VC2 then applies.
V(a) <= V(b) when V(a)[j] <= V(b)[j] for every j, and V(a) < V(b) when moreover they differ: then V(a) < V(b) if and only if a → b, and two events whose vectors are neither are concurrent.
Where the text is silent: the vector is indexed in ring order (its k-th entry belongs to the k-th process of the world's ids). The vclock state key changes at every event (VC2), before the message a send event stamps leaves: each change is the timestamp of one event, which is what clock.vector judges. A hand-made message whose vector has another length is merged over the entries both have; at the top of int's range an entry stays rather than wrap round.
The worked example is the one of Coulouris et al. (section 11.4, the vector timestamps of three processes' events a to f) with its concurrent pairs (scenario clocks/vector-concurrent).
Assumptions: links in any order, losing or duplicating messages, and partitions leave the rules correct (a lost message orders nothing; a copy is received after its send like the original); a crash stops a process for good, since a recovered process starts again from VC1, below its own earlier events.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			Loss: true, Duplication: true, Partitions: true, Crashes: algo.CrashStop,
		},
		Config:     clock.WorkloadParams(),
		Commands:   clock.Commands,
		State:      []algo.StateKey{{Key: clock.KeyVector, Doc: "V_i, the process's vector clock, in ring order: its value at each event is that event's timestamp"}},
		Messages:   []proc.Message{Msg{}},
		Properties: []algo.Property{clock.Vector},
		New: func(v algo.Values) (proc.Factory, error) {
			w := clock.NewWorkload(v)
			return func(proc.NodeID) proc.Node { return &node{Workload: w} }, nil
		},
		// The vector and the state's copy of it, 8 bytes an entry each
		// and the allocator's rounding: n² in the world, inherent in a
		// vector clock.
		Memory: algo.Memory{Boot: algo.PerPeer(256, 18), BootEvents: 1},
	})
}

type node struct {
	clock.Workload
	i int   // this process's entry: its index in ring order
	v []int // V_i
}

// Start is VC1.
func (p *node) Start(ctx proc.Context) {
	p.i, p.v = ctx.Index(), make([]int, ctx.N())
	ctx.Set(clock.KeyVector, p.v)
	p.Workload.Start(ctx)
}

// vc2 is VC2: the process's own entry counts the event about to be
// timestamped, which the state then shows.
func (p *node) vc2(ctx proc.Context) {
	p.v[p.i] = clock.Add(p.v[p.i], 1)
	ctx.Set(clock.KeyVector, p.v)
}

func (p *node) Internal(ctx proc.Context) { p.vc2(ctx) }

// Send is a send event: VC2, then VC3. The message gets its own copy, as a
// sent message is a value that no later event may change.
func (p *node) Send(ctx proc.Context, to proc.NodeID) {
	p.vc2(ctx)
	ctx.Send(to, Msg{V: slices.Clone(p.v)})
}

// Receive is a receive event: VC4's merge, then VC2.
func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	msg, ok := m.(Msg)
	if !ok {
		return
	}
	if len(msg.V) != len(p.v) {
		ctx.Log("a vector of %d entries from %d, not %d: merged over the entries both have", len(msg.V), from, len(p.v))
	}
	for j := range min(len(msg.V), len(p.v)) {
		p.v[j] = max(p.v[j], msg.V[j])
	}
	p.vc2(ctx)
}

func (p *node) Timer(ctx proc.Context, tag string) { p.Workload.Timer(ctx, p, tag) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.Workload.Command(ctx, p, name, args)
}
