// Package window cuts a stretch out of a recorded world, so that the
// playground can show any part of a run too long to hand to the page whole:
// the page asks the engine for a window of events and reads it as a world
// of its own.
//
// A window alone would start from nothing: every process without state,
// every message delivered at its start sent by no one. So the cut world
// starts with a prelude of the earlier events the window needs, which are
// real events of the run with their own times and sequence numbers: for
// every process the window names, its last crash or recovery and, for each
// state key it holds, the event that set the key and the one that last
// changed it; and the sends of the messages the window delivers or drops. Replaying the cut world to the end of its prelude gives those
// processes the state they had when the window starts.
package window

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"dsim/core/trace"
)

// MaxPrelude bounds the prelude: an algorithm keeping thousands of state
// keys per process would make the state before a window larger than the
// window the page can read.
const MaxPrelude = 200_000

// How says where a window lies with respect to the position asked for.
type How int

const (
	After  How = iota // the window starts at the position
	Before            // the window ends just before it
	Around            // the window holds the event at the position, in its middle
)

// Span chooses the window of at most count events of w that lies as how
// says with respect to position at, and names at most procs processes
// (at least one event, whatever it names): a window in a run of a hundred
// thousand processes where each starts by setting its state would
// otherwise name thousands, more than the page can draw at once. It
// returns the window's bounds [from, to).
func Span(w *trace.World, at, count, procs int, how How) (from, to int) {
	n := w.Len()
	at, count, procs = min(max(at, 0), n), max(count, 1), max(procs, 1)
	switch how {
	case Before:
		return back(w, at, count, procs), at
	case Around:
		from = back(w, min(at+1, n), (count+1)/2, (procs+1)/2)
		return from, forth(w, from, count, procs)
	}
	return at, forth(w, at, count, procs)
}

// forth is the end of the window of at most count events from position
// from that names at most procs processes.
func forth(w *trace.World, from, count, procs int) int {
	to := from
	named := map[int]bool{}
	full := false
	w.EachIn(from, from+count, func(e *trace.Event) {
		if full = full || !fits(named, e, procs); !full {
			to++
		}
	})
	return to
}

// back is the start of the window of at most count events ending before
// position to that names at most procs processes.
func back(w *trace.World, to, count, procs int) int {
	var events []trace.Event
	w.EachIn(to-count, to, func(e *trace.Event) { events = append(events, *e) })
	named := map[int]bool{}
	from := to
	for i := len(events) - 1; i >= 0 && fits(named, &events[i], procs); i-- {
		from--
	}
	return from
}

// fits adds the processes e names to named, unless that would make more
// than procs, and reports whether it did; the first event always fits.
func fits(named map[int]bool, e *trace.Event, procs int) bool {
	ids := names(e)
	added := 0
	for k, id := range ids {
		if !named[id] && id != trace.NoNode && !slices.Contains(ids[:k], id) {
			added++
		}
	}
	if len(named)+added > procs && len(named) > 0 {
		return false
	}
	for _, id := range ids {
		if id != trace.NoNode {
			named[id] = true
		}
	}
	return true
}

// names are the processes an event names: its own, and a message's two
// ends (NoNode for none).
func names(e *trace.Event) [3]int {
	switch e.Type {
	case trace.Send, trace.Deliver, trace.Drop:
		return [3]int{e.Node, e.From, e.To}
	}
	return [3]int{e.Node, trace.NoNode, trace.NoNode}
}

// PositionAt is the position of w's first event at time t or later
// (w.Len() when none is): events are in time order.
func PositionAt(w *trace.World, t int64) int {
	return sort.Search(w.Len(), func(i int) bool {
		var ti int64
		w.EachIn(i, i+1, func(e *trace.Event) { ti = e.T })
		return ti >= t
	})
}

// StartTime is the time of w's run just before position from: the time
// of the event before it, or 0.
func StartTime(w *trace.World, from int) int64 {
	var t int64
	w.EachIn(from-1, from, func(e *trace.Event) { t = e.T })
	return t
}

// Cut returns the world made of the prelude and the events of w from
// position from to position to (excluded), both clamped to the world. Its
// header lists only the processes the result names, in w's order, with
// their links among themselves.
func Cut(w *trace.World, from, to int) (trace.World, error) {
	from = min(max(from, 0), w.Len())
	to = min(max(to, from), w.Len())
	named := map[int]bool{}
	sent := map[uint64]bool{} // sends in the window
	need := map[uint64]bool{} // messages the window delivers or drops, sent before it
	win := make([]trace.Event, 0, to-from)
	w.EachIn(from, to, func(e *trace.Event) {
		win = append(win, *e)
		for _, id := range names(e) {
			if id != trace.NoNode {
				named[id] = true
			}
		}
		switch e.Type {
		case trace.Send:
			sent[e.MsgID] = true
		case trace.Deliver, trace.Drop:
			if !sent[e.MsgID] {
				need[e.MsgID] = true
			}
		}
	})

	// A process's state keys are listed in the order they were added (see
	// replay.View), so a key's prelude is the event that added it as well
	// as its last value.
	type keyEvents struct{ added, last trace.Event }
	state := map[int]map[string]*keyEvents{} // by process, then key, since its last crash or recovery
	life := map[int]trace.Event{}            // last crash or recovery
	sends := map[uint64]trace.Event{}        // the latest send of each needed message
	w.EachIn(0, from, func(e *trace.Event) {
		switch e.Type {
		case trace.State:
			if !named[e.Node] {
				return
			}
			keys := state[e.Node]
			if keys == nil {
				keys = map[string]*keyEvents{}
				state[e.Node] = keys
			}
			switch k := keys[e.Key]; {
			case e.New == nil:
				delete(keys, e.Key)
			case k == nil:
				keys[e.Key] = &keyEvents{added: *e, last: *e}
			default:
				k.last = *e
			}
		case trace.Crash, trace.Recover:
			if named[e.Node] {
				life[e.Node] = *e
				delete(state, e.Node) // both start the process without state
			}
		case trace.Send:
			if need[e.MsgID] {
				sends[e.MsgID] = *e
			}
		}
	})
	var events []trace.Event
	for _, keys := range state {
		for _, k := range keys {
			events = append(events, k.added)
			if k.last.Seq != k.added.Seq {
				events = append(events, k.last)
			}
		}
	}
	for _, e := range life {
		events = append(events, e)
	}
	for _, e := range sends {
		events = append(events, e)
	}
	if len(events) > MaxPrelude {
		return trace.World{}, fmt.Errorf("the state of the run before event %d takes %d events, more than the %d a window may carry", from, len(events), MaxPrelude)
	}
	slices.SortFunc(events, func(a, b trace.Event) int { return cmp.Compare(a.Seq, b.Seq) })
	return trace.World{Header: header(&w.Header, named), Events: append(events, win...)}, nil
}

// header is h restricted to the processes named.
func header(h *trace.Header, named map[int]bool) trace.Header {
	out := *h
	out.IDs, out.Adj = nil, nil
	for i, id := range h.IDs {
		if !named[id] {
			continue
		}
		out.IDs = append(out.IDs, id)
		if h.Adj == nil {
			continue
		}
		var adj []int
		for _, n := range h.Adj[i] {
			if named[n] {
				adj = append(adj, n)
			}
		}
		out.Adj = append(out.Adj, adj)
	}
	return out
}
