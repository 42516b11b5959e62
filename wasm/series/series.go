// Package series charts a number per process over time, from the events
// of a run, in columns of true time: the page's chart under the space-time
// diagram. Two numbers are charted:
//
//   - clock error, each process's clock reading minus true time (C_i(t) − t):
//     every event at a process records both its true time and the
//     process's reading, and a correction (a clock event) the reading
//     before and after it, so between two events of a process its error
//     changes at its drift's constant rate (or a slew's), which a straight
//     line between them draws; the corrections mark their columns, the
//     synchronization rounds;
//   - a numeric state key (a replica's balance), which holds its value
//     until it changes: drawn in steps.
//
// A run may hold millions of events: the chart keeps, per column of time,
// the first and last value of each process drawn and its extremes, and for
// all processes together the lowest and highest value (the band of every
// clock's error, whose height is the skew).
//
// It is plain Go over trace events, tested natively, run by the page's
// engine, which holds the trace.
package series

import (
	"slices"

	"dsim/core/trace"
)

// MaxLines is the most processes drawn one line each; past it the chart
// shows the band of all of them.
const MaxLines = 12

// Chart is a run's values in Cols columns of true time 0..End.
type Chart struct {
	End  int64
	Cols int
	// Steps: a value holds until the next (a state key), rather than
	// changing evenly between two events (a clock's error).
	Steps bool
	// Procs are the processes drawn one line each (all of them up to
	// MaxLines, the first MaxLines in ring order past it), and Lines their
	// lines, as points (column, error) in the order of the events.
	Procs []int
	Lines [][]Point
	// Lo and Hi are the lowest and highest error of any process in each
	// column, valid where Has is.
	Lo, Hi []int64
	Has    []bool
	// Marks are the columns holding a correction, increasing.
	Marks []int
}

// Point is a process's value at one of its events, in its column.
type Point struct {
	Col int
	Val int64
}

// Values reads the values event e gives its process's series, appending
// them to out: none, one, or two (a clock correction: before and after);
// mark is whether the chart marks e's column.
type Values func(e *trace.Event, out []int64) (vals []int64, mark bool)

// ClockError is each event's clock error, and a correction's after it.
func ClockError(e *trace.Event, out []int64) ([]int64, bool) {
	out = append(out, e.Local-e.T)
	if e.Type != trace.Clock {
		return out, false
	}
	return append(out, e.ClockAfter()-e.T), true
}

// StateKey is the integer values state key takes.
func StateKey(key string) Values {
	return func(e *trace.Event, out []int64) ([]int64, bool) {
		if e.Type == trace.State && e.Key == key {
			if v, ok := integer(e.New); ok {
				out = append(out, v)
			}
		}
		return out, false
	}
}

func integer(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case float64:
		if x == float64(int64(x)) {
			return int64(x), true
		}
	}
	return 0, false
}

// Clocked reports whether any clock of the run ever read other than true
// time: a scenario set one, or a process corrected it. A run of true
// clocks has no clock chart to show.
func Clocked(each func(func(*trace.Event))) bool {
	clocked := false
	each(func(e *trace.Event) {
		if !clocked && e.Node != trace.NoNode && (e.Local != e.T || e.Type == trace.Clock) {
			clocked = true
		}
	})
	return clocked
}

// Has reports whether any event gives a series a value.
func Has(each func(func(*trace.Event)), v Values) bool {
	has := false
	var buf [2]int64
	each(func(e *trace.Event) {
		if !has && e.Node != trace.NoNode {
			vals, _ := v(e, buf[:0])
			has = len(vals) > 0
		}
	})
	return has
}

// column is what one process's value did in one column: the first and
// last values and the extremes, with the order the extremes came in, so
// that the line drawn through them keeps the shape of the events'.
type column struct {
	first, last, lo, hi int64
	loFirst             bool // the lowest came before the highest
	used                bool
}

func (c *column) add(v int64) {
	if !c.used {
		*c = column{first: v, last: v, lo: v, hi: v, used: true}
		return
	}
	c.last = v
	if v < c.lo {
		c.lo, c.loFirst = v, false
	}
	if v > c.hi {
		c.hi, c.loFirst = v, true
	}
}

// points are the column's at most four points, in order, without repeats.
func (c *column) points(col int, out []Point) []Point {
	a, b := c.hi, c.lo
	if c.loFirst {
		a, b = c.lo, c.hi
	}
	for _, e := range [...]int64{c.first, a, b, c.last} {
		if n := len(out); n == 0 || out[n-1] != (Point{col, e}) {
			out = append(out, Point{col, e})
		}
	}
	return out
}

// Build charts the values v gives the events each walks, in order, of the
// processes ids (in ring order), over cols columns of true time 0..end; a
// value holds until the next where steps.
func Build(each func(func(*trace.Event)), ids []int, end int64, cols int, v Values, steps bool) *Chart {
	cols = min(max(cols, 1), 10_000)
	ch := &Chart{End: max(end, 0), Cols: cols, Steps: steps}
	line := make(map[int]int, min(len(ids), MaxLines))
	for _, id := range ids {
		if len(ch.Procs) == MaxLines {
			break
		}
		if _, dup := line[id]; !dup {
			line[id] = len(ch.Procs)
			ch.Procs = append(ch.Procs, id)
		}
	}
	cur := make([]column, len(ch.Procs))
	curCol := make([]int, len(ch.Procs))
	ch.Lines = make([][]Point, len(ch.Procs))
	span := float64(ch.End + 1)
	colOf := func(t int64) int { return min(max(int(float64(t)/span*float64(cols)), 0), cols-1) }
	env := newEnvelope(cols)
	// last is each live process's last value, which holds until its next
	// event: the band counts it in every column up to there.
	type held struct {
		val  int64
		col  int
		live bool
	}
	last := make(map[int]*held, len(ids))
	add := func(c int, node int, val int64) {
		h := last[node]
		if h == nil {
			h = &held{}
			last[node] = h
		}
		if h.live {
			env.cover(h.col, c, h.val)
		}
		env.cover(c, c, val)
		l, ok := line[node]
		if ok && cur[l].used && curCol[l] != c {
			ch.Lines[l] = cur[l].points(curCol[l], ch.Lines[l])
			cur[l].used = false
			if steps { // the value held up to this column
				ch.Lines[l] = append(ch.Lines[l], Point{c, h.val})
			}
		}
		*h = held{val, c, true}
		if ok {
			curCol[l] = c
			cur[l].add(val)
		}
	}
	var buf [2]int64
	each(func(e *trace.Event) {
		if e.Node == trace.NoNode {
			return
		}
		c := colOf(e.T)
		vals, mark := v(e, buf[:0])
		for _, x := range vals {
			add(c, e.Node, x)
		}
		if mark {
			if n := len(ch.Marks); n == 0 || ch.Marks[n-1] != c {
				ch.Marks = append(ch.Marks, c)
			}
		}
		if h := last[e.Node]; h != nil && e.Type == trace.Crash {
			h.live = false // a crashed process's value is no live process's
		}
	})
	for _, h := range last {
		if h.live {
			env.cover(h.col, cols-1, h.val)
		}
	}
	for l, id := range ch.Procs {
		if cur[l].used {
			ch.Lines[l] = cur[l].points(curCol[l], ch.Lines[l])
		}
		// a live process's value holds to the end of the run
		if h := last[id]; steps && h != nil && h.live && h.col < cols-1 {
			ch.Lines[l] = append(ch.Lines[l], Point{cols - 1, h.val})
		}
	}
	ch.Lo, ch.Hi, ch.Has = env.columns()
	return ch
}

// envelope is the lowest and highest value covering each column, for
// values that each cover a range of columns: a segment tree whose nodes
// keep the extremes of the ranges they cover whole, so that a range costs
// O(log cols) and the columns one pass at the end.
type envelope struct {
	n      int
	lo, hi []int64
	set    []bool
}

func newEnvelope(n int) *envelope {
	return &envelope{n: n, lo: make([]int64, 2*n), hi: make([]int64, 2*n), set: make([]bool, 2*n)}
}

// cover counts v in columns a..b inclusive.
func (e *envelope) cover(a, b int, v int64) {
	for a, b = a+e.n, b+e.n+1; a < b; a, b = a>>1, b>>1 {
		if a&1 == 1 {
			e.put(a, v)
			a++
		}
		if b&1 == 1 {
			b--
			e.put(b, v)
		}
	}
}

func (e *envelope) put(k int, v int64) {
	if !e.set[k] {
		e.lo[k], e.hi[k], e.set[k] = v, v, true
		return
	}
	e.lo[k], e.hi[k] = min(e.lo[k], v), max(e.hi[k], v)
}

// columns are each column's extremes, from its leaf and every node above.
func (e *envelope) columns() (lo, hi []int64, has []bool) {
	lo, hi, has = make([]int64, e.n), make([]int64, e.n), make([]bool, e.n)
	for c := range e.n {
		for k := c + e.n; k >= 1; k >>= 1 {
			if !e.set[k] {
				continue
			}
			if !has[c] {
				lo[c], hi[c], has[c] = e.lo[k], e.hi[k], true
			} else {
				lo[c], hi[c] = min(lo[c], e.lo[k]), max(hi[c], e.hi[k])
			}
		}
	}
	return lo, hi, has
}

// Worst is the largest |value| of any process per column, where Has: for
// clock errors, the run's accuracy over time, the line a comparison of
// runs draws.
func (ch *Chart) Worst() []int64 {
	out := make([]int64, ch.Cols)
	for c := range out {
		if ch.Has[c] {
			out[c] = max(abs(ch.Lo[c]), abs(ch.Hi[c]))
		}
	}
	return out
}

// Settled is the range a clock-error chart keeps to once synchronized:
// over the columns after its first correction, from the tenth percentile
// of the columns' lowest values to the ninetieth of their highest, so that
// neither the offsets the clocks start with nor the first columns of a
// slew set the scale; ok is false for a chart without corrections.
func (ch *Chart) Settled() (lo, hi int64, ok bool) {
	return ch.settled(ch.Lo, ch.Hi)
}

// SettledWorst is Settled for the chart's Worst line.
func (ch *Chart) SettledWorst() (lo, hi int64, ok bool) {
	w := ch.Worst()
	return ch.settled(w, w)
}

func (ch *Chart) settled(los, his []int64) (lo, hi int64, ok bool) {
	if len(ch.Marks) == 0 {
		return 0, 0, false
	}
	var l, h []int64
	for c := ch.Marks[0] + 1; c < ch.Cols; c++ {
		if ch.Has[c] {
			l, h = append(l, los[c]), append(h, his[c])
		}
	}
	if len(l) == 0 {
		return 0, 0, false
	}
	slices.Sort(l)
	slices.Sort(h)
	return l[len(l)/10], h[len(h)-1-len(h)/10], true
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
