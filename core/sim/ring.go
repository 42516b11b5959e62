package sim

// The Context's questions about the process's place in the world.

// Recovered is the note of "a process that has failed knows on recovery
// that it has indeed failed": the runtime counts the process's lives.
func (rt *nodeRT) Recovered() bool { return rt.lives > 0 }

func (rt *nodeRT) Index() int { return int(rt.idx) }

func (rt *nodeRT) IsProcess(id NodeID) bool {
	s := rt.s
	if s.members == nil {
		_, ok := s.byID[id]
		return ok
	}
	k := int64(id) - int64(s.minID)
	return k >= 0 && k < int64(len(s.members))*64 && s.members[k/64]&(1<<(k%64)) != 0
}

// Successor settles the common case, nobody suspected, without walking:
// ring algorithms ask once per message they pass on, and under js/wasm the
// walk's calls cost a tenth of a million-process election. Like Neighbor,
// it leaves the hint that lets Send skip the id lookup.
func (rt *nodeRT) Successor() NodeID {
	if rt.s.nSuspect == 0 {
		rt.hintID, rt.hint = rt.succ, rt.succIdx+1
		return NodeID(rt.succ)
	}
	s := rt.s
	for d := 1; d < len(s.ids); d++ {
		id := rt.Neighbor(d)
		if !s.Suspected(id) {
			return id
		}
	}
	return rt.Self()
}
