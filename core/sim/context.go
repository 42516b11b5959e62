package sim

import (
	"fmt"
	"math/rand/v2"

	"dsim/core/proc"
	"dsim/core/trace"
)

// nodeRT is the runtime record of one process and, through its methods, the
// Context its Node sees. Calls from a process that has crashed in the
// meantime (a scenario hook can crash it mid-handler) have no effect.

// boot makes the node's Node and runs its Start.
func (rt *nodeRT) boot() {
	rt.booted = true
	rt.node = rt.s.cfg.Factory(NodeID(rt.id))
	rt.node.Start(rt)
}

// forget discards what process i had: its state, its timers (their queue
// entries are now dead) and its random stream.
func (s *Sim) forget(i int32) {
	s.st.forget(i)
	if s.timers != nil {
		s.dead += len(s.timers[i])
		s.timers[i] = nil
	}
	if s.rngs != nil {
		s.rngs[i] = nil
	}
}

func (rt *nodeRT) Self() NodeID { return NodeID(rt.id) }
func (rt *nodeRT) N() int       { return len(rt.s.ids) }
func (rt *nodeRT) Now() Time    { return rt.s.local(rt.idx, rt.s.now) }

// Peers and Neighbors share the kernel's slices: callers must not modify
// them.
func (rt *nodeRT) Peers() []NodeID {
	s := rt.s
	if s.ring2 == nil {
		s.ring2 = append(append(make([]NodeID, 0, 2*len(s.ids)), s.ids...), s.ids...)
	}
	n := len(s.ids)
	i := int(rt.idx)
	return s.ring2[i+1 : i+n : i+n]
}

func (rt *nodeRT) Neighbors() []NodeID {
	s := rt.s
	if s.cfg.Topology.Adj == nil {
		return rt.Peers()
	}
	if s.nbrOff == nil {
		s.flattenAdj()
	}
	lo, hi := s.nbrOff[rt.idx], s.nbrOff[rt.idx+1]
	return s.nbrs[lo:hi:hi]
}

func (rt *nodeRT) Neighbor(dir int) NodeID {
	if dir == 1 {
		rt.hintID, rt.hint = rt.succ, rt.succIdx+1
		return NodeID(rt.succ)
	}
	ids := rt.s.ids
	n := len(ids)
	k := int(rt.idx)
	if dir > -n && dir < n {
		k += dir
	} else {
		k += dir % n
	}
	if k < 0 {
		k += n
	} else if k >= n {
		k -= n
	}
	rt.hintID, rt.hint = int32(ids[k]), int32(k)+1
	return ids[k]
}

// Send settles the common case itself: a message to the process Neighbor
// resolved last, on the plain network (one constant latency, nothing lost,
// duplicated or cut) with tracing off, is queued without calling send, whose
// general path costs more than the queueing under js/wasm.
func (rt *nodeRT) Send(to NodeID, m Message) {
	if m == nil {
		panic(errNilMessage)
	}
	if !rt.up {
		return
	}
	s := rt.s
	j := int32(-1)
	if rt.hint != 0 && NodeID(rt.hintID) == to {
		j = rt.hint - 1
		if s.plainLat >= 0 && !s.severed && len(s.observers) == 0 {
			at := min(s.now+s.plainLat, Forever)
			e := s.q.hotSlot(at)
			if e == nil {
				e = s.q.place(at)
			}
			k := s.kindOf(m)
			s.kinds[k].Sent++
			s.msgID++
			e.message(m, s.msgID, j, rt.idx, rt.id, k, s.crashes)
			return
		}
	}
	s.send(rt.idx, to, j, m)
}

func (rt *nodeRT) Broadcast(m Message) {
	for _, to := range rt.Neighbors() {
		rt.Send(to, m)
	}
}

func (rt *nodeRT) SetTimer(d Duration, tag string) {
	if !rt.up {
		return
	}
	s := rt.s
	s.timerID++
	if s.timers == nil {
		s.timers = make([]map[string]uint64, len(s.nodes))
	}
	timers := s.timers[rt.idx]
	if timers == nil {
		timers = map[string]uint64{}
		s.timers[rt.idx] = timers
	}
	if _, armed := timers[tag]; armed {
		s.dead++ // the entry of the timer this one replaces
	}
	timers[tag] = s.timerID
	*s.entry(s.now + rt.trueDelay(d)) = event{kind: evTimer, tag: tag, aux: s.timerID, to: rt.idx, gen: s.crashes}
}

func (rt *nodeRT) CancelTimer(tag string) {
	s := rt.s
	if s.timers == nil {
		return
	}
	if _, armed := s.timers[rt.idx][tag]; armed {
		delete(s.timers[rt.idx], tag)
		s.dead++
	}
}

// Suspected skips the id lookup in the common case where nobody is
// suspected, and does so itself: rings ask once per message, and under
// js/wasm a further call costs more than the test.
func (rt *nodeRT) Suspected(id NodeID) bool {
	s := rt.s
	return s.nSuspect > 0 && s.Suspected(id)
}

func (rt *nodeRT) Rand() *rand.Rand {
	s := rt.s
	if s.rngs == nil {
		s.rngs = make([]*rand.Rand, len(s.nodes))
	}
	r := s.rngs[rt.idx]
	if r == nil {
		r = Stream(s.cfg.Seed, "node", uint64(uint32(rt.id))<<32|uint64(rt.lives))
		s.rngs[rt.idx] = r
	}
	return r
}

// Set keeps the usual case, a scalar value, in a small function: lists,
// nil and the checks of other values go to setOther, and tracing to a call.
// Under js/wasm a function's size weighs on every call of it: with all of
// it written out here a Set took 5-10% longer (BenchmarkSet, side by side).
func (rt *nodeRT) Set(key string, v any) {
	if !rt.up {
		return
	}
	switch v.(type) {
	case bool, string, int, NodeID: // the usual values, settled without a call
	default:
		rt.setOther(key, v)
		return
	}
	s := rt.s
	st, i := &s.st, rt.idx
	k := st.constKey(key)
	if k < 0 {
		k = st.key(key, true)
	}
	had, cell := st.has(i, k), st.cell(i, k)
	var old any
	if had {
		if cell != nil {
			old = *cell
		} else {
			old = st.get(i, k)
		}
		if sameScalar(old, v) {
			return
		}
	}
	if cell != nil {
		*cell = v
	} else {
		st.place(i, k, v)
	}
	if !had {
		st.add(i, k)
	}
	if s.tracing() {
		s.traceState(i, key, old, v)
	}
}

// setOther is Set for the other values: nil (the key goes), lists, which
// are copied, and the rest of what the trace can encode.
func (rt *nodeRT) setOther(key string, v any) {
	list, err := listValue(v)
	if err != nil {
		panic(fmt.Sprintf("%v (key %q)", err, key))
	}
	s := rt.s
	st, i := &s.st, rt.idx
	k := st.key(key, true)
	had := st.has(i, k)
	var old any
	if had {
		old = st.get(i, k)
		if list && sameValue(old, v) || !list && sameScalar(old, v) {
			return
		}
	} else if v == nil {
		return
	}
	if list {
		v = cloneValue(v) // the node may change its slice later; history must not
		s.charge(v)
	}
	st.put(i, k, v)
	if !had {
		st.add(i, k)
	}
	if s.tracing() {
		s.traceState(i, key, old, v)
	}
}

func (s *Sim) traceState(i int32, key string, old, v any) {
	ev := s.begin(trace.State, i)
	ev.Key, ev.Old, ev.New = key, old, v
	s.emit()
}

func (rt *nodeRT) Get(key string) any { return rt.s.get(rt.idx, key) }

func (rt *nodeRT) Log(format string, args ...any) {
	s := rt.s
	if !rt.up || !s.tracing() {
		return
	}
	ev := s.begin(trace.Log, rt.idx)
	ev.Text = fmt.Sprintf(format, args...)
	s.emit()
}

// WriteStable appends to the process's stable log, which forget leaves
// alone, and shows the record as the state key proc.KeyStable: a state
// event at every write, a record equal to the last one included, as the
// log grows by one record.
func (rt *nodeRT) WriteStable(record string) {
	if !rt.up {
		return
	}
	s := rt.s
	if s.stable == nil {
		s.stable = make([][]string, len(s.nodes))
	}
	s.stable[rt.idx] = append(s.stable[rt.idx], record)
	if old := rt.Get(proc.KeyStable); old == record {
		if s.tracing() {
			s.traceState(rt.idx, proc.KeyStable, old, record)
		}
		return
	}
	rt.Set(proc.KeyStable, record)
}

// Stable is the process's stable log, capped so that an append by the
// caller cannot overwrite a later record.
func (rt *nodeRT) Stable() []string { return rt.s.Stable(NodeID(rt.id)) }
