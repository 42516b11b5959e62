package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"dsim/core/trace"
)

// Topology is the shape the kernel needs: the processes in ring order and
// who is adjacent to whom. Package topo builds these.
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
	// stops the run with a clear reason rather than letting it spin.
	MaxEvents uint64
	MaxTime   Time
}

// Observer receives every trace event as it happens. The event is reused
// after the call returns: copy it to keep it.
type Observer func(e *trace.Event)

// Sim is one run of one system.
type Sim struct {
	cfg   Config
	now   Time
	seq   uint64
	q     queue
	nodes []nodeRT
	ids   []NodeID
	dense []int32 // id-minBase -> index+1, when ids are compact
	minID NodeID
	byID  map[NodeID]int32

	links    map[uint64]Link
	fifo     map[uint64]Time
	group    []int32
	cut      map[uint64]bool
	suspects []bool

	latRng, lossRng *rand.Rand

	observers []Observer
	tev       trace.Event
	tseq      uint64

	msgID    uint64
	timerID  uint64
	actionID uint64
	actions  map[uint64]func()

	events  uint64
	stop    bool
	kinds   []KindStats
	reasons map[string]uint64
	running bool
}

type nodeRT struct {
	s      *Sim
	idx    int32
	id     NodeID
	node   Node
	up     bool
	booted bool
	gen    uint32
	offset Time
	drift  float64
	rng    *rand.Rand
	timers map[string]uint64
	state  []KV
	peers  []NodeID
	nbrs   []NodeID
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
	if cfg.Factory == nil {
		return nil, errors.New("sim: no node factory")
	}
	if cfg.Topology.Adj != nil && len(cfg.Topology.Adj) != n {
		return nil, errors.New("sim: adjacency does not match the process count")
	}
	if err := cfg.Link.Validate(); err != nil {
		return nil, err
	}
	if cfg.DetectDelay < 0 {
		return nil, errors.New("sim: the detector delay must not be negative")
	}
	s := &Sim{
		cfg:      cfg,
		ids:      cfg.Topology.IDs,
		nodes:    make([]nodeRT, n),
		group:    make([]int32, n),
		suspects: make([]bool, n),
		latRng:   Stream(cfg.Seed, "latency", 0),
		lossRng:  Stream(cfg.Seed, "loss", 0),
		actions:  map[uint64]func(){},
		reasons:  map[string]uint64{},
	}
	if err := s.indexIDs(); err != nil {
		return nil, err
	}
	for i, id := range s.ids {
		s.nodes[i] = nodeRT{s: s, idx: int32(i), id: id, up: true}
		s.push(event{at: 0, kind: evStart, to: int32(i)})
	}
	return s, nil
}

func (s *Sim) indexIDs() error {
	lo, hi := s.ids[0], s.ids[0]
	for _, id := range s.ids {
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

func (s *Sim) push(e event) {
	s.seq++
	e.seq = s.seq
	s.q.push(e)
}

// Observe adds an observer. With no observer the kernel builds no trace
// events at all.
func (s *Sim) Observe(o Observer) { s.observers = append(s.observers, o) }

// Now is the true virtual time.
func (s *Sim) Now() Time { return s.now }

// IDs lists the processes in ring order.
func (s *Sim) IDs() []NodeID { return s.ids }

// Has reports whether id is a process of this run.
func (s *Sim) Has(id NodeID) bool { _, ok := s.index(id); return ok }

// Pending is the number of scheduled events.
func (s *Sim) Pending() int { return s.q.len() }

// Events is the number of events processed so far.
func (s *Sim) Events() uint64 { return s.events }

// Stop makes the current Run return after the event in progress.
func (s *Sim) Stop() { s.stop = true }

// Running reports whether a Run is in progress (scenario hooks may not
// start another).
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
		s.tev.Local = int64(rt.local(s.now))
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
			s.tev.Local = int64(s.nodes[i].local(s.now))
		}
	}
	s.emit()
}

// StopReason says why a Run returned.
type StopReason string

const (
	Quiescent   StopReason = "quiescent"   // no events left
	ReachedTime StopReason = "time"        // the requested time was reached
	EventCount  StopReason = "events"      // the requested number of events ran
	Predicate   StopReason = "predicate"   // the requested condition held
	Stopped     StopReason = "stopped"     // Stop was called
	EventLimit  StopReason = "event-limit" // the run's MaxEvents was reached
	TimeLimit   StopReason = "time-limit"  // the run's MaxTime was reached
)

// Until says when a Run should return; zero fields do not constrain.
type Until struct {
	Time   Time   // run every event at or before Time, then set the clock to it
	Events uint64 // return after this many events
	Pred   func() bool
}

// Result says how a Run ended.
type Result struct {
	Reason StopReason
	Events uint64 // events processed by this Run
	Time   Time
}

// Limited reports a run stopped by a safety limit rather than by its goal.
func (r Result) Limited() bool { return r.Reason == EventLimit || r.Reason == TimeLimit }

func (r Result) String() string {
	switch r.Reason {
	case EventLimit:
		return fmt.Sprintf("stopped by the event limit after %d events at t=%d", r.Events, r.Time)
	case TimeLimit:
		return fmt.Sprintf("stopped by the time limit at t=%d", r.Time)
	}
	return fmt.Sprintf("%s after %d events at t=%d", r.Reason, r.Events, r.Time)
}

// Run processes events until u is met, the queue empties or a limit is hit.
func (s *Sim) Run(u Until) Result {
	s.running = true
	s.stop = false
	defer func() { s.running = false }()
	start := s.events
	res := func(r StopReason) Result { return Result{Reason: r, Events: s.events - start, Time: s.now} }
	for {
		if s.stop {
			return res(Stopped)
		}
		if u.Events > 0 && s.events-start >= u.Events {
			return res(EventCount)
		}
		if s.cfg.MaxEvents > 0 && s.events >= s.cfg.MaxEvents {
			return res(EventLimit)
		}
		at, ok := s.q.peekTime()
		if !ok {
			if u.Time > s.now {
				s.now = u.Time
				return res(ReachedTime)
			}
			return res(Quiescent)
		}
		if u.Time > 0 && at > u.Time {
			s.now = max(s.now, u.Time)
			return res(ReachedTime)
		}
		if s.cfg.MaxTime > 0 && at > s.cfg.MaxTime {
			s.now = max(s.now, s.cfg.MaxTime)
			return res(TimeLimit)
		}
		s.step()
		if u.Pred != nil && u.Pred() {
			return res(Predicate)
		}
	}
}

// Step processes the next event; it returns false when there is none.
func (s *Sim) Step() bool {
	if s.q.len() == 0 {
		return false
	}
	s.step()
	return true
}

func (s *Sim) step() {
	var e event
	s.q.pop(&e)
	s.now = e.at
	s.events++
	switch e.kind {
	case evDeliver:
		s.deliver(&e)
	case evTimer:
		s.fire(&e)
	case evStart:
		rt := &s.nodes[e.to]
		if rt.up && rt.gen == e.gen && !rt.booted {
			rt.booted = true
			rt.node = s.cfg.Factory(rt.id)
			rt.node.Start(rt)
		}
	case evControl:
		fn := s.actions[e.aux]
		delete(s.actions, e.aux)
		fn()
	case evDetect:
		s.detect(&e)
	}
}

// At schedules a scenario action at true time t (not before now).
func (s *Sim) At(t Time, fn func()) {
	s.actionID++
	s.actions[s.actionID] = fn
	s.push(event{at: max(t, s.now), kind: evControl, aux: s.actionID})
}

func (s *Sim) deliver(e *event) {
	rt := &s.nodes[e.to]
	if !rt.up || rt.gen != e.gen {
		s.drop(e.to, e.from, rt.id, e.msg, e.aux, "crashed")
		return
	}
	if !s.connected(e.from, e.to) {
		s.drop(e.to, e.from, rt.id, e.msg, e.aux, "partition")
		return
	}
	from := s.ids[e.from]
	s.kindStats(e.msg.Kind()).Delivered++
	if s.tracing() {
		ev := s.begin(trace.Deliver, e.to)
		ev.From, ev.To, ev.Kind, ev.MsgID, ev.Msg = int(from), int(rt.id), e.msg.Kind(), e.aux, e.msg
		s.emit()
		if !rt.up { // an observer crashed the receiver
			return
		}
	}
	rt.node.Receive(rt, from, e.msg)
}

func (s *Sim) fire(e *event) {
	rt := &s.nodes[e.to]
	if !rt.up || rt.gen != e.gen || rt.timers[e.tag] != e.aux {
		return
	}
	delete(rt.timers, e.tag)
	if s.tracing() {
		ev := s.begin(trace.Timer, e.to)
		ev.Tag = e.tag
		s.emit()
		if !rt.up {
			return
		}
	}
	rt.node.Timer(rt, e.tag)
}

func (s *Sim) detect(e *event) {
	rt := &s.nodes[e.to]
	if rt.gen != e.gen || s.suspects[e.to] == !rt.up {
		return
	}
	s.suspects[e.to] = !rt.up
	if s.tracing() {
		t := trace.Trust
		if !rt.up {
			t = trace.Suspect
		}
		s.begin(t, e.to)
		s.emit()
	}
	if rt.up {
		return
	}
	for i := range s.nodes {
		o := &s.nodes[i]
		if h, ok := o.node.(SuspectHandler); ok && o.up {
			h.Suspect(o, rt.id)
		}
	}
}

func linkKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

func (s *Sim) link(a, b int32) *Link {
	if len(s.links) > 0 {
		if l, ok := s.links[linkKey(a, b)]; ok {
			return &l
		}
	}
	return &s.cfg.Link
}

func (s *Sim) connected(a, b int32) bool {
	if s.group[a] != s.group[b] {
		return false
	}
	return len(s.cut) == 0 || !s.cut[linkKey(min(a, b), max(a, b))]
}

// send is the network: it decides a message's fate when it is sent. from is
// the sender's index; hand-made messages are sent on behalf of a process too.
func (s *Sim) send(from int32, to NodeID, m Message) {
	s.msgID++
	id := s.msgID
	fromID := s.ids[from]
	ks := s.kindStats(m.Kind())
	ks.Sent++
	if s.tracing() {
		ev := s.begin(trace.Send, from)
		ev.From, ev.To, ev.Kind, ev.MsgID, ev.Msg = int(fromID), int(to), m.Kind(), id, m
		s.emit()
	}
	j, ok := s.index(to)
	if !ok {
		s.drop(from, from, to, m, id, "no-such-process")
		return
	}
	if !s.connected(from, j) {
		s.drop(from, from, to, m, id, "partition")
		return
	}
	l := s.link(from, j)
	if l.Loss > 0 && s.lossRng.Float64() < l.Loss {
		s.drop(from, from, to, m, id, "loss")
		return
	}
	copies := 1
	if l.Dup > 0 && s.lossRng.Float64() < l.Dup {
		copies = 2
	}
	for range copies {
		at := s.now
		if l.Latency.constant() {
			at += Time(l.Latency.A)
		} else {
			at += l.Latency.draw(s.latRng)
			if l.FIFO {
				if s.fifo == nil {
					s.fifo = map[uint64]Time{}
				}
				k := linkKey(from, j)
				at = max(at, s.fifo[k])
				s.fifo[k] = at
			}
		}
		s.push(event{at: at, kind: evDeliver, msg: m, aux: id, from: from, to: j, gen: s.nodes[j].gen})
	}
}

func (s *Sim) drop(at, from int32, to NodeID, m Message, id uint64, reason string) {
	s.kindStats(m.Kind()).Dropped++
	s.reasons[reason]++
	if s.tracing() {
		ev := s.begin(trace.Drop, at)
		ev.From, ev.To, ev.Kind, ev.MsgID, ev.Msg, ev.Reason = int(s.ids[from]), int(to), m.Kind(), id, m, reason
		s.emit()
	}
}
