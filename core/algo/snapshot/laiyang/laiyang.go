// Package laiyang is Lai and Yang's snapshot algorithm for channels that
// are not FIFO: every message carries its sender's colour, white before
// the sender recorded its state and red after, and a process records its
// state no later than when its first red message arrives, so no message
// sent after a recording is received before one. A channel's state is the
// white messages its receiver gets after it turned red (Kshemkalyani and
// Singhal, "Distributed Computing: Principles, Algorithms, and Systems",
// section 4.5.1 "Lai-Yang algorithm").
package laiyang

import (
	"fmt"

	"dsim/core/algo"
	"dsim/core/algo/snapshot"
	"dsim/core/proc"
)

// Msg is a transfer carrying its sender's colour (rules 2 and 3).
type Msg struct {
	ID     int  `json:"id"`
	Amount int  `json:"amount"`
	Red    bool `json:"red"`
}

func (Msg) Kind() string { return "TRANSFER" }

func (m Msg) Money() snapshot.Transfer { return snapshot.Transfer{ID: m.ID, Amount: m.Amount} }

// Control is the red message a process sends on each outgoing channel as
// it turns red: it makes every process turn red, and carries how many
// white messages its sender sent on that channel.
type Control struct {
	Whites int `json:"whites"`
}

func (Control) Kind() string { return "CONTROL" }

// ID is the one snapshot two colours record.
const ID = 1

func init() {
	algo.Register(algo.Spec{
		Name:    "snapshot.laiyang",
		Summary: "Lai and Yang's snapshot for non-FIFO channels: messages carry their sender's colour, a process turns red (records its state) before it receives a red message, and a channel's state is the white messages that arrive after its receiver turned red",
		Description: `The lecture notes "Synchronization, Coordination and Agreement", section 3.1.3.3 "Global State and State Recording"; the algorithm is Lai and Yang's, "On Distributed Snapshots" (1987), as Kshemkalyani and Singhal, "Distributed Computing: Principles, Algorithms, and Systems", section 4.5 "Snapshot algorithms for non-FIFO channels", 4.5.1 "Lai-Yang algorithm", states it, numbered as there:
(1) Every process is initially white and turns red while taking a snapshot; the equivalent of the marker sending rule is executed when a process turns red.
(2) Every message sent by a white (red) process is coloured white (red).
(3) Thus a white (red) message is a message that was sent before (after) the sender of that message recorded its local snapshot.
(4) Every white process takes its snapshot at its convenience (the snapshot command), but no later than the instant it receives a red message: it records its state before it receives that message.
The state of the channel C_ij is transit(LS_i, LS_j): the white messages p_i sent on it less those p_j received before recording, that is, the white messages p_j receives on it after turning red.
Where this differs from the text, which has every white process keep a history of the white messages it sent and received on each channel and send it to the initiator as it turns red, so that the initiator computes transit: counters in place of histories, as Mattern's algorithm does (section 4.5.3). as it turns red, a process sends each other process a CONTROL message (red, so it makes its receiver turn red too: every process turns red) carrying the number of white messages it sent on that channel; the receiver records the white transfers it receives on the channel after turning red, and has the channel's whole state once it has received that many white messages on it in all (before and after turning red). So each process keeps counters, not histories, and a channel's state is known only once its last white message has arrived.
The system is a bank, as for snapshot.chandylamport: every process holds an account (config balance) and moves money to the others by TRANSFER messages (the transfer command, or config events at random); the recorded balances and channels add up to the bank's total (snapshot.conserved), and the recorded cut is consistent, its channel states exactly the transfers in flight across it (snapshot.consistent). Two colours record one snapshot, whose id is 1 in the recorded and channel keys; several processes may initiate it at once, and a snapshot command at a red process changes nothing.
Assumptions: channels in any order (the point of the colours), no message lost or duplicated (a lost white message would keep its channel open for ever), and no process fails.`,
		Topology:    "complete",
		Assumptions: algo.Assumptions{},
		Config:      snapshot.BankParams(),
		Commands: snapshot.Commands(algo.CommandSpec{Name: "snapshot", Args: "",
			Doc: "take the snapshot here (rule 4): the process turns red, records its state and sends its CONTROL messages"}),
		State:      snapshot.State,
		Messages:   []proc.Message{Msg{}, Control{}},
		Properties: []algo.Property{snapshot.Consistent, snapshot.Conserved},
		New: func(v algo.Values) (proc.Factory, error) {
			b := snapshot.NewBank(v)
			return func(proc.NodeID) proc.Node { return &node{Bank: b} }, nil
		},
		// The node and its three counter maps, empty until messages come.
		Memory: algo.Memory{Boot: algo.Bytes(240), BootEvents: 1},
	})
}

type node struct {
	snapshot.Bank
	rec        *snapshot.Recording // nil while white
	whitesSent map[proc.NodeID]int // white messages sent on each outgoing channel
	whitesRecv map[proc.NodeID]int // white messages received on each incoming channel
	expect     map[proc.NodeID]int // the white messages sent on each incoming channel, once its CONTROL told
}

func (p *node) Start(ctx proc.Context) {
	p.rec = nil
	p.whitesSent, p.whitesRecv, p.expect = map[proc.NodeID]int{}, map[proc.NodeID]int{}, map[proc.NodeID]int{}
	p.Bank.Start(ctx)
}

// turnRed is rule 1: the process records its state and, as the marker
// sending rule would, sends a CONTROL on every outgoing channel, with the
// white messages it sent there.
func (p *node) turnRed(ctx proc.Context) {
	p.rec = snapshot.Record(ctx, ID, p.Balance)
	for _, c := range ctx.Peers() {
		ctx.Send(c, Control{Whites: p.whitesSent[c]})
	}
	p.whitesSent = nil // red from now on: no more white messages
}

// Initiate is rule 4's "at its convenience".
func (p *node) Initiate(ctx proc.Context, args proc.Args) error {
	if len(args) > 0 {
		return fmt.Errorf("command \"snapshot\" takes no arguments (two colours make one snapshot), got %s", args)
	}
	if p.rec != nil {
		ctx.Log("already red: the snapshot is recorded here")
		return nil
	}
	p.turnRed(ctx)
	return nil
}

// Send is rule 2: a transfer carries its sender's colour.
func (p *node) Send(ctx proc.Context, to proc.NodeID, t snapshot.Transfer) {
	if p.rec == nil {
		p.whitesSent[to]++
	}
	ctx.Send(to, Msg{ID: t.ID, Amount: t.Amount, Red: p.rec != nil})
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Msg:
		if msg.Red && p.rec == nil {
			p.turnRed(ctx) // rule 4: before receiving the red message
		}
		if !msg.Red {
			p.whitesRecv[from]++
			if p.rec != nil {
				p.rec.Receive(from, msg.Money()) // in transit(LS_i, LS_j)
			}
		}
		p.Deposit(ctx, msg.Money())
	case Control:
		if p.rec == nil {
			p.turnRed(ctx) // rule 4: the CONTROL is red
		}
		p.expect[from] = msg.Whites
	default:
		return
	}
	p.closeIfDone(ctx, from)
}

// closeIfDone records the channel from, once every white message sent on
// it has arrived.
func (p *node) closeIfDone(ctx proc.Context, from proc.NodeID) {
	if want, told := p.expect[from]; told && p.whitesRecv[from] == want && p.rec.Close(ctx, from) {
		delete(p.expect, from)
		delete(p.whitesRecv, from)
		if p.rec.Done() {
			ctx.Log("snapshot %d: recorded here, the state and every incoming channel", ID)
		}
	}
}

func (p *node) Timer(ctx proc.Context, tag string) { p.Bank.Timer(ctx, p, tag) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.Bank.Command(ctx, p, name, args)
}
