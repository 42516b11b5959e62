package window

import (
	"os"
	"slices"
	"testing"

	_ "dsim/core/algo/all" // the examples' algorithms
	"dsim/core/script"
	"dsim/core/trace"
	"dsim/wasm/replay"
)

// run returns the first world of a shipped example, its events as a slice.
func run(t *testing.T, path string) *trace.World {
	t.Helper()
	src, err := os.ReadFile("../../scripts/examples/" + path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := script.Run(path, src, script.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	w := res.Worlds[0]
	if w.Rec != nil {
		w.Events, w.Rec = w.Rec.Events(), nil
	}
	if len(w.Events) < 20 {
		t.Fatalf("%s: %d events, too few to cut", path, len(w.Events))
	}
	return &w
}

// TestCutStartsFromTheRunsState replays windows cut at several places of
// runs with crashes, drops and critical sections: at the end of its
// prelude, every process of a window is up or down and holds the state it
// had at that point of the whole run, and every message the window
// delivers comes from its send.
func TestCutStartsFromTheRunsState(t *testing.T) {
	for _, path := range []string{"election/bully-textbook.lua", "mutex/tokenring-token-loss.lua", "mutex/lamport-no-fifo.lua", "election/changroberts-worst.lua"} {
		w := run(t, path)
		whole := replay.New(w, 0)
		n := len(w.Events)
		for _, from := range []int{0, 1, n / 3, n / 2, 2 * n / 3, n - 1, n} {
			count := n / 4
			cut, err := Cut(w, from, from+count)
			if err != nil {
				t.Fatalf("%s from %d: %v", path, from, err)
			}
			to := min(from+count, n)
			prelude := len(cut.Events) - (to - from)
			if !slices.EqualFunc(cut.Events[prelude:], w.Events[from:to], same) {
				t.Fatalf("%s from %d: the window is not events %d to %d", path, from, from, to)
			}
			for _, e := range cut.Events[:prelude] {
				if e.Seq >= uint64(from) || !same(e, w.Events[e.Seq]) {
					t.Fatalf("%s from %d: prelude event %+v is not an event of the run before the window", path, from, e)
				}
			}
			if want := int64(0); from > 0 {
				want = w.Events[from-1].T
				if got := StartTime(w, from); got != want {
					t.Errorf("%s: the time before event %d is %d, want %d", path, from, got, want)
				}
			}
			part := replay.New(&cut, 0)
			got, want := part.At(prelude), whole.At(from)
			for p, id := range part.Nodes {
				q, ok := whole.Pos(id)
				if !ok {
					t.Fatalf("%s from %d: process %d is not in the run", path, from, id)
				}
				if got.Up[p] != want.Up[q] || !slices.Equal(got.State[p], want.State[q]) {
					t.Errorf("%s from %d: process %d starts the window up=%v %v, the run has it up=%v %v", path, from, id, got.Up[p], got.State[p], want.Up[q], want.State[q])
				}
			}
			for i := prelude; i < len(cut.Events); i++ {
				e := cut.Events[i]
				if (e.Type == trace.Deliver || e.Type == trace.Drop) && (part.SendOf(i) < 0) != (whole.SendOf(from+i-prelude) < 0) {
					t.Errorf("%s from %d: %s of message %d lost its send", path, from, e.Type, e.MsgID)
				}
			}
			if !isSubsequence(cut.Header.IDs, w.Header.IDs) {
				t.Errorf("%s from %d: header ids %v are not the run's %v in order", path, from, cut.Header.IDs, w.Header.IDs)
			}
		}
	}
}

// same compares two events on the fields the encoders write.
func same(a, b trace.Event) bool {
	return string(trace.AppendJSONL(nil, &a)) == string(trace.AppendJSONL(nil, &b))
}

func isSubsequence(sub, of []int) bool {
	k := 0
	for _, x := range of {
		if k < len(sub) && sub[k] == x {
			k++
		}
	}
	return k == len(sub)
}

// TestCutNamesOnlyItsProcesses cuts a stretch of a Chang-Roberts run on a
// ring: the header keeps the processes the window names, with their ring
// links among themselves only.
func TestCutNamesOnlyItsProcesses(t *testing.T) {
	w := &trace.World{Header: trace.Header{IDs: []int{1, 2, 3, 4}, Adj: [][]int{{2, 4}, {1, 3}, {2, 4}, {3, 1}}}, Events: []trace.Event{
		{Seq: 0, Type: trace.State, Node: 1, Key: "role", New: "candidate"},
		{Seq: 1, Type: trace.Send, Node: 1, From: 1, To: 2, MsgID: 1, Kind: "ELECTION"},
		{Seq: 2, Type: trace.State, Node: 4, Key: "role", New: "follower"},
		{Seq: 3, Type: trace.Deliver, Node: 2, From: 1, To: 2, MsgID: 1, Kind: "ELECTION"},
		{Seq: 4, Type: trace.Send, Node: 2, From: 2, To: 3, MsgID: 2, Kind: "ELECTION"},
	}}
	cut, err := Cut(w, 3, 8)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cut.Header.IDs, []int{1, 2, 3}) {
		t.Errorf("ids %v, want [1 2 3]", cut.Header.IDs)
	}
	if want := [][]int{{2}, {1, 3}, {2}}; !slices.EqualFunc(cut.Header.Adj, want, slices.Equal) {
		t.Errorf("links %v, want %v", cut.Header.Adj, want)
	}
	var seqs []uint64
	for _, e := range cut.Events {
		seqs = append(seqs, e.Seq)
	}
	if !slices.Equal(seqs, []uint64{0, 1, 3, 4}) { // process 4's state is not the window's
		t.Errorf("events %v, want seqs [0 1 3 4]", seqs)
	}
}

// TestSpan chooses windows on a Chang-Roberts run of 300 processes, where
// each process starts by setting its state: a window names at most the
// processes asked for, windows after one another tile the run, and a
// window before or around a position ends there or holds it.
func TestSpan(t *testing.T) {
	src := []byte(`local w = sim.world{algorithm = "election.changroberts", n = 300}; w:command(1, "elect"); w:run()`)
	res, err := script.Run("cr.lua", src, script.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	w := &res.Worlds[0]
	n := w.Len()
	procs := func(from, to int) int {
		named := map[int]bool{}
		w.EachIn(from, to, func(e *trace.Event) {
			for _, id := range names(e) {
				if id != trace.NoNode {
					named[id] = true
				}
			}
		})
		return len(named)
	}
	windows := 0
	for from := 0; from < n; windows++ {
		f, to := Span(w, from, 500, 40, After)
		if f != from || to <= from || to-from > 500 || procs(f, to) > 40 {
			t.Fatalf("window after %d: [%d, %d) naming %d processes", from, f, to, procs(f, to))
		}
		if to < n && to-from < 500 && procs(f, to+1) <= 40 {
			t.Fatalf("window after %d stops at %d though event %d fits", from, to, to)
		}
		from = to
	}
	if windows < n/500+2 {
		t.Errorf("%d windows of %d events: the process bound never cut one short", windows, n)
	}
	// The window before the second one is the first.
	_, end := Span(w, 0, 500, 40, After)
	if f, to := Span(w, end, 500, 40, Before); f != 0 || to != end {
		t.Errorf("window before [%d, ...): [%d, %d), want [0, %d)", end, f, to, end)
	}
	for _, at := range []int{0, 1, n / 2, n - 1, n} {
		if f, to := Span(w, at, 500, 40, Before); to != at || f > at || procs(f, to) > 40 || (at > 0 && f == at) {
			t.Errorf("window before %d: [%d, %d)", at, f, to)
		}
		if f, to := Span(w, at, 500, 40, Around); (at < n && (f > at || to <= at)) || procs(f, to) > 40 || to-f > 500 {
			t.Errorf("window around %d: [%d, %d)", at, f, to)
		}
	}
}

// PositionAt finds the first event at a time or later, by bisection.
func TestPositionAt(t *testing.T) {
	w := run(t, "election/bully-textbook.lua")
	n := len(w.Events)
	end := w.Events[n-1].T
	for _, at := range []int64{-1, 0, 1, end / 3, end / 2, end, end + 1} {
		i := PositionAt(w, at)
		if (i < n && w.Events[i].T < at) || (i > 0 && w.Events[i-1].T >= at) {
			t.Errorf("PositionAt(%d) = %d, not the first event at t=%d or later", at, i, at)
		}
	}
}
