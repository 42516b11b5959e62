package sim

import (
	"fmt"
	"sort"

	"dsim/core/trace"
)

// This file holds what a scenario can do to a run from outside the
// processes: faults, network changes, clocks, commands and hand-made
// messages. Every method validates its input and returns an error rather
// than panicking, because the input comes from user scripts.

func (s *Sim) mustIndex(id NodeID) (int32, error) {
	i, ok := s.index(id)
	if !ok {
		return 0, fmt.Errorf("no process %d", id)
	}
	return i, nil
}

// Crash stops process id now: its state and timers are lost, and the
// messages in flight to it are dropped when they arrive (reason "crashed"),
// even if it has recovered by then.
func (s *Sim) Crash(id NodeID) error {
	i, err := s.mustIndex(id)
	if err != nil {
		return err
	}
	rt := &s.nodes[i]
	if !rt.up {
		return fmt.Errorf("process %d is already crashed", id)
	}
	rt.up = false
	s.crashes++
	rt.crashed = s.crashes
	rt.lives++
	rt.node = nil
	s.forget(i)
	if s.tracing() {
		s.begin(trace.Crash, i)
		s.emit()
	}
	s.scheduleDetect(i, true)
	return nil
}

// Recover restarts process id on a fresh Node; its Start runs at once.
// Messages sent to it while it was down are delivered if they arrive after
// the recovery.
func (s *Sim) Recover(id NodeID) error {
	i, err := s.mustIndex(id)
	if err != nil {
		return err
	}
	rt := &s.nodes[i]
	if rt.up {
		return fmt.Errorf("process %d is not crashed", id)
	}
	rt.up = true
	crashes := s.crashes
	if s.tracing() {
		s.begin(trace.Recover, i)
		s.emit()
	}
	s.scheduleDetect(i, false)
	if s.alive(i, crashes) {
		rt.boot()
	}
	return nil
}

// Up reports whether process id is running.
func (s *Sim) Up(id NodeID) bool {
	i, ok := s.index(id)
	return ok && s.nodes[i].up
}

// Partition splits the network: processes in different groups cannot reach
// each other; processes named in no group form one more group together.
func (s *Sim) Partition(groups [][]NodeID) error {
	next := make([]int32, len(s.nodes))
	for g, ids := range groups {
		for _, id := range ids {
			i, err := s.mustIndex(id)
			if err != nil {
				return err
			}
			if next[i] != 0 {
				return fmt.Errorf("process %d is in two groups", id)
			}
			next[i] = int32(g) + 1
		}
	}
	s.group = next
	s.split = false
	for _, g := range next {
		if g != next[0] {
			s.split = true
			break
		}
	}
	s.severed = s.split || len(s.cut) > 0
	if s.tracing() {
		ev := s.begin(trace.Partition, -1)
		ev.Text = formatGroups(groups)
		s.emit()
	}
	return nil
}

// formatGroups renders a partition for its event, in at most
// trace.MaxText bytes.
func formatGroups(groups [][]NodeID) string {
	var t trace.Text
	for _, g := range groups {
		if !t.Add(" | ", formatValue(g)) {
			break
		}
	}
	return t.String()
}

// Cut disconnects the link between a and b, both ways.
func (s *Sim) Cut(a, b NodeID) error { return s.setCut(a, b, true) }

// Mend reconnects a link that Cut disconnected.
func (s *Sim) Mend(a, b NodeID) error { return s.setCut(a, b, false) }

func (s *Sim) setCut(a, b NodeID, cut bool) error {
	i, err := s.mustIndex(a)
	if err != nil {
		return err
	}
	j, err := s.mustIndex(b)
	if err != nil {
		return err
	}
	k := linkKey(min(i, j), max(i, j))
	t := trace.Heal
	if cut {
		if s.cut == nil {
			s.cut = map[uint64]bool{}
		}
		s.cut[k] = true
		s.severed = true
		t = trace.Partition
	} else {
		delete(s.cut, k)
		s.severed = s.split || len(s.cut) > 0
	}
	if s.tracing() {
		ev := s.begin(t, -1)
		ev.Text = fmt.Sprintf("%d-%d", a, b)
		s.emit()
	}
	return nil
}

// Heal removes every partition and cut link.
func (s *Sim) Heal() {
	s.group = nil
	s.split = false
	s.cut = nil
	s.severed = false
	if s.tracing() {
		ev := s.begin(trace.Heal, -1)
		ev.Text = "all"
		s.emit()
	}
}

// SetLink overrides the model of the directed link from a to b.
func (s *Sim) SetLink(a, b NodeID, l Link) error {
	if err := l.Validate(); err != nil {
		return err
	}
	i, err := s.mustIndex(a)
	if err != nil {
		return err
	}
	j, err := s.mustIndex(b)
	if err != nil {
		return err
	}
	if s.links == nil {
		s.links = map[uint64]*Link{}
	}
	s.links[linkKey(i, j)] = &l
	s.startFIFO()
	return nil
}

// Link returns the model of the directed link from a to b.
func (s *Sim) Link(a, b NodeID) (Link, error) {
	i, err := s.mustIndex(a)
	if err != nil {
		return Link{}, err
	}
	j, err := s.mustIndex(b)
	if err != nil {
		return Link{}, err
	}
	return *s.link(i, j), nil
}

// SetDefaultLink changes the model of every link without an override.
func (s *Sim) SetDefaultLink(l Link) error {
	if err := l.Validate(); err != nil {
		return err
	}
	s.cfg.Link = l
	s.startFIFO()
	return nil
}

// Inject sends a hand-made message from process from to process to, through
// the network model, as if from had sent it (even when from is crashed).
func (s *Sim) Inject(from, to NodeID, m Message) error {
	i, err := s.mustIndex(from)
	if err != nil {
		return err
	}
	if m == nil {
		return fmt.Errorf("no message to inject from %d to %d", from, to)
	}
	s.send(i, to, -1, m)
	return nil
}

// Command gives process id a command. A crashed process cannot take one.
func (s *Sim) Command(id NodeID, name string, args Args) error {
	i, err := s.mustIndex(id)
	if err != nil {
		return err
	}
	rt := &s.nodes[i]
	if !rt.up {
		return fmt.Errorf("process %d is crashed", id)
	}
	crashes := s.crashes
	if !rt.booted {
		rt.boot()
	}
	if s.tracing() && s.alive(i, crashes) {
		ev := s.begin(trace.Command, i)
		ev.Kind, ev.Text = name, args.String()
		s.emit()
	}
	if !s.alive(i, crashes) { // crashed by an observer meanwhile
		return fmt.Errorf("process %d crashed before it took the command", id)
	}
	return rt.node.Command(rt, name, args)
}

// State returns process id's observable state, in the order keys were first
// set. A crashed process has none.
func (s *Sim) State(id NodeID) []KV {
	i, ok := s.index(id)
	if !ok {
		return nil
	}
	return s.st.list(i)
}

// Stable returns process id's stable log (nil for none, or no such
// process): the records it wrote with WriteStable in all its lives, oldest
// first. The slice is shared: do not modify it.
func (s *Sim) Stable(id NodeID) []string {
	i, ok := s.index(id)
	if !ok || s.stable == nil {
		return nil
	}
	l := s.stable[i]
	return l[:len(l):len(l)]
}

// Get returns one observable value of process id (nil when unset).
func (s *Sim) Get(id NodeID, key string) any {
	i, ok := s.index(id)
	if !ok {
		return nil
	}
	return s.get(i, key)
}

func (s *Sim) get(i int32, key string) any {
	if k := s.st.key(key, false); k >= 0 {
		return s.st.get(i, k)
	}
	return nil
}

// Suspected reports the failure detector's current view of id.
func (s *Sim) Suspected(id NodeID) bool {
	i, ok := s.index(id)
	return ok && s.nSuspect > 0 && s.suspects[i]
}

// KindStats counts the messages of one kind.
type KindStats struct {
	Kind                     string
	Sent, Delivered, Dropped uint64
}

// kindIndex finds the counters of a kind. Kinds are few and their strings
// are usually the same constant, so a linear scan beats a map here.
func (s *Sim) kindIndex(kind string) int32 {
	for i := range s.kinds {
		if s.kinds[i].Kind == kind {
			return int32(i)
		}
	}
	s.kinds = append(s.kinds, KindStats{Kind: kind})
	return int32(len(s.kinds) - 1)
}

// Stats summarises a run so far.
type Stats struct {
	Events                   uint64
	Time                     Time
	Sent, Delivered, Dropped uint64
	Kinds                    []KindStats       // sorted by kind
	DropReasons              map[string]uint64 // by reason
}

// Stats returns the counters so far.
func (s *Sim) Stats() Stats {
	st := Stats{Events: s.events, Time: s.now, Kinds: append([]KindStats(nil), s.kinds...), DropReasons: map[string]uint64{}}
	sort.Slice(st.Kinds, func(a, b int) bool { return st.Kinds[a].Kind < st.Kinds[b].Kind })
	for _, k := range st.Kinds {
		st.Sent += k.Sent
		st.Delivered += k.Delivered
		st.Dropped += k.Dropped
	}
	for r, n := range s.reasons {
		st.DropReasons[r] = n
	}
	return st
}
