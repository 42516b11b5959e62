package replay

import (
	"sort"

	snap "dsim/core/algo/snapshot"
	"dsim/core/trace"
)

// Recording is a snapshot as the processes of a snapshot algorithm
// recorded it, read from the state keys they set (see core/algo/snapshot):
// its cut, and the states recorded.
type Recording struct {
	ID int // the snapshot's id
	// At is, per process position, the index of the last event inside the
	// recorded cut: the process's recording event, or, when it recorded as
	// a message arrived, its last event before that delivery. A process
	// that did not record holds all its events (Recorded false).
	At []int
	// Upon is, per process position, the index of the delivery on which
	// it recorded, where it did (-1: it recorded at an event of its own,
	// or not at all): where the recording happened in time, the state
	// being that after At.
	Upon     []int
	Recorded []bool
	Balance  []int // the recorded balances, by position
	Channels []Channel
}

// Channel is a channel's recorded state: the transfers in flight on it.
type Channel struct {
	From, To int // process ids
	IDs      []int
	Amounts  []int
}

// Complete reports whether every process recorded its state.
func (rec *Recording) Complete() bool {
	for _, ok := range rec.Recorded {
		if !ok {
			return false
		}
	}
	return true
}

// Total is the recorded balances and the amounts in the recorded channels.
func (rec *Recording) Total() int {
	t := 0
	for _, b := range rec.Balance {
		t += b
	}
	for _, c := range rec.Channels {
		for _, a := range c.Amounts {
			t += a
		}
	}
	return t
}

// Recordings are the snapshots the events record, by id.
func (r *Replay) Recordings() []Recording {
	byID := map[int]*Recording{}
	var out []*Recording
	last := make([]int, len(r.Nodes)) // each process's last event so far
	for p := range last {
		last[p] = -1
	}
	get := func(id int) *Recording {
		rec := byID[id]
		if rec == nil {
			rec = &Recording{ID: id, At: make([]int, len(r.Nodes)), Upon: make([]int, len(r.Nodes)), Recorded: make([]bool, len(r.Nodes)), Balance: make([]int, len(r.Nodes))}
			for p := range rec.Upon {
				rec.Upon[p] = -1
			}
			byID[id] = rec
			out = append(out, rec)
		}
		return rec
	}
	for i := range r.Events {
		e := &r.Events[i]
		p := int(r.nodeOf[i])
		if p < 0 {
			continue
		}
		if e.Type == trace.State && (e.Key == snap.KeyRecorded || e.Key == snap.KeyChannel) {
			v, ok := trace.IntsOf(e.New)
			switch {
			case !ok:
			case e.Key == snap.KeyRecorded && len(v) == 2 && !get(v[0]).Recorded[p]:
				rec := get(v[0])
				rec.Recorded[p], rec.Balance[p], rec.At[p] = true, v[1], i
				// recorded as a message arrived: before its delivery
				if d := last[p]; d >= 0 && r.Events[d].Type == trace.Deliver && r.Events[d].Seq+1 == e.Seq {
					rec.At[p], rec.Upon[p] = r.before(d, p), d
				}
			case e.Key == snap.KeyChannel && len(v) >= 2 && len(v)%2 == 0:
				c := Channel{From: v[1], To: e.Node}
				for k := 2; k+1 < len(v); k += 2 {
					c.IDs, c.Amounts = append(c.IDs, v[k]), append(c.Amounts, v[k+1])
				}
				rec := get(v[0])
				rec.Channels = append(rec.Channels, c)
			}
		}
		last[p] = i
	}
	// a process that did not record holds every event it had
	res := make([]Recording, len(out))
	for k, rec := range out {
		for p, ok := range rec.Recorded {
			if !ok {
				rec.At[p] = last[p]
			}
		}
		res[k] = *rec
	}
	sort.Slice(res, func(a, b int) bool { return res[a].ID < res[b].ID })
	return res
}

// before is the index of process p's last event before index i, or -1.
func (r *Replay) before(i, p int) int {
	for j := i - 1; j >= 0; j-- {
		if int(r.nodeOf[j]) == p {
			return j
		}
	}
	return -1
}

// JudgeCut judges the cut that holds, per process position, its events up
// to index at[p] (-1: none) of the replay.
func (r *Replay) JudgeCut(at []int) trace.CutVerdict {
	cut := trace.Cut{}
	for p, i := range at {
		cut[r.Nodes[p]] = -1
		if i >= 0 {
			cut[r.Nodes[p]] = int64(r.Events[i].Seq)
		}
	}
	return trace.JudgeCut((&trace.World{Events: r.Events}).Each, cut)
}
