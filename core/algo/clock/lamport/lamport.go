// Package lamport is Lamport's logical clock: every process keeps a counter
// C_i that ticks at each of its events (IR1) and that every message carries
// to its receiver, which moves its own past it (IR2), so that an event that
// happened before another has the smaller timestamp (the lecture notes
// "Synchronization, Coordination and Agreement", section 3.1.3.4 "Lamport
// logical clock").
package lamport

import (
	"dsim/core/algo"
	"dsim/core/algo/clock"
	"dsim/core/proc"
)

// Msg is a message m stamped with its sender's clock: T_m = C_i(a), a being
// the send event (IR2(a)).
type Msg struct {
	TS int `json:"ts"`
}

func (Msg) Kind() string { return "MSG" }

func init() {
	algo.Register(algo.Spec{
		Name:    "clock.lamport",
		Summary: "Lamport's logical clock: IR1 ticks C_i by d at every event, IR2 stamps each message with C_i and moves its receiver's clock past the stamp; (C, id) orders all events totally",
		Description: `The lecture notes "Synchronization, Coordination and Agreement", section 3.1.3.4 "Lamport logical clock", which name the clock; the rules are those of Lamport's "Time, Clocks, and the Ordering of Events in a Distributed System" (1978), labelled as he labels them. Each process P_i keeps a counter C_i, 0 at boot.
IR1: P_i increments C_i between any two successive events, by its tick d (every event, internal, send or receive, is one step of IR1 as it begins).
IR2: (a) if event a is the sending of a message m by P_i, m carries the timestamp T_m = C_i(a); (b) on receiving m, P_j sets C_j greater than or equal to its present value and greater than T_m.
So a → b implies C(a) < C(b), and ordering events by (C, id of their process) extends happened-before to a total order.
The worked example is Tanenbaum and van Steen, "Distributed Systems: Principles and Paradigms" (2nd ed.), section 6.2.1 "Lamport's Logical Clocks", Figure 6-9: three processes whose clocks tick 6, 8 and 10 per step (d=6, d_step=2); m3, sent at 60, arrives when its receiver reads 56, which becomes 61, and m4, sent after that correction at 69, arrives at 54 and becomes 70 (scenario clocks/lamport-tanenbaum). ir2=false is that figure's part (a), clocks that only tick: m3 then arrives "before" it was sent, and clock.lamport fails there.
Where the text is silent: IR2(b) takes C_j to max(C_j, T_m + 1), the smallest value it allows (Tanenbaum's "one more than the sending time"), after the receive event's IR1 step: 48 ticks to 56, then 61. The clock state key changes at every event (d >= 1), before the message a send event stamps leaves: each change is the timestamp of one event, which is what clock.lamport judges. At the top of int's range, where only a hand-made timestamp can take it, the clock stays rather than wrap round.
Assumptions: links in any order, losing or duplicating messages, and partitions leave the rules correct (a lost message orders nothing; a copy is received after its send like the original); a crash stops a process for good, since a recovered process starts again from C = 0, below its own earlier events.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			Loss: true, Duplication: true, Partitions: true, Crashes: algo.CrashStop,
		},
		Config: append([]algo.Param{
			{Name: "d", Type: algo.Int, Default: 1, Doc: "IR1's tick: how much the first process in ring order adds to its clock at every event", Min: 1, Max: 1000},
			{Name: "d_step", Type: algo.Int, Default: 0, Doc: "how much more each process's tick is than the one before it in ring order: the process at index i ticks d + i*d_step (d=6, d_step=2: Tanenbaum's 6, 8, 10)", Min: 0, Max: 1000},
			{Name: "ir2", Type: algo.Bool, Default: true, Doc: "apply IR2(b) on receipt; false: the clocks only tick (Tanenbaum's Figure 6-9(a))"},
		}, clock.WorkloadParams()...),
		Commands:   clock.Commands,
		State:      []algo.StateKey{{Key: clock.KeyLamport, Doc: "C_i, the process's Lamport clock: its value at each event is that event's timestamp"}},
		Messages:   []proc.Message{Msg{}},
		Properties: []algo.Property{clock.Lamport},
		New: func(v algo.Values) (proc.Factory, error) {
			d, step, ir2, w := v.Int("d"), v.Int("d_step"), v.Bool("ir2"), clock.NewWorkload(v)
			return func(proc.NodeID) proc.Node { return &node{Workload: w, d: d, step: step, ir2: ir2} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(160), BootEvents: 1},
	})
}

type node struct {
	clock.Workload
	d, step int // the tick is d + index*step
	tick    int // IR1's d for this process
	ir2     bool
	c       int // C_i
}

func (p *node) Start(ctx proc.Context) {
	// The tick is fixed by the process's place in ring order, which the
	// factory does not know.
	p.tick = clock.Add(p.d, ctx.Index()*p.step)
	p.c = 0
	ctx.Set(clock.KeyLamport, p.c)
	p.Workload.Start(ctx)
}

// ir1 is IR1: the clock ticks as an event begins.
func (p *node) ir1() { p.c = clock.Add(p.c, p.tick) }

func (p *node) Internal(ctx proc.Context) {
	p.ir1()
	ctx.Set(clock.KeyLamport, p.c)
}

// Send is a send event: IR1, then IR2(a), the message carries C_i.
func (p *node) Send(ctx proc.Context, to proc.NodeID) {
	p.ir1()
	ctx.Set(clock.KeyLamport, p.c)
	ctx.Send(to, Msg{TS: p.c})
}

// Receive is a receive event: IR1, then IR2(b), the clock past T_m.
func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	msg, ok := m.(Msg)
	if !ok {
		return
	}
	p.ir1()
	if ticked := p.c; p.ir2 && msg.TS >= ticked {
		p.c = clock.Add(msg.TS, 1)
		ctx.Log("IR2: m stamped %d arrived at %d: the clock becomes %d", msg.TS, ticked, p.c)
	}
	ctx.Set(clock.KeyLamport, p.c)
}

func (p *node) Timer(ctx proc.Context, tag string) { p.Workload.Timer(ctx, p, tag) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.Workload.Command(ctx, p, name, args)
}
