package check

import (
	"fmt"
	"slices"
	"strings"

	"dsim/core/algo/snapshot"
	"dsim/core/trace"
)

// The snapshot properties compare what the processes recorded (the keys
// recorded and channel, see core/algo/snapshot) with the run itself: the
// transfers sent and delivered, paired by message id and read from the
// messages (snapshot.Money), and the balances.
//
// The recorded cut of snapshot s holds, at each process, its events before
// its recording event (the recorded key set to [s, ...]); a recording
// event right after a delivery at its process (seq one less) is made by
// that delivery's handler before it receives the message, so that delivery
// is outside the cut. A delivery is therefore judged at the next event,
// once it is known whether that event is such a recording. Then, for each
// delivered transfer and snapshot s:
//
//   - sent outside the cut (after its sender recorded s) and received
//     inside it (before its receiver did): the cut is inconsistent;
//   - sent inside and received outside: it was in flight across the cut,
//     and belongs to the recorded state of its channel, which must not be
//     recorded yet (it would miss it).
//
// A recorded channel state must hold exactly the transfers found in flight
// on it so far; a transfer still undelivered when the property is judged
// and sent inside the cut of a channel already recorded is missing from it.
// Every pair of processes is a channel each way (the bank's complete
// graph): a snapshot is complete when every process with an account has
// recorded its state and the state of each of its n-1 incoming channels,
// and snapshot.conserved then adds up the recorded balances and channels.
type snapState struct {
	procs   map[int]*snapProc
	nprocs  int // the processes with an account
	total   int // the sum of their initial balances
	sent    map[uint64]snapSent
	snaps   map[int]*snapRec
	ids     []int       // snapshot ids in order of their first recording
	pending *snapSent   // a delivery waiting for the next event
	at      trace.Event // the pending delivery's event (t, seq, node)
	bad     violation   // snapshot.consistent
	lost    violation   // snapshot.conserved
}

type snapProc struct {
	opened bool        // its initial balance is counted
	at     map[int]int // snapshot id -> its index among the recordings here
	order  []int       // the snapshots recorded here, in order
}

// snapSent is a transfer in flight: its sender, receiver, and how many
// snapshots its sender had recorded when it sent it.
type snapSent struct {
	from, to int
	t        snapshot.Transfer
	k        int
}

func (x *snapSent) String() string {
	return fmt.Sprintf("transfer %d of %d from %d to %d", x.t.ID, x.t.Amount, x.from, x.to)
}

// inside reports whether x was sent inside the cut of snapshot s.
func (s *snapState) inside(x *snapSent, sid int) bool {
	i, ok := s.procs[x.from].at[sid]
	return !ok || i >= x.k
}

type snapRec struct {
	id            int
	states, chans int // recorded so far
	sum, money    int // the recorded balances and channel amounts
	channel       map[[2]int]*chanRec
	complete      bool
}

// chanRec is a channel (from, to) of a snapshot: the id, amount pairs of
// the transfers found in flight on it, and whether it was recorded.
type chanRec struct {
	want     []int
	recorded bool
}

func (s *snapState) proc(id int) *snapProc {
	p := s.procs[id]
	if p == nil {
		p = &snapProc{at: map[int]int{}}
		s.procs[id] = p
	}
	return p
}

func (s *snapState) snap(id int) *snapRec {
	r := s.snaps[id]
	if r == nil {
		r = &snapRec{id: id, channel: map[[2]int]*chanRec{}}
		s.snaps[id] = r
		s.ids = append(s.ids, id)
	}
	return r
}

func (r *snapRec) chanOf(from, to int) *chanRec {
	c := r.channel[[2]int{from, to}]
	if c == nil {
		c = &chanRec{}
		r.channel[[2]int{from, to}] = c
	}
	return c
}

func (s *snapState) observe(e *trace.Event) {
	if x := s.pending; x != nil {
		s.pending = nil
		if e.Type == trace.State && e.Key == snapshot.KeyRecorded && e.Node == x.to && e.Seq == s.at.Seq+1 {
			s.record(e)
			s.deliver(x, &s.at)
			return
		}
		s.deliver(x, &s.at)
	}
	switch e.Type {
	case trace.Send:
		// Only a bank (a process with a balance) has transfers: a run of
		// another algorithm costs a comparison per message.
		if m, ok := e.Msg.(snapshot.Money); ok && s.nprocs > 0 {
			s.sent[e.MsgID] = snapSent{e.From, e.To, m.Money(), len(s.proc(e.From).order)}
		}
	case trace.Deliver:
		if x, ok := s.sent[e.MsgID]; ok {
			delete(s.sent, e.MsgID)
			s.pending, s.at = &x, trace.Event{T: e.T, Seq: e.Seq, Node: e.Node}
		}
	case trace.Drop:
		delete(s.sent, e.MsgID)
	case trace.State:
		switch e.Key {
		case snapshot.KeyBalance:
			if p := s.proc(e.Node); !p.opened && isInt(e.New) {
				p.opened = true
				s.nprocs++
				s.total += toInt(e.New)
			}
		case snapshot.KeyRecorded:
			s.record(e)
		case snapshot.KeyChannel:
			s.channel(e)
		}
	}
}

// deliver judges a delivered transfer against every snapshot.
func (s *snapState) deliver(x *snapSent, e *trace.Event) {
	from, to := s.proc(x.from), s.proc(x.to)
	for _, sid := range from.order[:x.k] {
		if _, ok := to.at[sid]; !ok {
			s.bad.add(e, "snapshot %d: %s was sent after %d recorded its state and received before %d did: the cut is inconsistent", sid, x, x.from, x.to)
		}
	}
	for _, sid := range to.order {
		if !s.inside(x, sid) {
			continue
		}
		c := s.snaps[sid].chanOf(x.from, x.to)
		if c.recorded {
			s.bad.add(e, "snapshot %d: %s was in flight across the cut and is missing from the channel state %d recorded", sid, x, x.to)
			continue
		}
		c.want = append(c.want, x.t.ID, x.t.Amount)
	}
}

func (s *snapState) record(e *trace.Event) {
	v, ok := e.New.([]int)
	if !ok || len(v) != 2 {
		s.bad.add(e, "process %d's recorded state is %s, not [snapshot, balance]", e.Node, trace.AppendJSON(nil, e.New))
		return
	}
	p := s.proc(e.Node)
	if _, twice := p.at[v[0]]; twice {
		s.bad.add(e, "snapshot %d: process %d recorded its state twice", v[0], e.Node)
		return
	}
	p.at[v[0]] = len(p.order)
	p.order = append(p.order, v[0])
	r := s.snap(v[0])
	r.states++
	r.sum += v[1]
	s.complete(e, r)
}

func (s *snapState) channel(e *trace.Event) {
	v, ok := e.New.([]int)
	if !ok || len(v) < 2 || len(v)%2 != 0 {
		s.bad.add(e, "process %d's recorded channel is %s, not [snapshot, from, id, amount, ...]", e.Node, trace.AppendJSON(nil, e.New))
		return
	}
	sid, from := v[0], v[1]
	if _, ok := s.proc(e.Node).at[sid]; !ok {
		s.bad.add(e, "snapshot %d: process %d recorded its channel from %d before its own state", sid, e.Node, from)
		return
	}
	r := s.snap(sid)
	c := r.chanOf(from, e.Node)
	if c.recorded {
		s.bad.add(e, "snapshot %d: process %d recorded its channel from %d twice", sid, e.Node, from)
		return
	}
	c.recorded = true
	got := v[2:]
	if pairsText(got) != pairsText(c.want) {
		s.bad.add(e, "snapshot %d: process %d recorded its channel from %d as %s, but the transfers in flight on it across the cut are %s", sid, e.Node, from, pairsText(got), pairsText(c.want))
	}
	c.want = nil
	r.chans++
	for i := 1; i < len(got); i += 2 {
		r.money += got[i]
	}
	s.complete(e, r)
}

// complete judges snapshot.conserved once a snapshot is complete.
func (s *snapState) complete(e *trace.Event, r *snapRec) {
	if r.complete || r.states != s.nprocs || r.chans != s.nprocs*(s.nprocs-1) {
		return
	}
	r.complete = true
	if r.sum+r.money != s.total {
		s.lost.add(e, "snapshot %d records a total of %d (balances %d, channels %d), but the bank holds %d", r.id, r.sum+r.money, r.sum, r.money, s.total)
	}
}

// pairsText lists id, amount pairs sorted by id: "[#3 (10), #5 (7)]".
func pairsText(pairs []int) string {
	ps := make([][2]int, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		ps = append(ps, [2]int{pairs[i], pairs[i+1]})
	}
	slices.SortFunc(ps, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	b.WriteByte('[')
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "#%d (%d)", p[0], p[1])
	}
	return b.String() + "]"
}

func (m *Monitor) snapshotConsistent(int64) (bool, string) {
	s := &m.snap
	if x := s.pending; x != nil {
		s.pending = nil
		s.deliver(x, &s.at)
	}
	if s.bad.text != "" {
		return false, s.bad.text + more(s.bad.more)
	}
	// A transfer still in flight, sent inside the cut of a channel already
	// recorded, is missing from it (the first such in the order of these
	// texts, which does not depend on the map's).
	var missing []string
	for _, x := range s.sent {
		to := s.procs[x.to]
		if to == nil {
			continue
		}
		for _, sid := range to.order {
			if s.inside(&x, sid) && s.snaps[sid].chanOf(x.from, x.to).recorded {
				missing = append(missing, fmt.Sprintf("snapshot %d: %s is still in flight across the cut and missing from the channel state %d recorded", sid, &x, x.to))
			}
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return false, missing[0] + more(len(missing)-1)
	}
	states, chans := 0, 0
	for _, id := range s.ids {
		states += s.snaps[id].states
		chans += s.snaps[id].chans
	}
	return true, fmt.Sprintf("%d snapshots: every recorded cut consistent (%d process states) and each of %d recorded channel states the transfers in flight across it", len(s.ids), states, chans)
}

func (m *Monitor) snapshotConserved(int64) (bool, string) {
	s := &m.snap
	if s.lost.text != "" {
		return false, s.lost.text + more(s.lost.more)
	}
	done := 0
	for _, id := range s.ids {
		if s.snaps[id].complete {
			done++
		}
	}
	text := fmt.Sprintf("%d complete snapshots each record the bank's total of %d", done, s.total)
	if open := len(s.ids) - done; open > 0 {
		text += fmt.Sprintf("; %d incomplete, not judged", open)
	}
	return true, text
}
