package sim

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"unsafe"

	"dsim/core/proc"
	"dsim/core/trace"
)

// Topology is the shape the kernel needs: the processes in ring order and
// who is adjacent to whom. Package topo builds these. The kernel keeps the
// slices rather than copies: do not change them after New.
type Topology struct {
	Name string
	IDs  []NodeID // ring order: Context.Neighbor walks it
	// Adj lists each process's out-neighbours as indexes into IDs; nil means
	// the complete graph.
	Adj [][]int32
}

// Config sets up a run.
type Config struct {
	Seed     uint64
	Topology Topology
	Factory  Factory
	Link     Link // the network's default link model
	// DetectDelay is how long the failure detector takes to suspect a
	// crashed process, and to trust a recovered one again.
	DetectDelay Duration
	// MaxEvents and MaxTime bound the whole run (0: no bound). Reaching one
	// stops the run with a clear reason rather than letting it spin. Callers
	// that run untrusted scenarios must set at least one of them: a node
	// that re-arms a zero-delay timer forever never lets the queue empty.
	MaxEvents uint64
	MaxTime   Time
}

// yieldEvery is how many events Run processes between yields to other
// goroutines (see Run).
const yieldEvery = 1 << 16

// Forever is the latest time anything can be scheduled for; later requests
// are moved to it, so that time arithmetic never overflows.
const Forever Time = 1 << 62

// MaxDelay, MinID and MaxID are the contract's bounds (see package proc).
const (
	MaxDelay = proc.MaxDelay
	MinID    = proc.MinID
	MaxID    = proc.MaxID
)

// Observer receives every trace event as it happens. The event is reused
// after the call returns: copy it to keep it.
type Observer func(e *trace.Event)

// Sim is one run of one system.
type Sim struct {
	cfg   Config
	now   Time
	q     queue
	nodes []nodeRT
	ids   []NodeID
	ring2 []NodeID // ids twice over, built by the first Peers: it slices them without allocating
	dense []int32  // id-minID -> index+1, when ids are compact
	// members has bit id-minID set for every process id, when ids are
	// compact: IsProcess reads it rather than dense, which is 32 times
	// larger and, for a million processes, far from every cache.
	members []uint64
	minID   NodeID
	byID    map[NodeID]int32
	nbrs    []NodeID // Adj as ids, node i's at nbrs[nbrOff[i]:nbrOff[i+1]], from the first Neighbors
	nbrOff  []int32

	links  map[uint64]*Link
	fifo   fifoTable
	fifoOn bool // see startFIFO
	// plainLat is the latency of every message while the network is the
	// default one, constant, lossless and without duplicates; -1 otherwise.
	plainLat Time
	group    []int32 // partition group per process, from the first Partition
	split    bool    // some processes are in different groups
	cut      map[uint64]bool
	severed  bool   // split, or some link is cut: messages must be checked
	suspects []bool // the detector's view per process, from the first crash
	nSuspect int    // how many processes are suspected

	latRng, lossRng *rand.Rand

	observers []Observer
	tev       trace.Event
	tseq      uint64

	crashes uint32 // crashes so far, in the whole run
	// dead counts the queue entries that will do nothing when their time
	// comes: cancelled or re-armed timers, timers of a crashed process and
	// detector transitions overtaken by another crash or recovery. They do
	// not keep a run from being quiescent.
	dead int
	// detectTok holds, per process, the token of its pending detector
	// transition (0: none); allocated at the first crash.
	detectTok []uint64
	detectID  uint64
	msgID     uint64
	timerID   uint64
	actionID  uint64
	actions   map[uint64]func()

	// What processes rarely touch lives here rather than in nodeRT: their
	// state, and from their first use timers, random streams and clock
	// settings.
	st     stateStore
	timers []map[string]uint64
	rngs   []*rand.Rand
	// stable holds each process's stable log (see WriteStable): kept
	// across crashes, allocated at the first write.
	stable [][]string
	clocks []clock
	hist   clockHistory

	events uint64
	// lastMsg is the message delivered or sent last and lastKind its kind
	// index: see kindOf.
	lastMsg  Message
	lastKind int32
	stop     bool
	kinds    []KindStats
	reasons  map[string]uint64
	running  bool
	// work counts the values of the state lists set; overworked: it
	// passed the work limit (see WorkPerEvent), which stops every Run.
	work       uint64
	overworked bool
}

// nodeRT is one process's runtime record: what a delivery and a typical
// handler touch (up, crash counter, Node, id, successor, send hint), in one
// 64-byte cache line. At a million processes each delivery's record is a
// cache miss, and a second line would double it; everything else about a
// process lives in the Sim's per-process slices.
type nodeRT struct {
	s    *Sim
	node Node
	// Ids are held as int32, which MinID and MaxID allow, to fit the line.
	id      int32
	succ    int32 // Neighbor(1), kept here because rings ask for it per message
	succIdx int32
	// hintID and hint (index+1, 0: none) remember the last id Neighbor
	// resolved, so that Send to it skips the id lookup.
	hintID int32
	hint   int32
	idx    int32
	// crashed is the run's crash counter as of this process's latest crash
	// (0: never). A message or timer for it carries the counter as of its
	// scheduling and is discarded when the process crashed after that.
	crashed uint32
	// lives counts this process's crashes: its incarnation number, which
	// keys its random stream.
	lives  uint32
	up     bool
	booted bool
	_      [2]byte // pads the record to the cache line
}

// KV is one observable state entry.
type KV struct {
	Key   string
	Value any
}

// New builds a run. Nodes boot at time 0, in ring order, when it first runs.
func New(cfg Config) (*Sim, error) {
	n := len(cfg.Topology.IDs)
	if n == 0 {
		return nil, errors.New("sim: no processes")
	}
	if n > math.MaxInt32/2 {
		return nil, fmt.Errorf("sim: %d processes are too many", n)
	}
	if cfg.Factory == nil {
		return nil, errors.New("sim: no node factory")
	}
	if err := cfg.Link.Validate(); err != nil {
		return nil, err
	}
	if cfg.DetectDelay < 0 {
		return nil, errors.New("sim: the detector delay must not be negative")
	}
	cfg.DetectDelay = min(cfg.DetectDelay, MaxDelay)
	s := &Sim{
		cfg:     cfg,
		ids:     cfg.Topology.IDs,
		nodes:   make([]nodeRT, n),
		st:      newStateStore(n),
		latRng:  Stream(cfg.Seed, "latency", 0),
		lossRng: Stream(cfg.Seed, "loss", 0),
		actions: map[uint64]func(){},
		reasons: map[string]uint64{},
		// With one constant default latency and no overrides every message
		// takes equally long, so FIFO links keep order by themselves.
		fifoOn:   !cfg.Link.Latency.constant(),
		plainLat: -1,
	}
	if l := cfg.Link; !s.fifoOn && l.Loss == 0 && l.Dup == 0 {
		s.plainLat = Time(l.Latency.A)
	}
	if err := s.indexIDs(); err != nil {
		return nil, err
	}
	if err := s.checkAdj(cfg.Topology.Adj); err != nil {
		return nil, err
	}
	for i, id := range s.ids {
		next := (i + 1) % n
		// Field by field into the zeroed record: a composite literal is
		// copied with a bulk write barrier while the collector runs, which
		// allocating the records has just set going (under js/wasm that
		// copy was over half of New for a million processes).
		rt := &s.nodes[i]
		rt.s, rt.idx, rt.id, rt.up, rt.succ, rt.succIdx = s, int32(i), int32(id), true, int32(s.ids[next]), int32(next)
	}
	s.q.boot(n)
	return s, nil
}

func (s *Sim) indexIDs() error {
	lo, hi := s.ids[0], s.ids[0]
	for _, id := range s.ids {
		if id < MinID { // the one int32 below: the trace's "no process"
			return fmt.Errorf("sim: process id %d is outside [%d, %d]", id, MinID, MaxID)
		}
		lo, hi = min(lo, id), max(hi, id)
	}
	n := len(s.ids)
	if int64(hi)-int64(lo) < 4*int64(n)+64 {
		s.minID = lo
		s.dense = make([]int32, int(hi-lo)+1)
		for i, id := range s.ids {
			if s.dense[id-lo] != 0 {
				return fmt.Errorf("sim: process id %d appears twice", id)
			}
			s.dense[id-lo] = int32(i) + 1
		}
		s.members = make([]uint64, len(s.dense)/64+1)
		for _, id := range s.ids {
			k := id - lo
			s.members[k/64] |= 1 << (k % 64)
		}
		return nil
	}
	s.byID = make(map[NodeID]int32, n)
	for i, id := range s.ids {
		if _, dup := s.byID[id]; dup {
			return fmt.Errorf("sim: process id %d appears twice", id)
		}
		s.byID[id] = int32(i)
	}
	return nil
}

// checkAdj checks the adjacency. Neighbors flattens it into ids when first
// called (see flattenAdj): algorithms that only walk a ring never do.
func (s *Sim) checkAdj(adj [][]int32) error {
	if adj == nil {
		return nil
	}
	n := len(s.ids)
	if len(adj) != n {
		return fmt.Errorf("sim: adjacency has %d rows for %d processes", len(adj), n)
	}
	for i, row := range adj {
		for _, j := range row {
			if j < 0 || int(j) >= n {
				return fmt.Errorf("sim: adjacency of process %d names index %d, outside [0, %d)", s.ids[i], j, n)
			}
		}
	}
	return nil
}

// flattenAdj turns the adjacency into ids in one array, so that Neighbors
// allocates nothing.
func (s *Sim) flattenAdj() {
	adj := s.cfg.Topology.Adj
	total := 0
	for _, row := range adj {
		total += len(row)
	}
	s.nbrs = make([]NodeID, 0, total)
	s.nbrOff = make([]int32, len(adj)+1)
	for i, row := range adj {
		for _, j := range row {
			s.nbrs = append(s.nbrs, s.ids[j])
		}
		s.nbrOff[i+1] = int32(len(s.nbrs))
	}
}

func (s *Sim) index(id NodeID) (int32, bool) {
	if s.dense != nil {
		k := int64(id) - int64(s.minID)
		if k < 0 || k >= int64(len(s.dense)) || s.dense[k] == 0 {
			return 0, false
		}
		return s.dense[k] - 1, true
	}
	i, ok := s.byID[id]
	return i, ok
}

// Stream derives an independent random stream from the run seed, a purpose
// and a number, so that adding draws to one purpose never shifts another.
func Stream(seed uint64, purpose string, k uint64) *rand.Rand {
	h := uint64(14695981039346656037)
	for i := 0; i < len(purpose); i++ {
		h ^= uint64(purpose[i])
		h *= 1099511628211
	}
	return rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, h^(k*0xbf58476d1ce4e5b9)))
}

// entry schedules a queue entry at time at and returns it to be filled in.
func (s *Sim) entry(at Time) *event { return s.q.slot(min(at, Forever)) }

// Observe adds an observer. With no observer the kernel builds no trace
// events at all.
func (s *Sim) Observe(o Observer) { s.observers = append(s.observers, o) }

// Now is the true virtual time.
func (s *Sim) Now() Time { return s.now }

// IDs lists the processes in ring order.
func (s *Sim) IDs() []NodeID { return s.ids }

// Has reports whether id is a process of this run.
func (s *Sim) Has(id NodeID) bool { _, ok := s.index(id); return ok }

// Pending is the number of scheduled events that will still do something:
// cancelled timers and other dead entries do not count.
func (s *Sim) Pending() int { return s.q.len() - s.dead }

// Events is the number of events processed so far.
func (s *Sim) Events() uint64 { return s.events }

// Stop makes the current Run return after the event in progress.
func (s *Sim) Stop() { s.stop = true }

// Running reports whether a Run or Step is in progress: neither may start
// from inside one (it panics).
func (s *Sim) Running() bool { return s.running }

func (s *Sim) tracing() bool { return len(s.observers) > 0 }

func (s *Sim) emit() {
	s.tev.T = int64(s.now)
	s.tev.Seq = s.tseq
	s.tseq++
	for _, o := range s.observers {
		o(&s.tev)
	}
}

// begin resets the scratch event for a new trace event at node idx (-1: none).
func (s *Sim) begin(t trace.Type, idx int32) *trace.Event {
	s.tev = trace.Event{Type: t, Node: trace.NoNode}
	if idx >= 0 {
		rt := &s.nodes[idx]
		s.tev.Node = int(rt.id)
		s.tev.Local = int64(s.local(idx, s.now))
	}
	return &s.tev
}

// Emit records a scenario-level event (log line, check, command) at the
// current time.
func (s *Sim) Emit(e trace.Event) {
	if !s.tracing() {
		return
	}
	s.tev = e
	s.tev.Local = 0
	if e.Node != trace.NoNode {
		if i, ok := s.index(NodeID(e.Node)); ok {
			s.tev.Local = int64(s.local(i, s.now))
		}
	}
	s.emit()
}

// StopReason says why a Run returned.
type StopReason string

const (
	Quiescent   StopReason = "quiescent"   // no live event left (cancelled timers do not count)
	ReachedTime StopReason = "time"        // the requested time was reached
	EventCount  StopReason = "events"      // the requested number of events ran
	Predicate   StopReason = "predicate"   // the requested condition held
	Stopped     StopReason = "stopped"     // Stop was called
	EventLimit  StopReason = "event-limit" // the run's MaxEvents was reached
	TimeLimit   StopReason = "time-limit"  // the run's MaxTime was reached
	WorkLimit   StopReason = "work-limit"  // the state lists set took more work than MaxEvents allows
)

// WorkPerEvent is how many values of the state lists processes set (each
// one compared and copied) the run's MaxEvents allows per event. An event
// costs a few dozen such steps; a process that publishes a list of n ids
// at every message does n, and with n processes each receiving n messages
// the run does n³ of them: 8·10⁹ for 2000 processes all requesting under
// Ricart-Agrawala, minutes of work within an event ceiling meant to bound
// a run to seconds.
const WorkPerEvent = 8

// Until says when a Run should return; zero fields do not constrain.
type Until struct {
	Time   Time        // run every event at or before Time, then set the clock to it
	Events uint64      // return after this many events
	Pred   func() bool // checked before every event: return as soon as it holds
}

// Result says how a Run ended.
type Result struct {
	Reason StopReason
	Events uint64 // events processed by this Run
	Time   Time
}

// Limited reports a run stopped by a safety limit rather than by its goal.
func (r Result) Limited() bool {
	return r.Reason == EventLimit || r.Reason == TimeLimit || r.Reason == WorkLimit
}

func (r Result) String() string {
	switch r.Reason {
	case EventLimit:
		return fmt.Sprintf("stopped by the event limit after %d events at t=%d", r.Events, r.Time)
	case TimeLimit:
		return fmt.Sprintf("stopped by the time limit at t=%d", r.Time)
	case WorkLimit:
		return fmt.Sprintf("stopped by the work limit after %d events at t=%d: the state lists the processes set copied more values than the %d per event the event limit allows", r.Events, r.Time, WorkPerEvent)
	}
	return fmt.Sprintf("%s after %d events at t=%d", r.Reason, r.Events, r.Time)
}

// Run processes events until u is met, no live event is left or a limit is
// hit. A run that runs out of live events reports Quiescent (or ReachedTime
// when u asks for a later time) even when it also used up MaxEvents exactly,
// and leaves the clock at the last event that did something: dead entries
// (cancelled timers and the like) never move it.
func (s *Sim) Run(u Until) Result {
	s.enter()
	defer func() { s.running = false }()
	s.stop = false
	start := s.events
	res := func(r StopReason) Result { return Result{Reason: r, Events: s.events - start, Time: s.now} }
	// The bounds, worked out once: no event after limit runs, and none
	// once the event counter reaches stopAt.
	limit := Forever
	if u.Time > 0 {
		limit = u.Time
	}
	if s.cfg.MaxTime > 0 {
		limit = min(limit, s.cfg.MaxTime)
	}
	stopAt, maxEvents := uint64(math.MaxUint64), uint64(math.MaxUint64)
	if u.Events > 0 {
		stopAt = start + u.Events
	}
	if s.cfg.MaxEvents > 0 {
		maxEvents = s.cfg.MaxEvents
	}
	for {
		if s.overworked {
			return res(WorkLimit)
		}
		if s.stop {
			return res(Stopped)
		}
		if u.Pred != nil && u.Pred() {
			return res(Predicate)
		}
		if s.events >= stopAt {
			return res(EventCount)
		}
		at, ok := s.q.nextAt, true
		if s.dead != 0 || !s.q.peeked { // else the next entry is known and live
			at, ok = s.findLive(limit)
		}
		if !ok {
			if u.Time > s.now {
				s.discardUntil(limit)
				return res(s.advance(u.Time))
			}
			return res(Quiescent)
		}
		if at > limit {
			if u.Time > 0 && at > u.Time {
				return res(s.advance(u.Time))
			}
			s.now = max(s.now, s.cfg.MaxTime)
			return res(TimeLimit)
		}
		if s.events >= maxEvents {
			return res(EventLimit)
		}
		if s.events&(yieldEvery-1) == 0 {
			// Nothing preempts a running goroutine in js/wasm: without a
			// yield now and then, a long run starves the collector's
			// background worker, which then keeps write barriers on for
			// the rest of the run (a third of the time of a million-
			// process election under Node). The yield costs nothing
			// natively and changes nothing in the simulation.
			runtime.Gosched()
		}
		// This event, then the next ones for as long as the checks above
		// would pass without doing anything (see steps): no predicate to
		// ask, no count reached and no yield due.
		end := s.events + 1
		if u.Pred == nil {
			end = min(stopAt, maxEvents, (end+yieldEvery-1)&^(yieldEvery-1))
		}
		s.steps(end)
	}
}

// enter guards against a node or an observer running the simulation from
// inside an event: the entry being processed would be reused under it.
func (s *Sim) enter() {
	if s.running {
		panic("sim: Run or Step called while the simulation is running")
	}
	s.running = true
}

// findLive returns the time of the next queue entry, after discarding the
// dead entries due no later than limit; ok is false when no live entry is
// left. Discarding moves the clock to a dead entry's time only when a live
// entry follows it, so the clock still never passes the last live event.
func (s *Sim) findLive(limit Time) (at Time, ok bool) {
	for s.q.len() > s.dead {
		at, _ = s.q.peek()
		if s.dead == 0 || at > limit || !s.isDead(s.q.first()) {
			return at, true
		}
		s.discard()
	}
	return 0, false
}

// discardUntil drops the entries due no later than limit, all dead, before
// the clock is set past them.
func (s *Sim) discardUntil(limit Time) {
	for s.q.len() > 0 {
		if at, _ := s.q.peek(); at > limit {
			return
		}
		s.discard()
	}
}

func (s *Sim) discard() {
	s.now, _, _ = s.q.pop()
	s.dead--
}

// isDead reports whether a queue entry will do nothing when its time comes.
func (s *Sim) isDead(e *event) bool {
	switch e.kind {
	case evTimer:
		return s.timers[e.to][e.tag] != e.aux
	case evDetect:
		return s.detectTok[e.to] != e.aux
	}
	return false
}

// advance moves the clock to t with no event to run before it, stopping at
// MaxTime.
func (s *Sim) advance(t Time) StopReason {
	if s.cfg.MaxTime > 0 && t > s.cfg.MaxTime {
		s.now = max(s.now, s.cfg.MaxTime)
		return TimeLimit
	}
	s.now = max(s.now, t)
	return ReachedTime
}

// Step processes the next live event, ignoring the run limits; it returns
// false when there is none.
func (s *Sim) Step() bool {
	s.enter()
	defer func() { s.running = false }()
	if _, ok := s.findLive(Forever); !ok {
		return false
	}
	s.steps(s.events + 1)
	return true
}

// steps processes the next queue entry, which findLive found live, then
// the next ones until the event counter reaches end or Run would have
// something to do between two events: the run is stopped, a dead entry is
// pending (findLive must skip it), or the next entry is not known (it may
// be due later, past a limit). While the next entry is known it is due now.
// Under js/wasm this loop, rather than a call per event from Run's, takes
// a tenth off the bare kernel's time per event (token ring, side by side).
//
// The common case, a delivery from the middle of a bucket to a live process
// with tracing off and the network whole, is written out here rather than
// left to pop and deliver: under js/wasm each call costs as much as the
// work it would do.
func (s *Sim) steps(end uint64) {
	for {
		e := s.q.popHot()
		if e != nil {
			s.now = s.q.nextAt
		} else {
			s.now, e, _ = s.q.popAny()
		}
		s.events++
		if e.kind != evDeliver {
			s.handle(e)
		} else {
			if rt := &s.nodes[e.to]; rt.up && rt.crashed <= e.gen && !s.severed && len(s.observers) == 0 {
				s.kinds[e.kindIx].Delivered++
				s.lastMsg, s.lastKind = e.msg, e.kindIx
				rt.node.Receive(rt, NodeID(e.fromID), e.msg)
			} else {
				s.deliver(e)
			}
			e.msg = nil // let the collector have delivered messages
		}
		if s.events >= end || s.stop || s.dead != 0 || !s.q.peeked {
			return
		}
	}
}

// handle runs a queue entry other than a delivery, keeping steps to the
// deliveries that make up nearly all of a run.
func (s *Sim) handle(e *event) {
	switch e.kind {
	case evTimer:
		s.fire(e)
	case evStart:
		rt := &s.nodes[e.to]
		if s.alive(e.to, e.gen) && !rt.booted {
			rt.boot()
		}
	case evControl:
		fn := s.actions[e.aux]
		delete(s.actions, e.aux)
		fn()
	case evDetect:
		s.detect(e)
	}
}

// At schedules a scenario action at true time t (not before now).
func (s *Sim) At(t Time, fn func()) {
	if fn == nil {
		panic("sim: At with a nil action")
	}
	s.actionID++
	s.actions[s.actionID] = fn
	*s.entry(max(t, s.now)) = event{kind: evControl, aux: s.actionID}
}

// alive reports whether node i is up and has not crashed since the run's
// crash counter read crashes. It also catches an observer crashing (and
// even recovering) a node while its event is being traced.
func (s *Sim) alive(i int32, crashes uint32) bool {
	rt := &s.nodes[i]
	return rt.up && rt.crashed <= crashes
}

func (s *Sim) deliver(e *event) {
	rt := &s.nodes[e.to]
	if !s.alive(e.to, e.gen) {
		s.drop(e.to, NodeID(e.fromID), NodeID(rt.id), e.msg, e.kindIx, e.aux, "crashed")
		return
	}
	if !s.connected(e.from, e.to) {
		s.drop(e.to, NodeID(e.fromID), NodeID(rt.id), e.msg, e.kindIx, e.aux, "partition")
		return
	}
	k := &s.kinds[e.kindIx]
	k.Delivered++
	from := NodeID(e.fromID)
	if s.tracing() {
		ev := s.begin(trace.Deliver, e.to)
		ev.From, ev.To, ev.Kind, ev.MsgID, ev.Msg = int(from), int(rt.id), k.Kind, e.aux, e.msg
		s.emit()
		if !s.alive(e.to, e.gen) {
			return
		}
	}
	s.lastMsg, s.lastKind = e.msg, e.kindIx
	rt.node.Receive(rt, from, e.msg)
}

func (s *Sim) fire(e *event) {
	rt := &s.nodes[e.to]
	delete(s.timers[e.to], e.tag)
	if s.tracing() {
		ev := s.begin(trace.Timer, e.to)
		ev.Tag = e.tag
		s.emit()
		if !s.alive(e.to, e.gen) {
			return
		}
	}
	rt.node.Timer(rt, e.tag)
}

// Detector transitions: aux is the token, gen says which way.
const (
	detectTrust   = 0
	detectSuspect = 1
)

// scheduleDetect schedules the detector's view of process i to become down
// (suspected) or up DetectDelay from now, replacing the transition still
// pending from an earlier crash or recovery, if any: that one is now dead.
// Nothing is scheduled when the view already is what it would become.
func (s *Sim) scheduleDetect(i int32, down bool) {
	if s.detectTok == nil {
		s.detectTok = make([]uint64, len(s.nodes))
		s.suspects = make([]bool, len(s.nodes))
	}
	if s.detectTok[i] != 0 {
		s.detectTok[i] = 0
		s.dead++
	}
	if s.suspects[i] == down {
		return
	}
	s.detectID++
	s.detectTok[i] = s.detectID
	gen := uint32(detectTrust)
	if down {
		gen = detectSuspect
	}
	*s.entry(s.now + s.cfg.DetectDelay) = event{kind: evDetect, to: i, aux: s.detectID, gen: gen}
}

// detect applies a detector transition scheduled DetectDelay after a crash
// or a recovery: the process stayed in that condition all along, or the
// transition would have been replaced.
func (s *Sim) detect(e *event) {
	s.detectTok[e.to] = 0
	down := e.gen == detectSuspect
	s.suspects[e.to] = down
	rt := &s.nodes[e.to]
	if down {
		s.nSuspect++
	} else {
		s.nSuspect--
	}
	if s.tracing() {
		t := trace.Trust
		if down {
			t = trace.Suspect
		}
		s.begin(t, e.to)
		s.emit()
	}
	if !down {
		return
	}
	for i := range s.nodes {
		o := &s.nodes[i]
		if h, ok := o.node.(SuspectHandler); ok && o.up {
			h.Suspect(o, NodeID(rt.id))
		}
	}
}

func linkKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

func (s *Sim) link(a, b int32) *Link {
	if len(s.links) > 0 {
		if l := s.links[linkKey(a, b)]; l != nil {
			return l
		}
	}
	return &s.cfg.Link
}

func (s *Sim) connected(a, b int32) bool {
	return !s.severed || s.reachable(a, b)
}

func (s *Sim) reachable(a, b int32) bool {
	if s.split && s.group[a] != s.group[b] {
		return false
	}
	return !s.cut[linkKey(min(a, b), max(a, b))]
}

// send is the network: it decides a message's fate when it is sent. from is
// the sender's index; hand-made messages are sent on behalf of a process too.
// j is the index of to when the caller knows it, else -1.
func (s *Sim) send(from int32, to NodeID, j int32, m Message) {
	if m == nil {
		panic(errNilMessage)
	}
	s.msgID++
	id := s.msgID
	k := s.kindOf(m)
	s.kinds[k].Sent++
	fromID := s.nodes[from].id
	if s.tracing() {
		ev := s.begin(trace.Send, from)
		ev.From, ev.To, ev.Kind, ev.MsgID, ev.Msg = int(fromID), int(to), s.kinds[k].Kind, id, m
		s.emit()
	}
	if j < 0 {
		var ok bool
		if j, ok = s.index(to); !ok {
			s.drop(from, NodeID(fromID), to, m, k, id, "no-such-process")
			return
		}
	}
	if !s.connected(from, j) {
		s.drop(from, NodeID(fromID), to, m, k, id, "partition")
		return
	}
	// One place queues the copies, written out here rather than called:
	// under js/wasm a call with this many arguments costs as much as the
	// rest of the plain path.
	var l *Link
	copies := 1
	if s.plainLat < 0 {
		l = s.link(from, j)
		if l.Loss > 0 && s.lossRng.Float64() < l.Loss {
			s.drop(from, NodeID(fromID), to, m, k, id, "loss")
			return
		}
		if l.Dup > 0 && s.lossRng.Float64() < l.Dup {
			copies = 2
		}
	}
	for range copies {
		at := s.now + s.plainLat
		if l != nil {
			at = s.arrival(l, from, j)
		}
		s.entry(at).message(m, id, j, from, fromID, k, s.crashes)
	}
}

// message fills in a delivery entry field by field: a composite literal
// would be built aside and copied.
func (e *event) message(m Message, id uint64, to, from, fromID, kindIx int32, gen uint32) {
	e.msg, e.tag, e.aux = m, "", id
	e.to, e.from, e.fromID, e.kindIx, e.gen, e.kind = to, from, fromID, kindIx, gen, evDeliver
}

// kindOf returns the index of m's kind in s.kinds. A message that is the
// same interface value as the one delivered or sent last (a message passed
// on as received, or one of a zero-size type) has the same kind, since a
// sent message must not change: the words are compared instead of calling
// Kind and searching by name, twice the work of the rest of a send under
// js/wasm. lastMsg holds that value, so its box cannot be reused for
// another message meanwhile.
func (s *Sim) kindOf(m Message) int32 {
	if sameAny(m, s.lastMsg) {
		return s.lastKind
	}
	return s.lookupKind(m)
}

// iface is the layout of an interface value: its type word and its data
// word.
type iface struct{ typ, data unsafe.Pointer }

// sameAny reports whether a and b are the same interface value: the same
// dynamic type and the same data word. The words are compared as a struct
// of two fields, which compiles to two comparisons: as an array they are a
// call to memequal under js/wasm.
func sameAny(a, b any) bool {
	return *(*iface)(unsafe.Pointer(&a)) == *(*iface)(unsafe.Pointer(&b))
}

func (s *Sim) lookupKind(m Message) int32 {
	k := s.kindIndex(m.Kind())
	s.lastMsg, s.lastKind = m, k
	return k
}

// errNilMessage is what sending a nil Message panics with: it is a bug in
// the algorithm, and would otherwise be counted as the last kind sent.
var errNilMessage = errors.New("sim: Send of a nil message")

// arrival draws when a message sent now on link l from process index from
// to index to arrives.
func (s *Sim) arrival(l *Link, from, to int32) Time {
	var at Time
	if l.Latency.constant() {
		at = s.now + Time(l.Latency.A)
	} else {
		at = s.now + l.Latency.draw(s.latRng)
	}
	if l.FIFO && s.fifoOn {
		at = s.fifo.order(linkKey(from, to), at)
	}
	return at
}

// startFIFO switches on FIFO bookkeeping the first time link models change:
// until then all messages took the same constant time and needed none. The
// messages already in flight are entered so new ones cannot overtake them.
func (s *Sim) startFIFO() {
	if s.fifoOn {
		return
	}
	s.fifoOn = true
	s.plainLat = -1
	s.q.each(func(at Time, e *event) {
		if e.kind == evDeliver {
			s.fifo.order(linkKey(e.from, e.to), at)
		}
	})
}

func (s *Sim) drop(at int32, from, to NodeID, m Message, k int32, id uint64, reason string) {
	s.kinds[k].Dropped++
	s.reasons[reason]++
	if s.tracing() {
		ev := s.begin(trace.Drop, at)
		ev.From, ev.To, ev.Kind, ev.MsgID, ev.Msg, ev.Reason = int(from), int(to), s.kinds[k].Kind, id, m, reason
		s.emit()
	}
}

// fifoTable maps a directed link to the latest delivery time scheduled on
// it: an open-addressing hash table, because a Go map costs two lookups per
// message and this sits on the hot path.
type fifoTable struct {
	slots []fifoSlot
	used  int
	shift uint8
}

type fifoSlot struct {
	key uint64 // link key + 1; 0 marks an empty slot
	at  Time
}

// order returns when a message scheduled for at on link key may be
// delivered without overtaking earlier ones, and records it.
func (t *fifoTable) order(key uint64, at Time) Time {
	if 2*(t.used+1) > len(t.slots) {
		t.grow()
	}
	k := key + 1
	mask := len(t.slots) - 1
	for i := int((k * 0x9e3779b97f4a7c15) >> t.shift); ; i = (i + 1) & mask {
		sl := &t.slots[i]
		switch sl.key {
		case k:
			at = max(at, sl.at)
			sl.at = at
			return at
		case 0:
			sl.key, sl.at = k, at
			t.used++
			return at
		}
	}
}

func (t *fifoTable) grow() {
	old := t.slots
	n := max(64, 2*len(old))
	t.slots = make([]fifoSlot, n)
	t.shift = uint8(64 - bits.Len(uint(n-1)))
	t.used = 0
	for _, sl := range old {
		if sl.key != 0 {
			t.order(sl.key-1, sl.at)
		}
	}
}
