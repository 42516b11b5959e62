// Package chandylamport is Chandy and Lamport's snapshot algorithm: a
// process records its state and sends a marker on every outgoing channel
// before anything else; a process receiving a marker records its state if
// it has not (the channel's state is then empty), and otherwise records the
// channel's state as the messages that arrived on it since it recorded its
// own. FIFO channels make the marker separate the messages sent before the
// recording from those sent after it (Coulouris et al., "Distributed
// Systems: Concepts and Design", section 14.5.3 "The 'snapshot' algorithm
// of Chandy and Lamport").
package chandylamport

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/snapshot"
	"dsim/core/proc"
)

// Marker separates, on its channel, the messages its sender sent before
// recording its state for snapshot S from those it sent after.
type Marker struct {
	S int `json:"s"`
}

func (Marker) Kind() string { return "MARKER" }

func init() {
	algo.Register(algo.Spec{
		Name:    "snapshot.chandylamport",
		Summary: "Chandy and Lamport's snapshot: markers on FIFO channels separate what each process recorded from what it did after; a channel's state is what arrived on it between its receiver's recording and the marker",
		Description: `The lecture notes "Synchronization, Coordination and Agreement", section 3.1.3.3 "Global State and State Recording"; the rules are those of Chandy and Lamport, "Distributed Snapshots: Determining Global States of Distributed Systems" (1985), as Coulouris, Dollimore and Kindberg, "Distributed Systems: Concepts and Design" (5th ed.), section 14.5.3 "The 'snapshot' algorithm of Chandy and Lamport" states and names them:
Marker receiving rule for process p_i: on p_i's receipt of a marker message over channel c: if p_i has not yet recorded its state, it records its process state now, records the state of c as the empty set, and turns on recording of messages arriving over other incoming channels; else p_i records the state of c as the set of messages it has received over c since it saved its state.
Marker sending rule for process p_i: after p_i has recorded its state, for each outgoing channel c, p_i sends one marker message over c (before it sends any other message over c).
Any process may initiate the algorithm at any time (the snapshot command), acting as though it has received a marker over a nonexistent channel; several may initiate at once. Each snapshot has an id, carried by its markers, and a process keeps a record per snapshot, so several snapshots may be in progress at once. The system whose global state it records is a bank, money in accounts and in transit: every process holds an account (config balance) and moves money to the others by TRANSFER messages (the transfer command, or config events at random); the recorded balances plus the transfers recorded in the channels equal the bank's total (snapshot.conserved), and the recorded cut is consistent, its channel states exactly the transfers in flight across it (snapshot.consistent).
Where the text is silent: the snapshot command's id defaults to the initiator's own; a snapshot command for an id this process has already recorded (a marker came first, or the same id was given twice) changes nothing. Every pair of processes is joined by a channel each way (the topology is the complete graph). The state is recorded as the keys recorded ([s, balance]) and channel ([s, from, transfer ids and amounts]) show it (see the family's state keys).
Assumptions: FIFO channels, which the rules rely on: on a link that reorders, a transfer sent before the marker can arrive after it and is missed, or one sent after it arrives first and is counted twice (scenario snapshot/broken-cut, where snapshot.consistent and snapshot.conserved fail); no message is lost or duplicated, and no process fails.`,
		Topology:    "complete",
		Assumptions: algo.Assumptions{FIFO: true},
		Config:      snapshot.BankParams(),
		Commands: snapshot.Commands(algo.CommandSpec{Name: "snapshot", Args: "[id=<s>]",
			Doc: "initiate snapshot s (default: this process's id) here: the process records its state and sends its markers"}),
		State:      snapshot.State,
		Messages:   []proc.Message{snapshot.Transfer{}, Marker{}},
		Properties: []algo.Property{snapshot.Consistent, snapshot.Conserved},
		New: func(v algo.Values) (proc.Factory, error) {
			b := snapshot.NewBank(v)
			return func(proc.NodeID) proc.Node { return &node{Bank: b} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(160), BootEvents: 1},
	})
}

type node struct {
	snapshot.Bank
	recs map[int]*snapshot.Recording // by snapshot id
	open []*snapshot.Recording       // those still recording a channel, in order
}

func (p *node) Start(ctx proc.Context) {
	p.recs, p.open = nil, nil
	p.Bank.Start(ctx)
}

// markerSending is the Marker sending rule: p records its state, then
// sends a marker on every outgoing channel before anything else.
func (p *node) markerSending(ctx proc.Context, s int) *snapshot.Recording {
	r := snapshot.Record(ctx, s, p.Balance)
	if p.recs == nil {
		p.recs = map[int]*snapshot.Recording{}
	}
	p.recs[s], p.open = r, append(p.open, r)
	for _, c := range ctx.Peers() {
		ctx.Send(c, Marker{S: s})
	}
	return r
}

// Initiate starts snapshot s here, as though a marker had arrived over a
// nonexistent channel.
func (p *node) Initiate(ctx proc.Context, args proc.Args) error {
	s, err := snapshot.ID(ctx, args)
	if err != nil {
		return err
	}
	if p.recs[s] != nil {
		ctx.Log("snapshot %d: already recorded here", s)
		return nil
	}
	p.markerSending(ctx, s)
	return nil
}

// Receive takes a transfer into the account, and into the state of its
// channel in every snapshot recording it; or applies the Marker receiving
// rule.
func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case snapshot.Transfer:
		for _, r := range p.open {
			r.Receive(from, msg)
		}
		p.Deposit(ctx, msg)
	case Marker:
		// Marker receiving rule: not yet recorded: record the state and
		// the channel's as empty; else the channel's state is what it
		// received since.
		r := p.recs[msg.S]
		if r == nil {
			r = p.markerSending(ctx, msg.S)
		}
		switch {
		case !r.Close(ctx, from):
			ctx.Log("snapshot %d: a second marker from %d ignored", msg.S, from)
		case r.Done():
			ctx.Log("snapshot %d: recorded here, the state and every incoming channel", msg.S)
			p.open = slices.DeleteFunc(p.open, func(o *snapshot.Recording) bool { return o == r })
		}
	}
}

func (p *node) Send(ctx proc.Context, to proc.NodeID, t snapshot.Transfer) { ctx.Send(to, t) }

func (p *node) Timer(ctx proc.Context, tag string) { p.Bank.Timer(ctx, p, tag) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.Bank.Command(ctx, p, name, args)
}
