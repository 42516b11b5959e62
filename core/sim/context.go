package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"dsim/core/trace"
)

// nodeRT is the runtime record of one process and, through its methods, the
// Context its Node sees. Calls from a process that has crashed in the
// meantime (a scenario hook can crash it mid-handler) have no effect.

// boot makes the node's Node and runs its Start.
func (rt *nodeRT) boot() {
	rt.booted = true
	rt.node = rt.s.cfg.Factory(rt.id)
	rt.node.Start(rt)
}

func (rt *nodeRT) local(t Time) Time {
	if rt.drift == 0 {
		return rt.offset + t
	}
	return rt.offset + t + Time(math.Floor(float64(t)*rt.drift))
}

func (rt *nodeRT) Self() NodeID { return rt.id }
func (rt *nodeRT) N() int       { return len(rt.s.ids) }
func (rt *nodeRT) Now() Time    { return rt.local(rt.s.now) }

// Peers and Neighbors share the kernel's slices: callers must not modify
// them.
func (rt *nodeRT) Peers() []NodeID {
	n := len(rt.s.ids)
	i := int(rt.idx)
	return rt.s.ring2[i+1 : i+n : i+n]
}

func (rt *nodeRT) Neighbors() []NodeID {
	s := rt.s
	if s.nbrOff == nil {
		return rt.Peers()
	}
	lo, hi := s.nbrOff[rt.idx], s.nbrOff[rt.idx+1]
	return s.nbrs[lo:hi:hi]
}

func (rt *nodeRT) Neighbor(dir int) NodeID {
	if dir == 1 {
		rt.hintID, rt.hint = rt.succ, (rt.idx+1)%int32(len(rt.s.ids))+1
		return rt.succ
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
	rt.hintID, rt.hint = ids[k], int32(k)+1
	return ids[k]
}

func (rt *nodeRT) Send(to NodeID, m Message) {
	if !rt.up {
		return
	}
	j := int32(-1)
	if rt.hint != 0 && rt.hintID == to {
		j = rt.hint - 1
	}
	rt.s.send(rt.idx, to, j, m)
}

func (rt *nodeRT) Broadcast(m Message) {
	for _, to := range rt.Neighbors() {
		rt.Send(to, m)
	}
}

// trueDelay converts a span of the node's local clock into true ticks: the
// smallest true span over which the local clock advances by at least d.
func (rt *nodeRT) trueDelay(d Duration) Time {
	if d <= 0 {
		return 0
	}
	d = min(d, MaxDelay)
	if rt.drift == 0 {
		return d
	}
	now := rt.s.now
	start := rt.local(now)
	dt := Time(math.Ceil(float64(d) / (1 + rt.drift)))
	for dt > 1 && rt.local(now+dt-1)-start >= d {
		dt--
	}
	for rt.local(now+dt)-start < d {
		dt++
	}
	return dt
}

func (rt *nodeRT) SetTimer(d Duration, tag string) {
	if !rt.up {
		return
	}
	s := rt.s
	s.timerID++
	if rt.timers == nil {
		rt.timers = map[string]uint64{}
	}
	if _, armed := rt.timers[tag]; armed {
		s.dead++ // the entry of the timer this one replaces
	}
	rt.timers[tag] = s.timerID
	s.push(s.now+rt.trueDelay(d), &event{kind: evTimer, tag: tag, aux: s.timerID, to: rt.idx, gen: s.crashes})
}

func (rt *nodeRT) CancelTimer(tag string) {
	if _, armed := rt.timers[tag]; armed {
		delete(rt.timers, tag)
		rt.s.dead++
	}
}

func (rt *nodeRT) Suspected(id NodeID) bool { return rt.s.suspected(id) }

func (rt *nodeRT) Rand() *rand.Rand {
	if rt.rng == nil {
		rt.rng = Stream(rt.s.cfg.Seed, "node", uint64(uint32(rt.id))<<32|uint64(rt.lives))
	}
	return rt.rng
}

func (rt *nodeRT) Set(key string, v any) {
	if !rt.up {
		return
	}
	if err := checkValue(v); err != nil {
		panic(fmt.Sprintf("%v (key %q)", err, key))
	}
	var old any
	found := false
	for i := range rt.state {
		if rt.state[i].Key == key {
			old, found = rt.state[i].Value, true
			if sameValue(old, v) {
				return
			}
			rt.state[i].Value = cloneValue(v)
			break
		}
	}
	if !found {
		if v == nil {
			return
		}
		if rt.state == nil {
			rt.state = make([]KV, 0, 4) // algorithms keep a few keys: one allocation, not three
		}
		rt.state = append(rt.state, KV{Key: key, Value: cloneValue(v)})
	}
	s := rt.s
	if s.tracing() {
		ev := s.begin(trace.State, rt.idx)
		ev.Key, ev.Old, ev.New = key, old, cloneValue(v)
		s.emit()
	}
}

func (rt *nodeRT) Get(key string) any {
	for _, kv := range rt.state {
		if kv.Key == key {
			return kv.Value
		}
	}
	return nil
}

func (rt *nodeRT) Log(format string, args ...any) {
	s := rt.s
	if !rt.up || !s.tracing() {
		return
	}
	ev := s.begin(trace.Log, rt.idx)
	ev.Text = fmt.Sprintf(format, args...)
	s.emit()
}
