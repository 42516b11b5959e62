package series

import (
	"slices"
	"testing"

	"dsim/core/trace"
)

func eachOf(evs []trace.Event) func(func(*trace.Event)) {
	return func(fn func(*trace.Event)) {
		for i := range evs {
			fn(&evs[i])
		}
	}
}

// A process whose clock runs 10% fast, stepped back to true time at t=50:
// its line rises to +5 and drops to 0 in the correction's column, which
// is marked; the other process reads true time.
func TestBuildFollowsEachProcess(t *testing.T) {
	var evs []trace.Event
	for tt := int64(0); tt <= 90; tt += 10 {
		fast := tt + tt/10
		if tt > 50 {
			fast = tt + (tt-50)/10
		}
		evs = append(evs, trace.Event{T: tt, Node: 1, Type: trace.Timer, Local: fast}, trace.Event{T: tt, Node: 2, Type: trace.Timer, Local: tt})
		if tt == 50 {
			evs = append(evs, trace.Event{T: 50, Node: 1, Type: trace.Clock, Kind: "step", Local: 55, Delta: -5})
		}
	}
	ch := Build(eachOf(evs), []int{1, 2}, 90, 10, ClockError, false)
	if !Clocked(eachOf(evs)) {
		t.Fatal("a fast clock is not clocked")
	}
	if !slices.Equal(ch.Procs, []int{1, 2}) {
		t.Fatalf("procs %v", ch.Procs)
	}
	want := []Point{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {5, 0}, {6, 1}, {7, 2}, {8, 3}, {9, 4}}
	if !slices.Equal(ch.Lines[0], want) {
		t.Errorf("process 1's line %v, want %v", ch.Lines[0], want)
	}
	for _, p := range ch.Lines[1] {
		if p.Val != 0 {
			t.Errorf("process 2 reads true time, but its line has %v", p)
		}
	}
	if !slices.Equal(ch.Marks, []int{5}) {
		t.Errorf("marks %v, want the step's column 5", ch.Marks)
	}
	if ch.Lo[5] != 0 || ch.Hi[5] != 5 || !ch.Has[5] {
		t.Errorf("column 5's band %d..%d", ch.Lo[5], ch.Hi[5])
	}
	if w := ch.Worst(); w[4] != 4 || w[9] != 4 {
		t.Errorf("worst %v", w)
	}
}

// Many events in one column keep the extremes in the order they came, so
// a spike is drawn, and no more than four points.
func TestBuildKeepsExtremesInOrder(t *testing.T) {
	errs := []int64{3, 9, 1, -7, 2, 4}
	var evs []trace.Event
	for i, e := range errs {
		evs = append(evs, trace.Event{T: int64(i), Node: 5, Type: trace.Timer, Local: int64(i) + e})
	}
	ch := Build(eachOf(evs), []int{5}, 1000, 10, ClockError, false)
	want := []Point{{0, 3}, {0, 9}, {0, -7}, {0, 4}}
	if !slices.Equal(ch.Lines[0], want) {
		t.Errorf("line %v, want %v", ch.Lines[0], want)
	}
}

// Past MaxLines processes only the first are drawn one by one, but the
// band holds every process; true clocks are not clocked.
func TestBuildBandsManyProcesses(t *testing.T) {
	var evs []trace.Event
	var ids []int
	for id := 1; id <= 3*MaxLines; id++ {
		ids = append(ids, id)
		evs = append(evs, trace.Event{T: 7, Node: id, Type: trace.Timer, Local: 7})
	}
	if Clocked(eachOf(evs)) {
		t.Error("true clocks are clocked")
	}
	evs[len(evs)-1].Local = 7 - 40 // the last process, not drawn, is late
	ch := Build(eachOf(evs), ids, 7, 1, ClockError, false)
	if len(ch.Procs) != MaxLines || ch.Lo[0] != -40 || ch.Hi[0] != 0 {
		t.Errorf("%d lines, band %d..%d", len(ch.Procs), ch.Lo[0], ch.Hi[0])
	}
	if !Clocked(eachOf(evs)) {
		t.Error("a late clock is not clocked")
	}
}

// The band counts each live process's last error until its next event, in
// the columns where it has none, and a crashed process's no more.
func TestBandHoldsLastErrors(t *testing.T) {
	evs := []trace.Event{
		{T: 0, Node: 1, Type: trace.Timer, Local: 5},
		{T: 0, Node: 2, Type: trace.Timer, Local: -3},
		{T: 30, Node: 2, Type: trace.Crash, Local: 27},
	}
	for tt := int64(0); tt < 100; tt += 10 {
		evs = append(evs, trace.Event{T: tt, Node: 3, Type: trace.Timer, Local: tt})
	}
	slices.SortStableFunc(evs, func(a, b trace.Event) int { return int(a.T - b.T) })
	ch := Build(eachOf(evs), []int{1, 2, 3}, 99, 10, ClockError, false)
	for c := range ch.Cols {
		lo := int64(-3)
		if c > 3 {
			lo = 0
		}
		if !ch.Has[c] || ch.Hi[c] != 5 || ch.Lo[c] != lo {
			t.Errorf("column %d: band %d..%d (has %v), want %d..5", c, ch.Lo[c], ch.Hi[c], ch.Has[c], lo)
		}
	}
}

// A state key's values hold until the next: two replicas' balances drawn
// in steps, 1000 to 1100 to 1111 and 1000 to 1010 to 1110, the band their
// divergence; other keys and non-integers are no values.
func TestStateKeySteps(t *testing.T) {
	bal := func(tt int64, node int, v any) trace.Event {
		return trace.Event{T: tt, Node: node, Type: trace.State, Key: "balance", New: v}
	}
	evs := []trace.Event{bal(0, 1, 1000), bal(0, 2, 1000), bal(20, 1, 1100), bal(30, 2, 1010),
		{T: 40, Node: 1, Type: trace.State, Key: "held", New: 3}, bal(50, 1, 1111), bal(60, 2, 1110), bal(70, 2, "n/a")}
	each := eachOf(evs)
	if !Has(each, StateKey("balance")) || Has(each, StateKey("post")) {
		t.Fatal("Has does not find the balance alone")
	}
	ch := Build(each, []int{1, 2}, 99, 10, StateKey("balance"), true)
	want := [][]Point{{{0, 1000}, {2, 1000}, {2, 1100}, {5, 1100}, {5, 1111}, {9, 1111}}, {{0, 1000}, {3, 1000}, {3, 1010}, {6, 1010}, {6, 1110}, {9, 1110}}}
	for l := range want {
		if !slices.Equal(ch.Lines[l], want[l]) {
			t.Errorf("replica %d: %v, want %v", ch.Procs[l], ch.Lines[l], want[l])
		}
	}
	if ch.Lo[9] != 1110 || ch.Hi[9] != 1111 || ch.Lo[1] != 1000 || ch.Hi[1] != 1000 {
		t.Errorf("band at the end %d..%d, at 1 %d..%d", ch.Lo[9], ch.Hi[9], ch.Lo[1], ch.Hi[1])
	}
}

// Clocks that start 100 ticks off, are corrected in column 4, and then keep
// within −2..+3 but for one spike of 50 (a slew's first column): the
// settled range is −2..+3, set neither by the start nor by the spike; the
// Worst line's is 2..3 (its |values|); a chart without corrections has
// none.
func TestSettledLeavesOutTheStartAndSpikes(t *testing.T) {
	const cols = 40
	ch := &Chart{Cols: cols, Lo: make([]int64, cols), Hi: make([]int64, cols), Has: make([]bool, cols), Marks: []int{4, 20}}
	for c := range cols {
		ch.Has[c] = c != 30 // a column without events
		switch {
		case c <= 4:
			ch.Lo[c], ch.Hi[c] = 90, 100
		case c == 5:
			ch.Lo[c], ch.Hi[c] = 0, 50
		default:
			ch.Lo[c], ch.Hi[c] = int64(-2+c%2), int64(2+c%2)
		}
	}
	if lo, hi, ok := ch.Settled(); !ok || lo != -2 || hi != 3 {
		t.Fatalf("Settled() = %d, %d, %v; want -2, 3, true", lo, hi, ok)
	}
	if lo, hi, ok := ch.SettledWorst(); !ok || lo != 2 || hi != 3 {
		t.Fatalf("SettledWorst() = %d, %d, %v; want 2, 3, true", lo, hi, ok)
	}
	ch.Marks = nil
	if _, _, ok := ch.Settled(); ok {
		t.Fatal("a chart without corrections has a settled range")
	}
}
