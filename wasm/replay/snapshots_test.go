package replay

import (
	"testing"

	"dsim/wasm/internal/runs"
)

// The page reads Chandy-Lamport's bank snapshot (Coulouris's 14.5.3, as
// the scenario snapshot/bank sets it up) from the recorded and channel
// keys: balances 70, 50 and 100, the 30 and the 50 recorded in the
// channels 1→2 and 2→1, 300 in all; the cut it draws is consistent and the
// transfers in flight across it are those two.
func TestRecordingsOfTheBankSnapshot(t *testing.T) {
	worlds, err := runs.Example("snapshot/bank.lua")
	if err != nil {
		t.Fatal(err)
	}
	r := New(&worlds[0], 0)
	recs := r.Recordings()
	if len(recs) != 1 {
		t.Fatalf("%d recordings, want 1", len(recs))
	}
	rec := recs[0]
	if rec.ID != 1 || !rec.Complete() || rec.Total() != 300 {
		t.Errorf("snapshot %d, complete %v, total %d: want 1, true, 300", rec.ID, rec.Complete(), rec.Total())
	}
	for p, want := range []int{70, 50, 100} {
		if r.Nodes[p] != p+1 || rec.Balance[p] != want {
			t.Errorf("P%d recorded %d, want %d", r.Nodes[p], rec.Balance[p], want)
		}
	}
	held := map[[2]int]int{}
	for _, c := range rec.Channels {
		for _, a := range c.Amounts {
			held[[2]int{c.From, c.To}] += a
		}
	}
	if len(held) != 2 || held[[2]int{1, 2}] != 30 || held[[2]int{2, 1}] != 50 {
		t.Errorf("channels hold %v, want 30 on 1→2 and 50 on 2→1", held)
	}
	v := r.JudgeCut(rec.At)
	if !v.Consistent() || len(v.InFlight) != 2 {
		t.Errorf("the recorded cut: consistent %v, %d in flight, want true and 2", v.Consistent(), len(v.InFlight))
	}
	// P1 initiates: it records at its own event; P2 and P3 record upon a
	// MARKER's delivery, their state that after their previous event.
	for p := range r.Nodes {
		u := rec.Upon[p]
		switch {
		case p == 0 && u != -1:
			t.Errorf("P1 recorded upon event %d, want at its own event", u)
		case p > 0 && (u < 0 || r.Events[u].Type.String() != "deliver" || r.Events[u].Kind != "MARKER" || r.NodeOf(u) != p || u <= rec.At[p]):
			t.Errorf("P%d recorded upon event %d, want a MARKER's delivery to it after %d", r.Nodes[p], u, rec.At[p])
		}
	}
}

// Without FIFO links the marker overtakes a transfer (snapshot/broken-cut):
// the page reads the recorded total, 190 of 200, and its cut crosses that
// transfer backwards; Lai-Yang on the same schedule records 200.
func TestRecordingsOfTheBrokenCut(t *testing.T) {
	worlds, err := runs.Example("snapshot/broken-cut.lua")
	if err != nil {
		t.Fatal(err)
	}
	totals := map[string]int{}
	for i := range worlds {
		r := New(&worlds[i], 0)
		for _, rec := range r.Recordings() {
			if rec.Complete() {
				totals[worlds[i].Header.Algorithm] = rec.Total()
			}
		}
	}
	if totals["snapshot.chandylamport"] != 190 || totals["snapshot.laiyang"] != 200 {
		t.Errorf("recorded totals %v, want 190 (Chandy-Lamport) and 200 (Lai-Yang)", totals)
	}
}
