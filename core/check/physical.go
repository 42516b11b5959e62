package check

import (
	"fmt"
	"slices"

	"dsim/core/algo/clock"
	"dsim/core/trace"
)

// The physical clock properties judge the readings the events carry (T
// true time, Local the process's clock) against the bounds the algorithms
// claim (state clock_bound against clock_ref, growing with drift_ppm: see
// core/algo/clock), the claim being the algorithm's, the judgement the
// checker's own:
//
//   - clock.accuracy: at every event of a live process whose latest claim is
//     against true time, |Local − T| <= b + ρ·Δ + 1, Δ = T − the claim's T;
//   - clock.skew: at every event of a live process i with a claim, against
//     the live processes j claiming the same reference that lie furthest
//     ahead and furthest behind: j's reading at T lies in an interval
//     extrapolated from its latest event (Δ ticks earlier, reading L_j):
//     L_j + Δ within ρ·Δ + 1, widened by any slew j started in the last
//     2·over ticks (a slew gains at most its delta, over at most 2·over
//     true ticks since drift < 1/2). A violation is a distance from Local_i
//     to that whole interval above b_i + b_j, each grown by 2(ρ·Δ + 1): so
//     a reported violation is certain, whatever j's clock did between its
//     events. The furthest ahead and behind (by L_j − t_j at their latest
//     events) are found by a scan of the reference's processes once every
//     as many of its events as it has processes, and follow any event
//     that goes further meanwhile: O(1) per event, amortized, where every
//     pair would cost O(n);
//   - clock.monotonic: each process's readings at its successive events
//     never decrease, and no clock event steps back.
//
// Clock events (the corrections) are judged by clock.monotonic only: the
// claim that covers a correction is set just after it.
type physState struct {
	procs                []*physProc // by id, for a deterministic first violation
	byID                 map[int]*physProc
	refs                 map[string]*physRef
	accurate, skew, mono violation
	judged               int // events judged by accuracy or skew
}

type physProc struct {
	id      int
	down    bool
	seen    bool  // has had an event
	t, last int64 // its latest event's true time and reading
	drift   int64 // ρ in millionths
	// the claim: bound b against ref, made at true time at
	claimed bool
	b       int64
	ref     string
	at      int64
	// the latest slew: gains at most |delta| before true time slewEnd
	slewDelta, slewEnd int64
}

// physRef is what clock.skew keeps of the processes claiming one reference:
// those furthest ahead and behind, and the events since they were found by
// a scan.
type physRef struct {
	ahead, behind *physProc
	since         int
}

// offset is how far ahead of true time p read at its latest event.
func (p *physProc) offset() int64 { return p.last - p.t }

func (p *physProc) member(ref string) bool { return !p.down && p.claimed && p.seen && p.ref == ref }

// extremes returns the reference's processes furthest ahead and behind,
// p among the candidates, scanning them all once every as many events as
// there are.
func (s *physState) extremes(p *physProc) *physRef {
	r := s.refs[p.ref]
	if r == nil {
		r = &physRef{}
		s.refs[p.ref] = r
	}
	if r.since++; r.ahead == nil || !r.ahead.member(p.ref) || !r.behind.member(p.ref) || r.since > len(s.procs) {
		r.ahead, r.behind, r.since = p, p, 0
		for _, q := range s.procs {
			if q.member(p.ref) {
				r.consider(q)
			}
		}
	}
	r.consider(p)
	return r
}

func (r *physRef) consider(q *physProc) {
	if q.offset() > r.ahead.offset() {
		r.ahead = q
	}
	if q.offset() < r.behind.offset() {
		r.behind = q
	}
}

func (s *physState) proc(id int) *physProc {
	p := s.byID[id]
	if p == nil {
		p = &physProc{id: id}
		s.byID[id] = p
		i, _ := slices.BinarySearchFunc(s.procs, id, func(q *physProc, id int) int { return q.id - id })
		s.procs = slices.Insert(s.procs, i, p)
	}
	return p
}

// grow is ceil(ρ·d) + 1, nothing when ρ is 0: as clock.Drift.Grow.
func grow(ppm, d int64) int64 {
	if ppm == 0 || d <= 0 {
		return 0
	}
	return (ppm*d+999_999)/1_000_000 + 1
}

func (s *physState) observe(e *trace.Event) {
	if e.Node == trace.NoNode {
		return
	}
	// Only a run that claims or corrects keeps anything.
	p := s.byID[e.Node]
	if p == nil && e.Type != trace.Clock && !(e.Type == trace.State && isPhysKey(e.Key)) {
		return
	}
	if p == nil {
		p = s.proc(e.Node)
	}
	switch e.Type {
	case trace.Crash:
		p.down, p.claimed = true, false
		return
	case trace.Recover:
		p.down = false
	case trace.Clock:
		if e.Kind == "step" && e.Delta < 0 {
			s.mono.add(e, "process %d stepped its clock back by %d, from %d to %d", e.Node, -e.Delta, e.Local, e.ClockAfter())
		} else if s.seenBack(p, e) {
			return
		}
		if e.Over > 0 {
			p.slewDelta, p.slewEnd = abs64(e.Delta), e.T+2*e.Over
		}
		p.seen, p.t, p.last = true, e.T, e.ClockAfter()
		return
	case trace.State:
		switch e.Key {
		case clock.KeyDrift:
			p.drift = int64(toInt(e.New))
		case clock.KeyRef:
			p.ref, _ = e.New.(string)
		case clock.KeyBound:
			b, ok := intOf(e.New)
			p.claimed, p.b, p.at = ok && e.New != nil, int64(b), e.T
		}
	}
	if p.down {
		return
	}
	s.seenBack(p, e)
	p.seen, p.t, p.last = true, e.T, e.Local
	s.judge(p, e)
}

func isPhysKey(k string) bool {
	return k == clock.KeyBound || k == clock.KeyRef || k == clock.KeyDrift
}

// seenBack reports (and records for clock.monotonic) a reading below the
// process's previous one.
func (s *physState) seenBack(p *physProc, e *trace.Event) bool {
	if p.seen && e.Local < p.last {
		s.mono.add(e, "process %d's clock went back from %d (t=%d) to %d", e.Node, p.last, p.t, e.Local)
		return true
	}
	return false
}

// bound is p's claimed bound at true time t, grown k times (1 against
// true time, 2 against a clock).
func (p *physProc) bound(t, k int64) int64 { return p.b + k*grow(p.drift, t-p.at) }

func (s *physState) judge(p *physProc, e *trace.Event) {
	if !p.claimed {
		return
	}
	s.judged++
	if p.ref == clock.RefUTC {
		if err, b := abs64(e.Local-e.T), p.bound(e.T, 1); err > b {
			s.accurate.add(e, "process %d reads %d at true time %d: off by %d, beyond its claimed bound %d (%d claimed at t=%d, grown by drift)", p.id, e.Local, e.T, err, b, p.b, p.at)
		}
	}
	r := s.extremes(p)
	for _, q := range []*physProc{r.ahead, r.behind} {
		if q == p {
			continue
		}
		d := e.T - q.t
		lo, hi := q.last+d-grow(q.drift, d), q.last+d+grow(q.drift, d)
		if e.T < q.slewEnd {
			lo, hi = lo-q.slewDelta, hi+q.slewDelta
		}
		apart := max(lo-e.Local, e.Local-hi, 0)
		if b := p.bound(e.T, 2) + q.bound(e.T, 2); apart > b {
			s.skew.add(e, "process %d reads %d and process %d at least %d away (from %d at t=%d): beyond their claimed bounds' sum %d", p.id, e.Local, q.id, apart, q.last, q.t, b)
		}
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func (s *physState) verdict(v *violation, what string) (bool, string) {
	if v.text != "" {
		return false, v.text + more(v.more)
	}
	return true, fmt.Sprintf("%s at %d events of %d processes", what, s.judged, len(s.procs))
}

func (m *Monitor) clockAccuracy(int64) (bool, string) {
	return m.phys.verdict(&m.phys.accurate, "every reading within its claimed bound of true time")
}

func (m *Monitor) clockSkew(int64) (bool, string) {
	return m.phys.verdict(&m.phys.skew, "every two clocks claiming the same reference within their bounds' sum")
}

func (m *Monitor) clockMonotonic(int64) (bool, string) {
	return m.phys.verdict(&m.phys.mono, "no clock went back")
}

var physKeys = []string{clock.KeyBound, clock.KeyRef, clock.KeyDrift}
