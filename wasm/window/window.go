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

	"dsim/core/trace"
)

// MaxPrelude bounds the prelude: an algorithm keeping thousands of state
// keys per process would make the state before a window larger than the
// window the page can read.
const MaxPrelude = 200_000

// Cut returns the world made of the prelude and the count events of w from
// position from (both clamped to the world). Its header lists only the
// processes the result names, in w's order, with their links among
// themselves.
func Cut(w *trace.World, from, count int) (trace.World, error) {
	from = min(max(from, 0), w.Len())
	to := min(from+max(count, 0), w.Len())
	named := map[int]bool{}
	sent := map[uint64]bool{} // sends in the window
	need := map[uint64]bool{} // messages the window delivers or drops, sent before it
	win := make([]trace.Event, 0, to-from)
	w.EachIn(from, to, func(e *trace.Event) {
		win = append(win, *e)
		if e.Node != trace.NoNode {
			named[e.Node] = true
		}
		switch e.Type {
		case trace.Send:
			named[e.From], named[e.To] = true, true
			sent[e.MsgID] = true
		case trace.Deliver, trace.Drop:
			named[e.From], named[e.To] = true, true
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
