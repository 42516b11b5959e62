// Package snapshot holds what the global state recording algorithms share:
// the properties they promise, the state keys that make a recording visible
// in the trace, the bank whose global state they record, and the record of
// one snapshot at one process. The algorithms live in the sub-packages
// chandylamport and laiyang.
//
// How a snapshot shows in the trace. A process that records its state for
// snapshot s sets the key recorded to [s, balance]: that state event is its
// point of the recorded cut. The events of the process before it are inside
// the cut, except one: a process that records as a message arrives (the
// marker of Chandy-Lamport, the first red message of Lai-Yang) records
// before it receives it, so the delivery right before the recording event
// (the same process, seq one less) is outside. When the process has
// recorded the state of its incoming channel from process i, it sets the
// key channel to [s, i, id1, amount1, id2, amount2, ...]: the transfers
// recorded in flight on that channel, each by the id its sender gave it
// (the id field of the TRANSFER message, numbered 1, 2, ... by each sender)
// and its amount. A process records one channel per other process and
// snapshot, so the key's history, not its last value, holds them all.
package snapshot

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"dsim/core/algo"
	"dsim/core/proc"
)

// The properties of a recorded global state (see init), judged by
// core/check from the events alone.
const (
	Consistent = "snapshot.consistent"
	Conserved  = "snapshot.conserved"
)

// State keys.
const (
	KeyBalance  = "balance"  // the account's balance
	KeyRecorded = "recorded" // [s, balance]: the process recorded its state for snapshot s
	KeyChannel  = "channel"  // [s, from, id, amount, ...]: the recorded state of the channel from process from
)

func init() {
	algo.DeclareFamily("snapshot", "global state recording: consistent snapshots of processes and channels")
	algo.DeclareProperty(Consistent, "every recorded cut is consistent (no transfer received inside it was sent outside it: the cut of a process is its recorded event, before the delivery that made it record), and every recorded channel state holds exactly the transfers in flight across the cut on that channel (sent inside, received outside)")
	algo.DeclareProperty(Conserved, "every complete snapshot (every process's state and every channel's recorded) holds the bank's true total: the recorded balances plus the amounts in the recorded channel states equal the sum of the initial balances")
}

// State documents the keys, for the algorithms' specs.
var State = []algo.StateKey{
	{Key: KeyBalance, Doc: "the account's balance: the initial balance, less the transfers sent, plus those received", Chart: true},
	{Key: KeyRecorded, Doc: "[s, balance]: set when the process records its state for snapshot s (the recorded cut passes here, before the delivery that made it record, if any)"},
	{Key: KeyChannel, Doc: "[s, from, id1, amount1, id2, amount2, ...]: set when the process has recorded the state of its channel from process from for snapshot s: the transfers in flight on it, by the id their sender gave them, with their amounts"},
}

// Transfer is the bank's message: money moving from its sender's account
// to its receiver's. ID numbers its sender's transfers from 1, so that a
// recorded channel state names its messages.
type Transfer struct {
	ID     int `json:"id"`
	Amount int `json:"amount"`
}

func (Transfer) Kind() string { return "TRANSFER" }

// Money is a message carrying a transfer: the bank's own, or one with what
// an algorithm piggybacks on it. The checkers read transfers through it.
type Money interface {
	proc.Message
	Money() Transfer
}

func (t Transfer) Money() Transfer { return t }

// BankParams are the configuration keys of the bank.
func BankParams() []algo.Param {
	return []algo.Param{
		{Name: "balance", Type: algo.Int, Default: 100, Doc: "every account's initial balance", Min: 0, Max: 1e9},
		{Name: "events", Type: algo.Int, Default: 0, Doc: "random transfers each process makes by itself, one at a time from its boot, each of a random amount in 1..its balance to a random other process (0: none, only the commands)", Min: 0, Max: 1e6},
		{Name: "rate", Type: algo.Float, Default: 0.1, Doc: "random transfers per tick of local time at each process, on average: the gap before each is uniform in 1..2/rate-1 ticks", Min: 0.001, Max: 1},
	}
}

// Commands are the bank's transfer and the algorithm's snapshot command.
func Commands(snapshot algo.CommandSpec) []algo.CommandSpec {
	return []algo.CommandSpec{
		{Name: "transfer", Args: "to=<id> amount=<n>", Doc: "move amount (1..the balance) from this account to process to's"},
		snapshot,
	}
}

// Process is the algorithm side of a process: how it sends a transfer
// (what it piggybacks on it) and how it initiates a snapshot.
type Process interface {
	Send(ctx proc.Context, to proc.NodeID, t Transfer)
	Initiate(ctx proc.Context, args proc.Args) error
}

// TimerTransfer is the tag of the random workload's timer.
const TimerTransfer = "transfer"

// Bank is a process's account and its random workload. Algorithms embed
// it and route their Start, Command and Timer calls through it.
type Bank struct {
	initial, events, gaps int
	Balance               int
	sent                  int // transfers sent: the last one's ID
	left                  int // random transfers still to make
}

// NewBank reads the configuration BankParams describes.
func NewBank(v algo.Values) Bank {
	// 2/rate is one IEEE division, the same on every platform.
	return Bank{initial: v.Int("balance"), events: v.Int("events"), gaps: max(int(2/v.Float("rate"))-1, 1)}
}

// Start opens the account and arms the first random transfer.
func (b *Bank) Start(ctx proc.Context) {
	b.Balance, b.sent, b.left = b.initial, 0, b.events
	ctx.Set(KeyBalance, b.Balance)
	b.next(ctx)
}

func (b *Bank) next(ctx proc.Context) {
	if b.left > 0 {
		ctx.SetTimer(proc.Duration(1+ctx.Rand().IntN(b.gaps)), TimerTransfer)
	}
}

// Deposit credits a transfer received.
func (b *Bank) Deposit(ctx proc.Context, t Transfer) {
	b.Balance += t.Amount
	ctx.Set(KeyBalance, b.Balance)
}

// transfer debits amount and hands the transfer to the algorithm to send.
func (b *Bank) transfer(ctx proc.Context, p Process, to proc.NodeID, amount int) {
	b.Balance -= amount
	b.sent++
	ctx.Set(KeyBalance, b.Balance)
	p.Send(ctx, to, Transfer{ID: b.sent, Amount: amount})
}

// Timer makes a random transfer when tag is the workload's, and reports
// whether it was. An empty account, or a process alone, sends nothing that time.
func (b *Bank) Timer(ctx proc.Context, p Process, tag string) bool {
	if tag != TimerTransfer {
		return false
	}
	if b.left > 0 {
		b.left--
		if r, peers := ctx.Rand(), ctx.Peers(); len(peers) > 0 && b.Balance > 0 {
			b.transfer(ctx, p, peers[r.IntN(len(peers))], 1+r.IntN(b.Balance))
		}
		b.next(ctx)
	}
	return true
}

// Command handles transfer and snapshot.
func (b *Bank) Command(ctx proc.Context, p Process, name string, args proc.Args) error {
	switch name {
	case "transfer":
		if err := only(name, args, "to", "amount"); err != nil {
			return err
		}
		to, err := args.Int("to", math.MinInt)
		switch {
		case err != nil:
			return err
		case to == math.MinInt:
			return fmt.Errorf("command \"transfer\" needs to=<id>")
		case to < int(proc.MinID) || to > int(proc.MaxID) || !ctx.IsProcess(proc.NodeID(to)) || to == int(ctx.Self()):
			return fmt.Errorf("transfer: to=%d is not another process", to)
		}
		amount, err := args.Int("amount", 0)
		if err != nil {
			return err
		}
		if amount < 1 || amount > b.Balance {
			return fmt.Errorf("transfer: amount=%d is not in 1..%d, the balance", amount, b.Balance)
		}
		b.transfer(ctx, p, proc.NodeID(to), amount)
		return nil
	case "snapshot":
		return p.Initiate(ctx, args)
	}
	return fmt.Errorf("unknown command %q (known: transfer, snapshot)", name)
}

// ID reads the snapshot command's id=<s>, by default the initiator's own.
func ID(ctx proc.Context, args proc.Args) (int, error) {
	if err := only("snapshot", args, "id"); err != nil {
		return 0, err
	}
	return args.Int("id", int(ctx.Self()))
}

// only rejects arguments other than keys.
func only(name string, args proc.Args, keys ...string) error {
	for k := range args {
		if !slices.Contains(keys, k) {
			return fmt.Errorf("command %q takes only %s=, got %s", name, strings.Join(keys, "=, "), args)
		}
	}
	return nil
}

// Recording is one snapshot at one process: its recorded state, and the
// state of each incoming channel, recorded from the transfers that arrive
// on it while it is open.
type Recording struct {
	ID    int
	open  map[proc.NodeID][]int // channel -> id, amount pairs recorded so far
	shut  int                   // channels recorded
	chans int                   // incoming channels in all
}

// Record records the process's state for snapshot s (the recorded key)
// and opens every incoming channel: one from each other process.
func Record(ctx proc.Context, s, balance int) *Recording {
	ctx.Set(KeyRecorded, []int{s, balance})
	r := &Recording{ID: s, open: map[proc.NodeID][]int{}, chans: len(ctx.Peers())}
	for _, from := range ctx.Peers() {
		r.open[from] = nil
	}
	return r
}

// Receive records a transfer arriving on the channel from, if it is open.
func (r *Recording) Receive(from proc.NodeID, t Transfer) {
	if msgs, open := r.open[from]; open {
		r.open[from] = append(msgs, t.ID, t.Amount)
	}
}

// Close records the state of the channel from as what it holds (the
// channel key) and stops recording it; it reports false for a channel
// already closed, or none.
func (r *Recording) Close(ctx proc.Context, from proc.NodeID) bool {
	msgs, open := r.open[from]
	if !open {
		return false
	}
	delete(r.open, from)
	r.shut++
	ctx.Set(KeyChannel, append([]int{r.ID, int(from)}, msgs...))
	return true
}

// Done reports whether every incoming channel is recorded.
func (r *Recording) Done() bool { return r.shut == r.chans }
