// Package spacetime draws a world's space-time (Lamport) diagram: one
// horizontal lifeline per process, time flowing to the right, each message
// an arrow from its send to its delivery, with marks for crashes,
// recoveries, timers, state changes and logs. Behind them, a bar along a
// lifeline shows how long its process was in its critical section, leader,
// holding the token, waiting, a candidate or crashed, and a red band across
// every lifeline marks a time when two processes were in their critical
// sections at once.
//
// Drawing is virtualized: only what falls inside the viewport is produced,
// and it comes out as a few SVG path strings (one per style, and per
// message kind for the styles drawn in the kind's colour) rather than one
// element per arrow, so a browser shows tens of thousands of messages
// without a DOM node for each. Hit testing finds the event or arrow under
// the pointer without the DOM's help.
//
// It is plain Go with no browser dependency, so it is tested natively.
package spacetime

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"unicode/utf8"

	"dsim/core/trace"
	"dsim/wasm/internal/passes"
	"dsim/wasm/layout"
	"dsim/wasm/replay"
)

// Style is how an arrow is drawn.
type Style int

const (
	Done     Style = iota // delivered at or before the cursor
	InFlight              // sent, not yet delivered at the cursor
	Later                 // sent after the cursor
	Dim                   // outside the selected event's causal cone
	Past                  // in the selected event's causal past
	Future                // in the selected event's causal future
	Selected              // the selected event's own message
	NumStyles
)

// StyleNames are the CSS class suffixes of the styles.
var StyleNames = [NumStyles]string{"done", "inflight", "later", "dim", "past", "future", "selected"}

// NumColoured is the number of styles, the first ones (Done and InFlight),
// whose arrows take their message kind's colour. The others keep one
// colour each: the cursor's future is grey, and a selected event's causal
// cone is highlighted over every kind.
const NumColoured Style = 2

// Palette is the number of colours message kinds take, in order of the
// kinds' first appearance; further kinds take them again with the next
// dash pattern, and only beyond Palette*NumDashes kinds do two look alike.
const (
	Palette   = 8
	NumDashes = 4 // solid, dashed, dotted, dash-dot
)

// KindStyle is how the arrows of one message kind are drawn.
type KindStyle struct {
	Kind   string
	Colour int // 0 .. Palette-1
	Dash   int // 0 .. NumDashes-1; 0 is solid
}

// Paths are the arrows of one group and their heads.
type Paths struct{ Arrows, Heads string }

// Label names the kind of an arrow long enough on screen to carry it.
type Label struct {
	X, Y  float64 // centre
	Kind  int     // index in Diagram.Kinds
	Style Style
}

// Labels are drawn at the midpoint of arrows at least LabelMinLen pixels
// long on screen, at most MaxLabels a frame (each is a DOM node), and
// never over one another: a label is taken to be LabelCharW pixels a
// character wide and LabelH high, which the page's font for them must
// not exceed.
const (
	LabelMinLen = 60.0
	MaxLabels   = 200
	LabelCharW  = 5.5
	LabelH      = 11.0
)

// Mark is the kind of a mark on a lifeline.
type Mark int

const (
	MarkCrash Mark = iota
	MarkRecover
	MarkTimer
	MarkState
	MarkLog
	MarkDetector // suspect and trust
	MarkDrop
	NumMarks
)

// MarkNames are the CSS class suffixes of the marks.
var MarkNames = [NumMarks]string{"crash", "recover", "timer", "state", "log", "detector", "drop"}

// Lanes are the classes a process's state earns (replay.View.Class), each
// drawn as a bar along the lifeline while the process has it; the class
// names are the CSS classes of the bars, the topology's colours. The first
// is being in the critical section, whose overlaps New finds.
var Lanes = []replay.Class{replay.InCS, replay.Token, replay.Leader, replay.Candidate, replay.Waiting, replay.Running, replay.Crashed}

const NumLanes = 7 // len(Lanes)

// interval is a stretch of time a process spends in one lane.
type interval struct {
	t0, t1 int64
	lane   int // index in Lanes
}

// Span is a stretch of time during which two or more processes are in their
// critical sections at once: mutual exclusion is broken.
type Span struct {
	T0, T1 int64
	Procs  []int // ids of the processes in their critical sections then, in row order, then as they entered
}

// Viewport is the window onto the diagram, in pixels.
type Viewport struct {
	T0     float64 // time at the left edge of the plot
	Scale  float64 // pixels per time unit
	Left   float64 // x of the plot's left edge (right of the labels)
	Width  float64 // plot width
	Top    float64 // y of the first row's band (below the axis)
	Height float64 // plot height
	Y0     float64 // vertical scroll, pixels
	RowH   float64

	gaps     []Gap     // collapsed idle stretches (Fit), nil for linear time
	slots    []slot    // the rows on screen when folded (Layout)
	slotOf   []int     // each process's index in slots, -1 folded; nil: none folded
	cut      []float64 // see prep
	cutScale float64
}

// xs are the x coordinates of times t0 and t1, kept inside the plot: b < a
// when the span is out of view.
func (v *Viewport) xs(t0, t1 int64) (float64, float64) {
	return math.Max(v.X(float64(t0)), v.Left), math.Min(v.X(float64(t1)), v.Left+v.Width)
}

// Y is the y coordinate of row r's lifeline. A folded row is far above
// the plot, where nothing is drawn or hit: no arrow in view reaches it.
func (v *Viewport) Y(r int) float64 {
	if v.slotOf == nil {
		return v.slotY(r)
	}
	if k := v.slotOf[r]; k >= 0 {
		return v.slotY(k)
	}
	return -1e9
}

// Marks is what the current state of the page adds to the drawing.
type Marks struct {
	Cursor   int // events applied (the time-travel cursor)
	Selected int // selected event, or -1
	// Past and Future are the selected event's causal cone (replay.Causal).
	Past, Future []bool
	// Stamps asks for the places of the events in view (Drawing.Stamped),
	// to label them with their timestamps.
	Stamps bool
}

// Tick is one label of the time axis.
type Tick struct {
	X     float64
	Label string
	Gap   bool // the length of a collapsed gap, not a time
}

// Row is one visible lifeline, or where Quiet > 0 the marker of that many
// folded processes (see Layout).
type Row struct {
	Node  int // process id
	Y     float64
	Down  bool // crashed at the cursor
	Quiet int
}

// Drawing is one frame's worth of SVG path data.
type Drawing struct {
	Lifelines string
	Lanes     [NumLanes][]byte // bars along the lifelines, by lane (bytes: an array of strings would cost the wasm an equality function)
	Bands     string           // the overlaps, across the plot
	// Arrows and Heads hold the styles from NumColoured on; ByKind holds
	// the coloured ones, per kind (indexed as Diagram.Kinds) and style.
	Arrows    [NumStyles]string
	Heads     [NumStyles]string
	ByKind    [][NumColoured]Paths
	Labels    []Label
	Drops     string // dropped or never-arriving messages, dashed
	Marks     [NumMarks]string
	MarksLate [NumMarks]string // marks after the cursor
	Net       string           // partitions and heals, across all rows
	Breaks    string           // zig-zags across the collapsed gaps
	// ConePast and ConeFuture ring the events in the selected event's
	// causal past and future, ConeConcurrent boxes those concurrent with
	// it (neither before nor after: a second cue besides the colour);
	// Selected rings the event itself.
	ConePast, ConeFuture, ConeConcurrent, Selected string
	// Stamped are the events in view at a process and where they are, when
	// Marks.Stamps asks and there are at most MaxStamped; TooMany says
	// there were more.
	Stamped []Placed
	TooMany bool
	Cursor  float64 // x of the cursor
	Ticks   []Tick
	Rows    []Row
	Arrowed int // delivered messages drawn as arrows
}

type arrow struct {
	send, end int // event indexes; end -1: never arrived
	from, to  int // rows
	kind      int // index in Diagram.kinds
	t0, t1    int64
	dropped   bool
}

// Diagram holds what drawing needs from a replay, indexed once.
type Diagram struct {
	R        *replay.Replay
	arrows   []arrow      // by send time
	maxSpan  int64        // longest arrow, in time
	lanes    [][]interval // by process position, in time order
	overlaps []Span       // in time order
	EndT     int64        // time of the last event at a process
	gaps     []Gap        // idle stretches, in time order
	// Collapse makes Fit draw the idle stretches (Gaps) narrow; it is
	// off in a new Diagram.
	Collapse bool
	// Fold makes Layout fold the rows of processes quiet in the window;
	// it is off in a new Diagram.
	Fold     bool
	evTimes  []int64
	netEvent []int
	kinds    []KindStyle // in order of first send
}

// New indexes a replay for drawing.
func New(r *replay.Replay) *Diagram {
	b := NewBuilder(r)
	for !b.Step(math.MaxInt) {
	}
	return b.Diagram()
}

// Builder indexes a replay for drawing a bounded number of events at a
// time, as replay.Builder does, and makes the same Diagram as New. The
// work is four passes: over the events (their times, the partitions and
// heals, EndT), over them again for the gaps, which need EndT, over the
// flights for the arrows, and over the class changes for the lanes.
type Builder struct {
	d         *Diagram
	passes    *passes.Runner
	kindIndex map[string]int // the arrows pass: index in d.kinds by kind
	// the gaps pass: how long a gap is at least, and the time of the last
	// event drawn
	long, last int64
	// the lanes pass: the lane each process is in (-1: none), and how many
	// are in lane 0, their critical sections
	lane []int
	inCS int
}

// NewBuilder starts indexing a replay for drawing.
func NewBuilder(r *replay.Replay) *Builder {
	d := &Diagram{R: r, lanes: make([][]interval, len(r.Nodes)), evTimes: make([]int64, len(r.Events))}
	b := &Builder{d: d, kindIndex: map[string]int{}, lane: make([]int, len(r.Nodes))}
	for p := range b.lane {
		b.lane[p] = -1
	}
	events := func() int { return len(r.Events) }
	b.passes = passes.New(
		passes.Pass{Len: events, Run: b.times, Done: func() { b.long = max(GapMin, int64(math.Ceil(GapFrac*float64(d.EndT)))) }},
		passes.Pass{Len: events, Run: b.gaps},
		passes.Pass{Len: func() int { return len(r.Flights) }, Run: b.arrows},
		passes.Pass{Len: func() int { return len(r.Classes) }, Run: b.lanes},
	)
	return b
}

// Step indexes up to n more events' worth (n > 0), a flight or a class
// change counting as one, and reports whether the index is complete.
func (b *Builder) Step(n int) bool { return b.passes.Step(n) }

// Diagram is the index, once Step has reported it complete; nil before.
func (b *Builder) Diagram() *Diagram {
	if !b.passes.Done() {
		return nil
	}
	return b.d
}

// times is the first pass over events [lo, hi).
func (b *Builder) times(lo, hi int) {
	d, r := b.d, b.d.R
	for i := lo; i < hi; i++ {
		e := &r.Events[i]
		d.evTimes[i] = e.T
		if e.Type == trace.Partition || e.Type == trace.Heal {
			d.netEvent = append(d.netEvent, i)
		}
		// The plot ends with the processes' last event: checks and logs of
		// the scenario may come much later, once a run has gone quiet.
		if r.NodeOf(i) >= 0 || i == 0 {
			d.EndT = e.T
		}
	}
}

// arrows is the pass over flights [lo, hi), which come in send order, and
// sends in time order.
func (b *Builder) arrows(lo, hi int) {
	d, r := b.d, b.d.R
	for _, f := range r.Flights[lo:hi] {
		k, ok := b.kindIndex[f.Kind]
		if !ok {
			k = len(d.kinds)
			b.kindIndex[f.Kind] = k
			d.kinds = append(d.kinds, KindStyle{Kind: f.Kind, Colour: k % Palette, Dash: k / Palette % NumDashes})
		}
		// A send happens at its sender, a delivery at its receiver; only
		// drops need the receiver looked up.
		from, to := r.NodeOf(f.Send), 0
		if f.End >= 0 && !f.Dropped {
			to = r.NodeOf(f.End)
		} else if p, ok := r.Pos(f.To); ok {
			to = p
		} else { // sent to no such process
			to = from
		}
		a := arrow{send: f.Send, end: f.End, from: from, to: to, kind: k, t0: r.Events[f.Send].T, dropped: f.Dropped}
		if f.End >= 0 {
			a.t1 = r.Events[f.End].T
		} else {
			a.t1 = d.EndT
		}
		d.maxSpan = max(d.maxSpan, a.t1-a.t0)
		d.arrows = append(d.arrows, a)
	}
}

// lanes is the pass over class changes [lo, hi). The lane a process is in
// is the last of its intervals, open until its t1 is set. While two or
// more processes are in lane 0, their critical sections, the last overlap
// is open; one that ends where it began was only two intervals touching,
// and goes.
func (b *Builder) lanes(lo, hi int) {
	d, r, lane := b.d, b.d.R, b.lane
	for _, ch := range r.Classes[lo:hi] {
		t, p, l := r.Events[ch.Index].T, ch.Pos, len(Lanes)-1
		for l >= 0 && Lanes[l] != ch.Class {
			l--
		}
		was := lane[p]
		if was >= 0 {
			d.lanes[p][len(d.lanes[p])-1].t1 = t
		}
		if lane[p] = l; l >= 0 {
			d.lanes[p] = append(d.lanes[p], interval{t, d.EndT, l})
		}
		n := len(d.overlaps) - 1
		switch {
		case was == 0:
			if b.inCS--; b.inCS == 1 {
				if d.overlaps[n].T1 = t; t == d.overlaps[n].T0 {
					d.overlaps = d.overlaps[:n]
				}
			}
		case l != 0:
		case b.inCS == 1: // p is the second
			var ids []int
			for q, lq := range lane {
				if lq == 0 {
					ids = append(ids, r.Nodes[q])
				}
			}
			d.overlaps = append(d.overlaps, Span{t, d.EndT, ids})
		case b.inCS > 1 && !slices.Contains(d.overlaps[n].Procs, r.Nodes[p]):
			d.overlaps[n].Procs = append(d.overlaps[n].Procs, r.Nodes[p])
		}
		if l == 0 {
			b.inCS++
		}
	}
}

// Overlaps are the spans when mutual exclusion is broken, in time order.
func (d *Diagram) Overlaps() []Span { return d.overlaps }

// Kinds are the world's message kinds, in order of their first send, with
// how each is drawn.
func (d *Diagram) Kinds() []KindStyle { return d.kinds }

// KindOf is the index in Kinds of flight f's message kind.
func (d *Diagram) KindOf(f int) int { return d.arrows[f].kind }

// Arrows is the number of delivered messages in the whole diagram.
func (d *Diagram) Arrows() int {
	n := 0
	for _, a := range d.arrows {
		if a.end >= 0 && !a.dropped {
			n++
		}
	}
	return n
}

// visible returns the range of arrows [lo, hi) that may cross the time
// window [t0, t1]: those sent in it, or up to maxSpan before it.
func (d *Diagram) visible(t0, t1 float64) (int, int) {
	lo := sort.Search(len(d.arrows), func(i int) bool { return float64(d.arrows[i].t0) >= t0-float64(d.maxSpan) })
	hi := sort.Search(len(d.arrows), func(i int) bool { return float64(d.arrows[i].t0) > t1 })
	return lo, hi
}

// events returns the range of events [lo, hi) in the time window.
func (d *Diagram) events(t0, t1 float64) (int, int) {
	lo := sort.Search(len(d.evTimes), func(i int) bool { return float64(d.evTimes[i]) >= t0 })
	hi := sort.Search(len(d.evTimes), func(i int) bool { return float64(d.evTimes[i]) > t1 })
	return lo, hi
}

// style picks how arrow a is drawn.
func (d *Diagram) style(a *arrow, m *Marks) Style {
	if m.Selected >= 0 && m.Past != nil { // an event at no process has no cone
		// A delivery in the past has its send there too; a send in the
		// future has its delivery there too.
		switch {
		case a.send == m.Selected || a.end == m.Selected:
			return Selected
		case m.Past != nil && a.end >= 0 && m.Past[a.end]:
			return Past
		case m.Future != nil && m.Future[a.send]:
			return Future
		}
		return Dim
	}
	switch {
	case a.send >= m.Cursor:
		return Later
	case a.end < 0 || a.end >= m.Cursor:
		return InFlight
	}
	return Done
}

// num appends x with one decimal, which is finer than a pixel.
func num(b []byte, x float64) []byte {
	n := int64(math.Round(x * 10))
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	b = strconv.AppendInt(b, n/10, 10)
	if r := n % 10; r != 0 {
		b = append(b, '.', byte('0'+r))
	}
	return b
}

func moveTo(b []byte, x, y float64) []byte {
	b = append(b, 'M')
	b = num(b, x)
	b = append(b, ' ')
	return num(b, y)
}

func lineTo(b []byte, x, y float64) []byte {
	b = append(b, 'L')
	b = num(b, x)
	b = append(b, ' ')
	return num(b, y)
}

// clip limits a coordinate to far outside the view, so that huge zooms do
// not make numbers the browser rounds badly.
func clip(x, lo, hi float64) float64 {
	const pad = 2000
	return math.Max(lo-pad, math.Min(hi+pad, x))
}

// Draw produces the frame for viewport v.
func (d *Diagram) Draw(v *Viewport, m *Marks) *Drawing {
	out := &Drawing{}
	t0, t1 := v.T(v.Left), v.T(v.Left+v.Width)
	right := v.Left + v.Width
	bottom := v.Top + v.Height
	rowVisible := func(y float64) bool { return y >= v.Top-v.RowH && y <= bottom+v.RowH }
	cur := m.Cursor
	if cur > 0 {
		out.Cursor = v.X(float64(d.R.Events[cur-1].T))
	} else {
		out.Cursor = v.X(0)
	}
	var view *replay.View
	if cur >= 0 {
		view = d.R.At(cur)
	}

	// overlaps, at least 2 pixels wide so that zooming out keeps them in
	// sight (xs gives b < a for a span out of view)
	var bands []byte
	for _, s := range d.overlaps {
		if a, b := v.xs(s.T0, s.T1); b+2 > a {
			b = math.Max(b, a+2)
			bands = append(lineTo(lineTo(lineTo(moveTo(bands, a, v.Top), b, v.Top), b, bottom), a, bottom), 'Z')
		}
	}
	out.Bands = string(bands)

	// lifelines and lanes
	var life []byte
	xs, xe := clip(v.X(0), v.Left, right), clip(v.X(float64(d.EndT)), v.Left, right)
	xs, xe = math.Max(xs, v.Left), math.Min(math.Max(xe, xs), right)
	for k := range d.rows(v) {
		y, p := v.slotY(k), v.at(k).p
		if !rowVisible(y) {
			continue
		}
		if p < 0 {
			out.Rows = append(out.Rows, Row{Y: y, Quiet: v.at(k).quiet})
			continue
		}
		out.Rows = append(out.Rows, Row{Node: d.R.Nodes[p], Y: y, Down: view != nil && !view.Up[p]})
		if xe > xs {
			life = lineTo(moveTo(life, xs, y), xe, y)
		}
		for _, iv := range d.lanes[p] {
			if a, b := v.xs(iv.t0, iv.t1); b > a {
				out.Lanes[iv.lane] = lineTo(moveTo(out.Lanes[iv.lane], a, y), b, y)
			}
		}
	}
	out.Lifelines = string(life)

	// arrows
	var arrows, heads [NumStyles][]byte
	byKind := make([][NumColoured][2][]byte, len(d.kinds)) // arrows, heads
	var drops, dropMarks []byte
	var labels labeller
	lo, hi := d.visible(t0, t1)
	for i := lo; i < hi; i++ {
		a := &d.arrows[i]
		if float64(a.t1) < t0 {
			continue
		}
		y0, y1 := v.Y(a.from), v.Y(a.to)
		if (y0 < v.Top && y1 < v.Top) || (y0 > bottom && y1 > bottom) {
			continue
		}
		x0, x1 := v.X(float64(a.t0)), v.X(float64(a.t1))
		if a.dropped || a.end < 0 {
			// a stub a quarter of the way when it vanished at once
			if x1-x0 < 1 {
				x1, y1 = x0+12, y0+(y1-y0)/4
			}
			drops = lineTo(moveTo(drops, clip(x0, v.Left, right), y0), clip(x1, v.Left, right), y1)
			if a.dropped {
				dropMarks = cross(dropMarks, x1, y1, 4)
			}
			continue
		}
		s := d.style(a, m)
		line, hd := &arrows[s], &heads[s]
		if s < NumColoured {
			line, hd = &byKind[a.kind][s][0], &byKind[a.kind][s][1]
		}
		cx0, cy0, cx1, cy1 := clipSegment(x0, y0, x1, y1, v.Left-50, right+50)
		*line = lineTo(moveTo(*line, cx0, cy0), cx1, cy1)
		if x1 <= right+10 && x1 >= v.Left-10 {
			*hd = head(*hd, x0, y0, x1, y1)
		}
		out.Arrowed++
		// Arrows in the cursor's future or outside the selected event's
		// cone are faint: their names would only clutter.
		if s != Later && s != Dim && len(out.Labels) < MaxLabels && d.kinds[a.kind].Kind != "" {
			lx0, ly0, lx1, ly1 := clipSegment(x0, y0, x1, y1, v.Left, right)
			mx, my := (lx0+lx1)/2, (ly0+ly1)/2
			w := float64(utf8.RuneCountInString(d.kinds[a.kind].Kind))*LabelCharW + 4
			// an arrow at the plot's edge keeps its name inside the plot
			mx = math.Max(v.Left+w/2, math.Min(mx, right-w/2))
			if math.Hypot(lx1-lx0, ly1-ly0) >= LabelMinLen && my >= v.Top+LabelH/2 && my <= bottom-LabelH/2 &&
				labels.place(box{mx - w/2, my - LabelH/2, mx + w/2, my + LabelH/2}) {
				out.Labels = append(out.Labels, Label{X: mx, Y: my, Kind: a.kind, Style: s})
			}
		}
	}
	for s := range NumStyles {
		out.Arrows[s], out.Heads[s] = string(arrows[s]), string(heads[s])
	}
	out.ByKind = make([][NumColoured]Paths, len(d.kinds))
	for k := range byKind {
		for s := range NumColoured {
			out.ByKind[k][s] = Paths{Arrows: string(byKind[k][s][0]), Heads: string(byKind[k][s][1])}
		}
	}
	out.Drops = string(drops)

	// marks
	var marks, late [NumMarks][]byte
	var conePast, coneFuture, concurrent, sel []byte
	marks[MarkDrop] = dropMarks
	elo, ehi := d.events(t0-1, t1+1)
	for i := elo; i < ehi; i++ {
		p := d.R.NodeOf(i)
		if p < 0 {
			continue
		}
		y := v.Y(p)
		if y < v.Top-8 || y > bottom+8 {
			continue
		}
		x := v.X(float64(d.R.Events[i].T))
		switch {
		case i == m.Selected:
			sel = ring(sel, x, y, 7)
		case m.Past != nil && m.Past[i]:
			conePast = ring(conePast, x, y, 4)
		case m.Future != nil && m.Future[i]:
			coneFuture = ring(coneFuture, x, y, 4)
		case m.Past != nil:
			concurrent = square(concurrent, x, y, 4)
		}
		if m.Stamps && !out.TooMany {
			if out.TooMany = len(out.Stamped) == MaxStamped; out.TooMany {
				out.Stamped = nil
			} else {
				out.Stamped = append(out.Stamped, Placed{I: i, X: x, Y: y})
			}
		}
		mk, ok := markOf(d.R.Events[i].Type)
		if !ok {
			continue
		}
		dst := &marks[mk]
		if i >= cur {
			dst = &late[mk]
		}
		*dst = shape(*dst, mk, x, y)
	}
	for k := range NumMarks {
		out.Marks[k], out.MarksLate[k] = string(marks[k]), string(late[k])
	}
	out.ConePast, out.ConeFuture, out.ConeConcurrent, out.Selected = string(conePast), string(coneFuture), string(concurrent), string(sel)

	var net []byte
	for _, i := range d.netEvent {
		x := v.X(float64(d.R.Events[i].T))
		if x >= v.Left && x <= right {
			net = lineTo(moveTo(net, x, v.Top), x, bottom)
		}
	}
	out.Net = string(net)
	var breaks []byte
	breaks, out.Ticks = v.breaks(nil, ticks(v, t0, t1), bottom)
	out.Breaks = string(breaks)
	return out
}

type box struct{ x0, y0, x1, y1 float64 }

// labeller keeps labels apart: it remembers the boxes placed by the cells
// of a grid they cover, so a new box is compared with its neighbours only.
type labeller struct {
	boxes []box
	cells map[int64][]int // boxes by cell: x<<32 | y
	keys  []int64         // the cells of the box being placed
}

const labelCell = 64.0 // grid cell width; the height is LabelH

// place takes b unless it overlaps a box placed before.
func (l *labeller) place(b box) bool {
	l.keys = l.keys[:0]
	for cx := int(math.Floor(b.x0 / labelCell)); cx <= int(math.Floor(b.x1/labelCell)); cx++ {
		for cy := int(math.Floor(b.y0 / LabelH)); cy <= int(math.Floor(b.y1/LabelH)); cy++ {
			l.keys = append(l.keys, int64(cx)<<32|int64(uint32(cy)))
		}
	}
	for _, c := range l.keys {
		for _, k := range l.cells[c] {
			if o := &l.boxes[k]; b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1 {
				return false
			}
		}
	}
	if l.cells == nil {
		l.cells = map[int64][]int{}
	}
	for _, c := range l.keys {
		l.cells[c] = append(l.cells[c], len(l.boxes))
	}
	l.boxes = append(l.boxes, b)
	return true
}

func markOf(t trace.Type) (Mark, bool) {
	switch t {
	case trace.Crash:
		return MarkCrash, true
	case trace.Recover:
		return MarkRecover, true
	case trace.Timer:
		return MarkTimer, true
	case trace.State:
		return MarkState, true
	case trace.Log, trace.Command:
		return MarkLog, true
	case trace.Suspect, trace.Trust:
		return MarkDetector, true
	}
	return 0, false
}

// shape appends the outline of a mark centred on (x, y).
func shape(b []byte, m Mark, x, y float64) []byte {
	switch m {
	case MarkCrash:
		return cross(b, x, y, 6)
	case MarkRecover:
		return ring(b, x, y, 4)
	case MarkTimer:
		return ring(b, x, y, 3)
	case MarkState:
		b = moveTo(b, x, y-4)
		b = lineTo(b, x+4, y)
		b = lineTo(b, x, y+4)
		b = lineTo(b, x-4, y)
		return append(b, 'Z')
	case MarkLog:
		b = moveTo(b, x-3, y-3)
		b = lineTo(b, x+3, y-3)
		b = lineTo(b, x+3, y+3)
		b = lineTo(b, x-3, y+3)
		return append(b, 'Z')
	case MarkDetector:
		b = moveTo(b, x, y-5)
		b = lineTo(b, x+4, y+3)
		b = lineTo(b, x-4, y+3)
		return append(b, 'Z')
	}
	return b
}

// ring appends a circle of radius r as two arcs.
// Placed is an event in view and where it is drawn.
type Placed struct {
	I    int
	X, Y float64
}

// MaxStamped is the most events labelled with their timestamps: past it,
// labels would cover each other; zooming in brings them.
const MaxStamped = 200

// square is the outline of a square of half-side r around (x, y).
func square(b []byte, x, y, r float64) []byte {
	b = moveTo(b, x-r, y-r)
	for _, d := range [][2]float64{{2 * r, 0}, {0, 2 * r}, {-2 * r, 0}} {
		b = append(b, 'l')
		b = num(b, d[0])
		b = append(b, ' ')
		b = num(b, d[1])
	}
	return append(b, 'z')
}

func ring(b []byte, x, y, r float64) []byte {
	b = moveTo(b, x-r, y)
	b = append(b, 'a')
	b = num(b, r)
	b = append(b, ' ')
	b = num(b, r)
	b = append(b, " 0 1 0 "...)
	b = num(b, 2*r)
	b = append(b, " 0a"...)
	b = num(b, r)
	b = append(b, ' ')
	b = num(b, r)
	b = append(b, " 0 1 0 "...)
	b = num(b, -2*r)
	return append(b, " 0"...)
}

func cross(b []byte, x, y, r float64) []byte {
	b = lineTo(moveTo(b, x-r, y-r), x+r, y+r)
	return lineTo(moveTo(b, x-r, y+r), x+r, y-r)
}

// head appends an arrowhead at (x1, y1) pointing away from (x0, y0).
func head(b []byte, x0, y0, x1, y1 float64) []byte {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	if l < 1e-9 {
		return b
	}
	ux, uy := dx/l, dy/l
	const size, half = 7.0, 3.0
	bx, by := x1-ux*size, y1-uy*size
	b = moveTo(b, x1, y1)
	b = lineTo(b, bx-uy*half, by+ux*half)
	b = lineTo(b, bx+uy*half, by-ux*half)
	return append(b, 'Z')
}

// clipSegment cuts a segment to lo <= x <= hi (both ends interpolated).
func clipSegment(x0, y0, x1, y1, lo, hi float64) (float64, float64, float64, float64) {
	at := func(x float64) float64 {
		if x1 == x0 {
			return y0
		}
		return y0 + (y1-y0)*(x-x0)/(x1-x0)
	}
	if x0 < lo {
		x0, y0 = lo, at(lo)
	}
	if x1 > hi {
		x1, y1 = hi, at(hi)
	}
	return x0, y0, x1, y1
}

// ticks labels the axis every 1, 2 or 5 times a power of ten time units,
// at least 60 pixels apart where time is linear, and not inside the
// collapsed gaps.
func ticks(v *Viewport, t0, t1 float64) []Tick {
	step := 1.0
	for step*v.Scale < 60 {
		switch s := step / math.Pow(10, math.Floor(math.Log10(step))); {
		case s < 1.5:
			step *= 2
		case s < 3:
			step = step / 2 * 5
		default:
			step *= 2
		}
	}
	var out []Tick
	for t := math.Ceil(math.Max(t0, 0)/step) * step; t <= t1 && len(out) < 200; t += step {
		if k := v.gapAt(t); k >= 0 {
			t = math.Ceil(float64(v.gaps[k].T1)/step)*step - step
			continue
		}
		out = append(out, Tick{X: v.X(t), Label: strconv.FormatFloat(t, 'f', -1, 64)})
	}
	return out
}

// Fit returns the viewport that shows the whole run's time in a plot of the
// given size, and all its rows when they fit; see Collapse.
func (d *Diagram) Fit(left, width, top, height float64) Viewport {
	span := math.Max(float64(d.EndT), 1)
	pad := 12.0
	v := Viewport{Scale: (width - 2*pad) / span, Left: left, Width: width, Top: top, Height: height, RowH: d.RowH(height)}
	if d.Collapse && d.gaps != nil {
		// The gaps take GapW each, the rest of the width is linear; a gap
		// that would then be narrower than GapW is not collapsed, and
		// takes its share of the rest instead.
		v.gaps = d.gaps
		for range 4 {
			rest, fixed := span, 0.0
			for k, g := range d.gaps {
				if l := float64(g.T1 - g.T0); l*v.Scale >= GapW {
					rest, fixed = rest-l, fixed+v.w(k)
				}
			}
			v.Scale = math.Max(width-2*pad-fixed, 1) / math.Max(rest, 1)
		}
	}
	v.T0 = v.pInv(-pad)
	return v
}

// RowH is the height of a row in a plot height px tall: rows share the
// height, up to 48 px each and down to 14; below that they keep 22 px and
// the plot scrolls.
func (d *Diagram) RowH(height float64) float64 {
	rowH := math.Min(48, height/math.Max(float64(len(d.R.Nodes)), 1))
	if rowH < 14 {
		rowH = 22
	}
	return rowH
}

// ZoomAt scales the viewport by f around x (pixels), keeping the time under
// x in place; the scale stays within sensible bounds.
func (d *Diagram) ZoomAt(v *Viewport, f, x float64) {
	t := v.T(x)
	minScale := v.Width / math.Max(float64(d.EndT)*4, 1)
	v.Scale = math.Max(minScale, math.Min(v.Scale*f, 400))
	v.Place(t, x)
}

// Hit finds what is under (x, y): the event whose mark (or whose arrow's
// end) is within a few pixels, else the delivery whose arrow passes
// closest. ok is false when nothing is near.
func (d *Diagram) Hit(v *Viewport, x, y float64) (int, bool) {
	const near = 6.0
	best, bestD := -1, near
	elo, ehi := d.events(v.T(x-near), v.T(x+near))
	for i := elo; i < ehi; i++ {
		p := d.R.NodeOf(i)
		if p < 0 {
			continue
		}
		dist := math.Hypot(v.X(float64(d.evTimes[i]))-x, v.Y(p)-y)
		if dist <= bestD {
			best, bestD = i, dist
		}
	}
	if best >= 0 {
		return best, true
	}
	bestD = 4
	lo, hi := d.visible(v.T(x-near), v.T(x+near))
	for i := lo; i < hi; i++ {
		a := &d.arrows[i]
		if a.end < 0 || a.dropped {
			continue
		}
		dist := layout.SegmentDistance(x, y, v.X(float64(a.t0)), v.Y(a.from), v.X(float64(a.t1)), v.Y(a.to))
		if dist <= bestD {
			best, bestD = a.end, dist
		}
	}
	return best, best >= 0
}

// Band is the index in Overlaps of the overlap whose band is under x (a
// band is at least 2 pixels wide), or -1.
func (d *Diagram) Band(v *Viewport, x float64) int {
	for k, s := range d.overlaps {
		if a, b := v.xs(s.T0, s.T1); x >= a && x <= math.Max(b, a+2) {
			return k
		}
	}
	return -1
}

// RowsHeight is the height all rows take.
func (d *Diagram) RowsHeight(v *Viewport) float64 { return float64(d.rows(v)) * v.RowH }

// Reveal scrolls the viewport, keeping the zoom, so that event i is in
// sight: an axis moves only when the event is outside the plot along it,
// and then centres the event. It lays out the rows for the new window with
// i selected.
func (d *Diagram) Reveal(v *Viewport, i int) {
	if x := v.X(float64(d.evTimes[i])); x < v.Left || x > v.Left+v.Width {
		v.Place(float64(d.evTimes[i]), v.Left+v.Width/2)
	}
	d.Layout(v, i)
	if p := d.R.NodeOf(i); p >= 0 {
		if y := v.Y(p); y < v.Top || y > v.Top+v.Height {
			v.centre(v.slot(p))
		}
	}
}
