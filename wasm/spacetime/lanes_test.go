package spacetime

import (
	"fmt"
	"reflect"
	"testing"

	"dsim/core/algo/election"
	"dsim/core/algo/mutex"
	"dsim/core/trace"
)

func cs(t int64, node int, value string) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: mutex.KeyCS, New: value}
}

// lanesOf lists each process's intervals as "class t0-t1", by process id.
func lanesOf(d *Diagram) map[int][]string {
	out := map[int][]string{}
	for p, ivs := range d.lanes {
		for _, iv := range ivs {
			out[d.R.Nodes[p]] = append(out[d.R.Nodes[p]], fmt.Sprintf("%s %d-%d", Lanes[iv.lane], iv.t0, iv.t1))
		}
	}
	return out
}

// A process enters and leaves its critical section, another crashes and
// recovers, a third is leader from t=5 to the end of the run.
func TestLanes(t *testing.T) {
	if len(Lanes) != NumLanes {
		t.Fatalf("%d lanes, NumLanes %d", len(Lanes), NumLanes)
	}
	d := New(script(3, []trace.Event{
		cs(0, 1, mutex.Released),
		cs(1, 1, mutex.Wanted),
		cs(2, 1, mutex.Held),
		{T: 3, Type: trace.Crash, Node: 2},
		{T: 5, Type: trace.State, Node: 3, Key: election.KeyRole, New: election.Leader},
		cs(6, 1, mutex.Released),
		{T: 8, Type: trace.Recover, Node: 2},
		{T: 10, Type: trace.Timer, Node: 1},
	}))
	want := map[int][]string{
		1: {"waiting 1-2", "in-cs 2-6"},
		2: {"crashed 3-8"},
		3: {"leader 5-10"},
	}
	if got := lanesOf(d); !reflect.DeepEqual(got, want) {
		t.Errorf("lanes %v, want %v", got, want)
	}
	if len(d.Overlaps()) != 0 {
		t.Errorf("overlaps %v in a run with one critical section", d.Overlaps())
	}

	// each bar is drawn in its lane's path, along its row
	v := d.Fit(40, 800, 20, 300)
	dr := d.Draw(&v, &Marks{Cursor: len(d.R.Events), Selected: -1})
	for l, c := range Lanes {
		n := 0
		for _, s := range want {
			for _, iv := range s {
				if len(iv) > len(c) && iv[:len(c)+1] == string(c)+" " {
					n++
				}
			}
		}
		if got := countM(string(dr.Lanes[l])); got != n {
			t.Errorf("%s: %d bars drawn, want %d: %q", c, got, n, dr.Lanes[l])
		}
	}
	if dr.Bands != "" {
		t.Errorf("bands %q", dr.Bands)
	}
}

func TestOverlaps(t *testing.T) {
	// 1 is in its critical section over 2-6, 2 over 4-9: one band, 4-6
	d := New(script(3, []trace.Event{
		cs(2, 1, mutex.Held),
		cs(4, 2, mutex.Held),
		cs(6, 1, mutex.Released),
		cs(9, 2, mutex.Released),
	}))
	if got, want := d.Overlaps(), []Span{{4, 6, []int{1, 2}}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("overlaps %v, want %v", got, want)
	}
	v := d.Fit(40, 800, 20, 300)
	dr := d.Draw(&v, &Marks{Cursor: len(d.R.Events), Selected: -1})
	if countM(dr.Bands) != 1 {
		t.Errorf("bands %q", dr.Bands)
	}
	if k := d.Band(&v, v.X(5)); k != 0 {
		t.Errorf("Band at t=5 is %d", k)
	}
	if k := d.Band(&v, v.X(3)); k != -1 {
		t.Errorf("Band at t=3 is %d", k)
	}
	// zoomed away from it, no band is drawn
	v.T0 = 20
	if dr := d.Draw(&v, &Marks{Cursor: len(d.R.Events), Selected: -1}); dr.Bands != "" {
		t.Errorf("band out of view drawn: %q", dr.Bands)
	}

	// a third process joining the overlap is one of its processes; the
	// band lasts until only one is left
	d = New(script(3, []trace.Event{
		cs(1, 3, mutex.Held),
		cs(2, 1, mutex.Held),
		cs(3, 3, mutex.Released),
		cs(4, 2, mutex.Held),
		cs(6, 1, mutex.Released),
		cs(7, 2, mutex.Released),
	}))
	if got, want := d.Overlaps(), []Span{{2, 3, []int{1, 3}}, {4, 6, []int{1, 2}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("overlaps %v, want %v", got, want)
	}
	d = New(script(3, []trace.Event{
		cs(1, 1, mutex.Held),
		cs(2, 2, mutex.Held),
		cs(3, 3, mutex.Held),
		cs(4, 1, mutex.Released),
		cs(5, 2, mutex.Released),
		cs(6, 3, mutex.Released),
	}))
	if got, want := d.Overlaps(), []Span{{2, 5, []int{1, 2, 3}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("overlaps %v, want %v", got, want)
	}

	// intervals that touch do not overlap, whichever event of the instant
	// comes first
	for _, evs := range [][]trace.Event{
		{cs(2, 1, mutex.Held), cs(6, 1, mutex.Released), cs(6, 2, mutex.Held), cs(9, 2, mutex.Released)},
		{cs(2, 1, mutex.Held), cs(6, 2, mutex.Held), cs(6, 1, mutex.Released), cs(9, 2, mutex.Released)},
	} {
		d := New(script(2, evs))
		if len(d.Overlaps()) != 0 {
			t.Errorf("touching intervals overlap: %v", d.Overlaps())
		}
		v := d.Fit(40, 800, 20, 300)
		if dr := d.Draw(&v, &Marks{Cursor: len(evs), Selected: -1}); dr.Bands != "" {
			t.Errorf("touching intervals draw a band: %q", dr.Bands)
		}
	}
}
