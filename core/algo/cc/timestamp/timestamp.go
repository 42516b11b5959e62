// Package timestamp is timestamp ordering: every item keeps the largest
// timestamps of the transactions that read and wrote it, and an access
// that comes too late for its timestamp is rejected and its transaction
// rolled back, to restart with a new timestamp.
package timestamp

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/cc"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

// KeyItemTS is a site's copies' timestamps.
const KeyItemTS = "item_ts"

func init() {
	algo.Register(algo.Spec{
		Name:    "cc.timestamp",
		Summary: "timestamp ordering: each item keeps W-timestamp and R-timestamp; a read older than the last write, or a write older than the last read or write, is rejected and its transaction rolled back with a new timestamp; no locks, no deadlock",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Timestamping" (the generation of unique timestamps) and the timestamp-based protocol of the chapter before it, on transactions, whose rules the distributed scheme applies at each item's site (followed here; the words are ours):
Timestamps: each site makes a unique local timestamp from a logical counter or its local clock (config clock picks the clock; a counter by default), and the global unique timestamp is the local one concatenated with the site's identifier, the identifier in the least significant position so that one site's timestamps are not always larger than another's. A site whose local timestamps lag behind would be unfair to its transactions, so each site keeps a logical clock that it advances past the timestamp of any transaction visiting it (to x + 1 for a timestamp <x, y> above it).
Each item Q keeps W-timestamp(Q) and R-timestamp(Q), the largest timestamps of the transactions that executed write(Q) and read(Q). Read rule: if TS(Ti) < W-timestamp(Q), Ti would read a value of Q already overwritten: the read is rejected and Ti rolled back; otherwise it runs and R-timestamp(Q) becomes max(R-timestamp(Q), TS(Ti)). Write rule: if TS(Ti) < R-timestamp(Q), the value Ti writes was needed before and the system assumed it would never be produced: rejected, Ti rolled back; if TS(Ti) < W-timestamp(Q), Ti writes an obsolete value: rejected, Ti rolled back; otherwise the write runs and W-timestamp(Q) becomes TS(Ti). A transaction rolled back by these rules gets a new timestamp and restarts. Conflicting operations thus run in timestamp order, so the schedules are conflict serializable, and as no transaction ever waits there is no deadlock.
Where the text is silent: each operation is sent to the item's site (REQUEST, mode 1 read, 2 write), which applies the rule and answers GRANT (executed) or ABORT (rejected: the home site rolls the transaction back; the ABORT carries the item's larger timestamp, which the home's logical clock advances past as the chapter's LCi rule has it, so that the new timestamp is later and the restart is not rejected again for the same reason); a read goes to the copy nearest the home site, a write to every copy, as the biased protocol locks them. A transaction commits after its last operation with no further message (there are no locks to release); a rolled-back transaction's writes are not undone (values are not modelled: cascading rollback is out of scope). The state key item_ts shows a site's [item, R-timestamp, W-timestamp, ...] after each change, in increasing item code.
` + cc.Model,
		Topology:    "complete",
		Assumptions: algo.Assumptions{FIFO: true},
		Config: append(cc.Params(1),
			algo.Param{Name: "clock", Type: algo.Bool, Default: false, Doc: "timestamps from the local clock (its reading, concatenated with the site id) rather than a logical counter"}),
		Commands: txn.Commands,
		State: append(slices.Clone(txn.State),
			algo.StateKey{Key: KeyItemTS, Doc: "at a site holding items: [item, R-timestamp, W-timestamp, ...] of its copies after each change, in increasing item code (0: none yet)"}),
		Messages:   txn.Messages,
		Properties: []algo.Property{cc.Serializable},
		Check:      txn.Check,
		New: func(v algo.Values) (proc.Factory, error) {
			cfg, err := txn.NewConfig(v)
			if err != nil {
				return nil, err
			}
			clock := v.Bool("clock")
			return func(proc.NodeID) proc.Node {
				p := &node{}
				p.Site = txn.Site{Config: cfg, Scheme: cc.ReadOneWriteAll, NewStamp: true, ClockStamps: clock, Serve: p.serve}
				return p
			}, nil
		},
		Memory: cc.Memory,
	})
}

type node struct {
	txn.Site
	stamps []int // [item, R-timestamp, W-timestamp, ...] of the copies accessed here, by item
}

func (p *node) Start(ctx proc.Context) {
	p.stamps = nil
	p.Site.Start(ctx)
}

// at is the index of item's entry in stamps, added if new.
func (p *node) at(item int) int {
	for i := 0; i < len(p.stamps); i += 3 {
		if p.stamps[i] == item {
			return i
		}
		if p.stamps[i] > item {
			p.stamps = slices.Insert(p.stamps, i, item, 0, 0)
			return i
		}
	}
	p.stamps = append(p.stamps, item, 0, 0)
	return len(p.stamps) - 3
}

// serve applies the read and write rules to an access request.
func (p *node) serve(ctx proc.Context, from proc.NodeID, r txn.Request) {
	i := p.at(r.Item)
	rts, wts, ts := &p.stamps[i+1], &p.stamps[i+2], r.TS
	write := txn.Mode(r.Mode) == txn.X
	switch {
	case !write && ts < *wts:
		ctx.Log("read(%s) by T%d rejected: TS(T%d) < W-timestamp(%s)", txn.ItemName(r.Item), r.T, r.T, txn.ItemName(r.Item))
	case write && ts < *rts:
		ctx.Log("write(%s) by T%d rejected: TS(T%d) < R-timestamp(%s)", txn.ItemName(r.Item), r.T, r.T, txn.ItemName(r.Item))
	case write && ts < *wts:
		ctx.Log("write(%s) by T%d rejected: TS(T%d) < W-timestamp(%s), an obsolete value", txn.ItemName(r.Item), r.T, r.T, txn.ItemName(r.Item))
	default:
		if write {
			*wts = ts
		} else {
			*rts = max(*rts, ts)
		}
		p.Access(ctx, r.T, r.Try, r.Item, write)
		ctx.Set(KeyItemTS, p.stamps)
		p.Send(ctx, from, txn.Grant{T: r.T, Try: r.Try, Item: r.Item, Done: true})
		return
	}
	// The rejection carries the item's timestamps, so that the restart's
	// new timestamp, from the home's logical clock, is past them.
	p.Send(ctx, from, txn.Abort{T: r.T, Try: r.Try, TS: max(*rts, *wts)})
}
