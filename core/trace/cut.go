package trace

// A cut of a run takes, at each process, the events up to one of its own
// (Coulouris, "Global states": a cut is consistent if, for each event it
// contains, it also contains all the events that happened before it). The
// only way a cut can miss an event that happened before one it holds is
// through a message: it holds the delivery and not the send. Such a
// message crosses the cut backwards. The messages sent inside the cut and
// not delivered inside it are the channels' states a snapshot at the cut
// records.

// Cut gives, per process id, the seq of the last event of that process the
// cut holds; -1, or a process missing from it, holds none of its events.
type Cut map[int]int64

// Holds reports whether the cut holds e (an event at a process).
func (c Cut) Holds(e *Event) bool {
	last, ok := c[e.Node]
	return ok && e.Node != NoNode && int64(e.Seq) <= last
}

// Crossing is a message across a cut: its send and its delivery (the
// seqs; Deliver is -1 for a message not delivered).
type Crossing struct {
	Send, Deliver int64
	From, To      int
	Kind          string
	MsgID         uint64
}

// CutVerdict is what a cut of a run is.
type CutVerdict struct {
	// Backward are the messages the cut holds the delivery of and not the
	// send: the cut is consistent when there are none.
	Backward []Crossing
	// InFlight are the messages sent inside the cut and neither delivered
	// nor dropped inside it, in send order.
	InFlight []Crossing
}

// Consistent reports whether no message crosses the cut backwards.
func (v *CutVerdict) Consistent() bool { return len(v.Backward) == 0 }

// JudgeCut judges cut c of the events each hands its function, in order.
func JudgeCut(each func(func(*Event)), c Cut) CutVerdict {
	type sent struct {
		Crossing
		inside, ended bool // sent inside; delivered or dropped inside
	}
	var v CutVerdict
	var sends []sent
	bySend := map[uint64]int{} // message id -> its latest send in sends
	each(func(e *Event) {
		switch e.Type {
		case Send:
			bySend[e.MsgID] = len(sends)
			sends = append(sends, sent{Crossing: Crossing{Send: int64(e.Seq), Deliver: -1, From: e.From, To: e.To, Kind: e.Kind, MsgID: e.MsgID}, inside: c.Holds(e)})
		case Deliver, Drop:
			k, ok := bySend[e.MsgID]
			if !ok || !c.Holds(e) {
				return
			}
			s := &sends[k]
			s.ended = true
			if e.Type == Deliver && !s.inside {
				x := s.Crossing
				x.Deliver = int64(e.Seq)
				v.Backward = append(v.Backward, x)
			}
		}
	})
	for _, s := range sends {
		if s.inside && !s.ended {
			v.InFlight = append(v.InFlight, s.Crossing)
		}
	}
	return v
}
