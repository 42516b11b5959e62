// Package replay turns one world's recorded trace into what the playground
// shows at any point of the run: which processes are up, their observable
// state, the colour their role earns, and the messages in flight. It keeps a
// snapshot every K events so that moving the timeline to any event costs at
// most K events of replay, and it answers causal questions (the past and
// future of an event under happens-before).
//
// It is plain Go with no browser dependency, so it is tested natively.
package replay

import (
	"bytes"
	"math"
	"sort"
	"strings"

	"dsim/core/algo/election"
	"dsim/core/algo/mutex"
	"dsim/core/algo/txn"
	"dsim/core/trace"
	"dsim/wasm/internal/passes"
)

// Class is the colour class a process earns from its state.
type Class string

const (
	None      Class = ""
	Crashed   Class = "crashed"
	InCS      Class = "in-cs"
	Token     Class = "token"
	Leader    Class = "leader"
	Candidate Class = "candidate"
	Waiting   Class = "waiting"
	Running   Class = "running" // runs a transaction it began (the transaction model)
)

// KV is one observable state entry; Value is its JSON text.
type KV struct {
	Key, Value string
}

// Flight is one copy of a message on its way: the network may duplicate a
// send, so a send has one flight per deliver or drop it led to (or one
// flight with End -1 when the run ended before it arrived).
type Flight struct {
	Send, End int // event indexes; End is -1 when the message never arrived
	From, To  int
	Kind      string
	Dropped   bool
}

// ClassChange is a process taking another class at an event.
type ClassChange struct {
	Index, Pos int // event index, process position
	Class      Class
}

// KindStat counts the messages of one kind.
type KindStat struct {
	Kind                     string
	Sent, Delivered, Dropped int
}

// CheckRef is one expectation recorded in the trace.
type CheckRef struct {
	Index int // event index
	Seq   uint64
	Pass  bool
	Text  string
	Line  int
}

// Replay indexes one world's events.
type Replay struct {
	Header  trace.Header
	Events  []trace.Event
	Nodes   []int // process ids: the header's, in ring order, then any others the events name
	Flights []Flight
	Kinds   []KindStat
	Checks  []CheckRef
	// StateKeys are the observable state keys the run sets, in the order
	// they first appear.
	StateKeys []string
	// Classes are the changes of the processes' classes (View.Class), in
	// event order; every process starts with None.
	Classes []ClassChange

	pos         map[int]int
	nodeOf      []int32 // event index -> position of its process, or -1
	sendOf      []int32 // deliver/drop index -> its send's index, or -1
	recvOf      []int32 // deliver index -> its send's index, or -1 (drops are not causal)
	firstFlight []int32 // send index -> its first flight (flights of a send are contiguous), or -1
	endFlight   []int32 // deliver/drop index -> its flight, or -1
	k           int
	snaps       []snapshot
	lower       []string  // lower-cased texts of the first events, for Filter (see PrepareText)
	lamport     []int     // see Lamport, once asked for
	vector      [][]int32 // see Vector, once asked for
}

// snapshot is the view before event number i*k. Per-process state slices
// are never modified once built (a change makes a new slice), so snapshots
// share them.
type snapshot struct {
	up       []bool
	state    [][]KV
	inFlight []int32 // flight indexes, ascending
}

// DefaultK is the snapshot interval.
const DefaultK = 256

// New indexes a world; k <= 0 means DefaultK.
func New(w *trace.World, k int) *Replay {
	b := NewBuilder(w, k)
	for !b.Step(math.MaxInt) {
	}
	return b.Replay()
}

// Builder indexes a world a bounded number of events at a time, so that a
// page can index a long trace in slices between which it keeps responding:
// a world of 100,000 events takes a tenth of a second at once. It makes
// the same Replay as New.
//
// The work is three passes over the events: the first finds each event's
// process and each delivery's send and counts the kinds, the second lists
// the flights, the third replays the run into snapshots and class changes.
type Builder struct {
	r      *Replay
	passes *passes.Runner

	// the first pass. Message ids are dense from 1 in a kernel's trace, so
	// slices indexed by id do the work of maps at a fraction of the cost
	// (this runs in WebAssembly on every result); ids far apart fall back
	// to a map.
	sendAt  *idTable // message id -> send index
	endHead []int32  // send index -> its first deliver or drop
	endNext []int32  // deliver or drop index -> the next one of the same send
	endTail []int32  // send index -> its last deliver or drop
	kinds   map[string]*KindStat
	keySeen map[string]bool
	lastID  int // the process of the last event at one, and its position
	lastPos int

	// the third pass
	view     *View
	inFlight []int32
	class    []Class
}

// NewBuilder starts indexing a world; k <= 0 means DefaultK.
func NewBuilder(w *trace.World, k int) *Builder {
	if k <= 0 {
		k = DefaultK
	}
	n := len(w.Events)
	r := &Replay{Header: w.Header, Events: w.Events, pos: map[int]int{}, k: k,
		nodeOf: make([]int32, n), sendOf: make([]int32, n), recvOf: make([]int32, n), firstFlight: make([]int32, n), endFlight: make([]int32, n)}
	for _, id := range w.Header.IDs {
		r.node(id)
	}
	b := &Builder{r: r, sendAt: newIDTable(n), endHead: make([]int32, n), endNext: make([]int32, n), endTail: make([]int32, n),
		kinds: map[string]*KindStat{}, keySeen: map[string]bool{}, lastPos: -1}
	events := func() int { return n }
	b.passes = passes.New(
		passes.Pass{Len: events, Run: b.scan},
		passes.Pass{Len: events, Run: b.flights, Done: b.startSnapshots},
		passes.Pass{Len: events, Run: b.snapshots, Done: b.endSnapshots},
	)
	return b
}

// Step indexes up to n more events' worth (n > 0) and reports whether the
// index is complete.
func (b *Builder) Step(n int) bool { return b.passes.Step(n) }

// Replay is the index, once Step has reported it complete; nil before.
func (b *Builder) Replay() *Replay {
	if !b.passes.Done() {
		return nil
	}
	return b.r
}

// scan is the first pass over events [lo, hi).
func (b *Builder) scan(lo, hi int) {
	r := b.r
	kind := func(k string) *KindStat {
		s := b.kinds[k]
		if s == nil {
			s = &KindStat{Kind: k}
			b.kinds[k] = s
		}
		return s
	}
	for i := lo; i < hi; i++ {
		e := &r.Events[i]
		r.nodeOf[i], r.sendOf[i], r.recvOf[i], r.firstFlight[i], r.endFlight[i] = -1, -1, -1, -1, -1
		b.endHead[i], b.endNext[i], b.endTail[i] = -1, -1, -1
		if e.Node != trace.NoNode {
			if e.Node != b.lastID || b.lastPos < 0 {
				b.lastID, b.lastPos = e.Node, r.node(e.Node)
			}
			r.nodeOf[i] = int32(b.lastPos)
		}
		switch e.Type {
		case trace.Send:
			b.sendAt.set(e.MsgID, int32(i))
			kind(e.Kind).Sent++
		case trace.Deliver, trace.Drop:
			if s, ok := b.sendAt.get(e.MsgID); ok {
				r.sendOf[i] = s
				if b.endTail[s] < 0 {
					b.endHead[s] = int32(i)
				} else {
					b.endNext[b.endTail[s]] = int32(i)
				}
				b.endTail[s] = int32(i)
			}
			if e.Type == trace.Deliver {
				r.recvOf[i] = r.sendOf[i]
				kind(e.Kind).Delivered++
			} else {
				kind(e.Kind).Dropped++
			}
		case trace.Check:
			r.Checks = append(r.Checks, CheckRef{Index: i, Seq: e.Seq, Pass: e.Pass, Text: e.Text, Line: e.Line})
		case trace.State:
			if !b.keySeen[e.Key] {
				b.keySeen[e.Key] = true
				r.StateKeys = append(r.StateKeys, e.Key)
			}
		}
	}
}

// flights is the second pass over events [lo, hi): the flights of their
// sends, which the first pass linked to their delivers and drops.
func (b *Builder) flights(lo, hi int) {
	r := b.r
	for i := lo; i < hi; i++ {
		e := &r.Events[i]
		if e.Type != trace.Send {
			continue
		}
		if s, _ := b.sendAt.get(e.MsgID); s != int32(i) {
			continue // a later send reused the id: its deliveries are its own
		}
		r.firstFlight[i] = int32(len(r.Flights))
		f := Flight{Send: i, End: -1, From: e.From, To: e.To, Kind: e.Kind}
		if b.endHead[i] < 0 {
			r.Flights = append(r.Flights, f)
		}
		for end := b.endHead[i]; end >= 0; end = b.endNext[end] {
			f.End, f.Dropped = int(end), r.Events[end].Type == trace.Drop
			r.endFlight[end] = int32(len(r.Flights))
			r.Flights = append(r.Flights, f)
		}
	}
}

// startSnapshots ends the second pass: the kinds are all counted and the
// processes all known, and the third pass starts from every one up, in no
// class.
func (b *Builder) startSnapshots() {
	r := b.r
	for _, s := range b.kinds {
		r.Kinds = append(r.Kinds, *s)
	}
	sort.Slice(r.Kinds, func(a, b int) bool { return r.Kinds[a].Kind < r.Kinds[b].Kind })
	b.view = &View{Up: make([]bool, len(r.Nodes)), State: make([][]KV, len(r.Nodes))}
	for i := range b.view.Up {
		b.view.Up[i] = true
	}
	b.class = make([]Class, len(r.Nodes))
}

// snapshots is the third pass over events [lo, hi): it replays them,
// keeping a snapshot before every k-th and the class changes.
func (b *Builder) snapshots(lo, hi int) {
	r, v := b.r, b.view
	for i := lo; i < hi; i++ {
		if i%r.k == 0 {
			b.snapshot(i)
		}
		r.apply(v, i)
		if p := r.nodeOf[i]; p >= 0 {
			if c := v.Class(int(p)); c != b.class[p] {
				b.class[p] = c
				r.Classes = append(r.Classes, ClassChange{i, int(p), c})
			}
		}
	}
}

// endSnapshots keeps the view after the last event when a snapshot falls
// there.
func (b *Builder) endSnapshots() {
	if n := len(b.r.Events); n%b.r.k == 0 {
		b.snapshot(n)
	}
}

// snapshot keeps the view before event i.
func (b *Builder) snapshot(i int) {
	r, v := b.r, b.view
	b.inFlight = r.inFlightAt(i, b.inFlight, max(0, i-r.k))
	r.snaps = append(r.snaps, snapshot{up: append([]bool(nil), v.Up...),
		state: append([][]KV(nil), v.State...), inFlight: b.inFlight})
}

// idTable maps message ids to event indexes: a slice for the dense ids a
// kernel hands out, a map for any others.
type idTable struct {
	dense  []int32 // by id; -1: none
	sparse map[uint64]int32
}

func newIDTable(events int) *idTable {
	t := &idTable{dense: make([]int32, events+64)}
	for i := range t.dense {
		t.dense[i] = -1
	}
	return t
}

func (t *idTable) set(id uint64, v int32) {
	if id < uint64(len(t.dense)) {
		t.dense[id] = v
		return
	}
	if t.sparse == nil {
		t.sparse = map[uint64]int32{}
	}
	t.sparse[id] = v
}

func (t *idTable) get(id uint64) (int32, bool) {
	if id < uint64(len(t.dense)) {
		return t.dense[id], t.dense[id] >= 0
	}
	v, ok := t.sparse[id]
	return v, ok
}

func (r *Replay) node(id int) int {
	if p, ok := r.pos[id]; ok {
		return p
	}
	r.pos[id] = len(r.Nodes)
	r.Nodes = append(r.Nodes, id)
	return len(r.Nodes) - 1
}

// Pos is the position of process id in Nodes.
func (r *Replay) Pos(id int) (int, bool) {
	p, ok := r.pos[id]
	return p, ok
}

// NodeOf is the position of event i's process, or -1 for an event at no
// process.
func (r *Replay) NodeOf(i int) int { return int(r.nodeOf[i]) }

// SendOf is the index of the send a deliver or drop belongs to, or -1.
func (r *Replay) SendOf(i int) int { return int(r.sendOf[i]) }

// FlightsOf returns the flights of event i: a send's copies, or the one
// flight a deliver or drop ends.
func (r *Replay) FlightsOf(i int) []int {
	if f := r.endFlight[i]; f >= 0 {
		return []int{int(f)}
	}
	f := r.firstFlight[i]
	if f < 0 {
		return nil
	}
	var out []int
	for k := int(f); k < len(r.Flights) && r.Flights[k].Send == i; k++ {
		out = append(out, k)
	}
	return out
}

// inFlightAt lists the flights under way after n events, given those under
// way after `from` events (from <= n): the ones still travelling, then the
// ones sent since.
func (r *Replay) inFlightAt(n int, prev []int32, from int) []int32 {
	var out []int32
	travelling := func(f int32) bool { e := r.Flights[f].End; return e < 0 || e >= n }
	for _, f := range prev {
		if travelling(f) {
			out = append(out, f)
		}
	}
	first := sort.Search(len(r.Flights), func(k int) bool { return r.Flights[k].Send >= from })
	for f := first; f < len(r.Flights) && r.Flights[f].Send < n; f++ {
		if travelling(int32(f)) {
			out = append(out, int32(f))
		}
	}
	return out
}

// View is the run as it stood after the first N events.
type View struct {
	N     int
	T     int64  // time of the last applied event (0 before any)
	Up    []bool // by position in Nodes
	State [][]KV // by position in Nodes, in the order the keys were first set; empty while crashed

	inFlight []int32 // ascending
}

// At returns the view after the first n events (0 <= n <= len(Events)).
func (r *Replay) At(n int) *View {
	n = max(0, min(n, len(r.Events)))
	s := &r.snaps[n/r.k]
	base := n / r.k * r.k
	v := &View{Up: append([]bool(nil), s.up...), State: append([][]KV(nil), s.state...),
		inFlight: r.inFlightAt(n, s.inFlight, base)}
	for i := base; i < n; i++ {
		r.apply(v, i)
	}
	v.N = n
	if n > 0 {
		v.T = r.Events[n-1].T
	}
	return v
}

func (r *Replay) apply(v *View, i int) {
	e := &r.Events[i]
	p := r.nodeOf[i]
	switch e.Type {
	case trace.Crash:
		v.Up[p], v.State[p] = false, nil
	case trace.Recover:
		v.Up[p], v.State[p] = true, nil
	case trace.State:
		v.State[p] = setKey(v.State[p], e.Key, e.New)
	}
	v.T = e.T
}

// setKey returns a new slice with key set to value (removed when nil).
func setKey(kvs []KV, key string, value any) []KV {
	out := make([]KV, 0, len(kvs)+1)
	found := false
	for _, kv := range kvs {
		if kv.Key == key {
			found = true
			if value == nil {
				continue
			}
			kv.Value = jsonText(value)
		}
		out = append(out, kv)
	}
	if !found && value != nil {
		out = append(out, KV{key, jsonText(value)})
	}
	return out
}

func jsonText(v any) string { return string(trace.AppendJSON(nil, v)) }

// InFlight lists the flights under way in the view, by send order.
func (v *View) InFlight() []int {
	out := make([]int, len(v.inFlight))
	for i, f := range v.inFlight {
		out[i] = int(f)
	}
	return out
}

// Get returns the JSON text of process position p's key, and whether it is
// set.
func (v *View) Get(p int, key string) (string, bool) {
	for _, kv := range v.State[p] {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// Leader returns the JSON text of the leader process position p follows,
// and whether it knows one.
func (v *View) Leader(p int) (string, bool) { return v.Get(p, election.KeyLeader) }

// classes are the colour classes a live process earns, by the state value
// that earns each, the most specific first. The keys and values are the
// families' own (core/algo/mutex, core/algo/election), which a test holds
// to keys some algorithm declares.
var classes = []struct {
	class Class
	key   string
	value string // JSON text
}{
	{InCS, mutex.KeyCS, jsonText(mutex.Held)},
	{Token, mutex.KeyToken, jsonText(true)},
	{Leader, election.KeyRole, jsonText(election.Leader)},
	{Candidate, election.KeyRole, jsonText(election.Candidate)},
	{Waiting, mutex.KeyCS, jsonText(mutex.Wanted)},
}

// Class is the colour class of process position p: a crash hides every
// other state; otherwise the first class of classes whose state it has.
func (v *View) Class(p int) Class {
	if !v.Up[p] {
		return Crashed
	}
	for _, c := range classes {
		if got, ok := v.Get(p, c.key); ok && got == c.value {
			return c.class
		}
	}
	// A transaction's home site shows its transaction's status, as the
	// last change of its txn key gives it: [T, status, ts].
	if got, ok := v.Get(p, txn.KeyTxn); ok {
		if s, ok := trace.IntsOf(trace.Raw(got)); ok && len(s) == 3 {
			switch s[1] {
			case txn.Running:
				return Running
			case txn.Waiting:
				return Waiting
			}
		}
	}
	return None
}

// IndexOfSeq finds the event with the given seq (events are in seq order).
func (r *Replay) IndexOfSeq(seq uint64) (int, bool) {
	i := sort.Search(len(r.Events), func(i int) bool { return r.Events[i].Seq >= seq })
	return i, i < len(r.Events) && r.Events[i].Seq == seq
}

// Causal returns the events that happened before event x (past) and after
// it (future) under happens-before: the order of events at one process plus
// send -> deliver. x itself is in neither. Events at no process (scenario
// logs, checks) have no causal place and are in neither; when x is one of
// them it has no cone at all, and both are nil: a view selecting a check
// shows the run as at the cursor rather than dim it all.
//
// The trace order is a linearisation of happens-before, so one backward and
// one forward sweep suffice: an earlier event is in the past when a later
// past event shares its process or it is the send of a past delivery.
func (r *Replay) Causal(x int) (past, future []bool) {
	px := r.nodeOf[x]
	if px < 0 {
		return nil, nil
	}
	past, future = make([]bool, len(r.Events)), make([]bool, len(r.Events))
	reached := make([]bool, len(r.Nodes))
	reached[px] = true
	need := make([]bool, len(r.Events)) // sends whose deliveries are in the past
	if s := r.recvOf[x]; s >= 0 {
		need[s] = true
	}
	for i := x - 1; i >= 0; i-- {
		p := r.nodeOf[i]
		if p < 0 || !(reached[p] || need[i]) {
			continue
		}
		past[i], reached[p] = true, true
		if s := r.recvOf[i]; s >= 0 {
			need[s] = true
		}
	}
	clear(reached)
	reached[px] = true
	// Forward, future[s] for a send s says its deliveries are in the future.
	future[x] = true
	for i := x + 1; i < len(r.Events); i++ {
		p := r.nodeOf[i]
		if p < 0 {
			continue
		}
		if reached[p] {
			future[i] = true
		} else if s := r.recvOf[i]; s >= 0 && future[s] {
			future[i], reached[p] = true, true
		}
	}
	future[x] = false
	return past, future
}

// Text is the readable one-line form of event i, without its time.
func (r *Replay) Text(i int) string { return Text(&r.Events[i]) }

// Text is the log's text of an event: its text form without the time.
func Text(ev *trace.Event) string {
	e := *ev
	e.T = 0
	b := trace.AppendText(nil, &e)
	b = bytes.TrimSuffix(b, []byte("\n"))
	// AppendText pads the time; drop "t=0" and the padding.
	b = bytes.TrimLeft(bytes.TrimPrefix(b, []byte("t=0")), " ")
	return string(b)
}

// AnyNode in a Filter means every process.
const AnyNode = trace.NoNode

// Filter selects events for the log; zero fields (and AnyNode) select all.
type Filter struct {
	Node int        // process id, or AnyNode
	Type trace.Type // 0: every type
	Kind string     // message kind or command name
	Text string     // case-insensitive substring of the event's text form
}

// Filter returns the indexes of the events f selects, in order.
func (r *Replay) Filter(f Filter) []int {
	needle := strings.ToLower(f.Text)
	out := make([]int, 0, len(r.Events))
	for i := range r.Events {
		if f.match(&r.Events[i], needle, func() string { return r.lowerText(i) }) {
			out = append(out, i)
		}
	}
	return out
}

// match reports whether f selects e, whose lower-cased text lower gives
// when the needle (f.Text lower-cased) asks for it.
func (f *Filter) match(e *trace.Event, needle string, lower func() string) bool {
	return (f.Node == AnyNode || e.Node == f.Node) &&
		(f.Type == 0 || e.Type == f.Type) &&
		(f.Kind == "" || e.Kind == f.Kind) &&
		(needle == "" || strings.Contains(lower(), needle))
}

// Find is the position of the first event of w that f selects from
// position from on (forward), or the last before position from (not
// forward); -1 when there is none. It reads the world a stretch at a time,
// so that it serves a world kept whole in the engine, which the page holds
// only windows of.
func Find(w *trace.World, f Filter, from int, forward bool) int {
	needle := strings.ToLower(f.Text)
	const stretch = 4096
	found := -1
	scan := func(lo, hi int, last bool) {
		i := lo
		w.EachIn(lo, hi, func(e *trace.Event) {
			if (found < 0 || last) && f.match(e, needle, func() string { return strings.ToLower(Text(e)) }) {
				found = i
			}
			i++
		})
	}
	if forward {
		for lo := max(from, 0); found < 0 && lo < w.Len(); lo += stretch {
			scan(lo, lo+stretch, false)
		}
		return found
	}
	for hi := min(from, w.Len()); found < 0 && hi > 0; hi -= stretch {
		scan(max(hi-stretch, 0), hi, true)
	}
	return found
}

// PrepareText makes the lower-cased texts that a text search compares, for
// up to n more events, and reports whether every event has one. Filter
// makes the missing ones itself: a page calls PrepareText in idle time so
// that the first search does not pay for tens of thousands of them at once.
func (r *Replay) PrepareText(n int) bool {
	if r.lower == nil {
		r.lower = make([]string, 0, len(r.Events))
	}
	for k := 0; k < n && len(r.lower) < len(r.Events); k++ {
		r.lower = append(r.lower, strings.ToLower(r.Text(len(r.lower))))
	}
	return len(r.lower) == len(r.Events)
}

// lowerText is the lower-cased text of event i, computed once.
func (r *Replay) lowerText(i int) string {
	if i >= len(r.lower) {
		r.PrepareText(i + 1 - len(r.lower))
	}
	return r.lower[i]
}

// KindNames lists the message kinds and command names that occur, sorted.
func (r *Replay) KindNames() []string {
	seen := map[string]bool{}
	var out []string
	for i := range r.Events {
		if k := r.Events[i].Kind; k != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
