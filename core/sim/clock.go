package sim

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"dsim/core/trace"
)

// Every process has two clocks, as Coulouris's section on physical clocks
// has it. The hardware clock H(t) = offset + t + floor(t*drift) is the
// oscillator, which the scenario sets (SetClock) and nothing corrects. The
// software clock C, what the process reads (Context.Now), is H plus the
// corrections the process made: the steps, and the slews, each spread over
// ticks of H. Timers count ticks of H (see trueDelay), so no correction
// moves them.
//
// Readings are integer arithmetic but for the drift's one product, which
// IEEE rounds alike on every platform (no sum follows it to fuse into an
// FMA): a reading is the same natively and in WebAssembly.

// clock is one process's clock.
type clock struct {
	offset Time
	drift  float64
	adj    Time // the steps, and the slews finished or abandoned
	slew   slew // the slew in progress, if over > 0
}

// slew is a correction spread over time: after the hardware clock has
// advanced k of over ticks past from, the clock has gained
// floor(delta*k/over), and delta once k reaches over. With delta > -over
// one more tick of H never loses more than the tick it adds: the clock
// never runs backwards.
type slew struct{ from, delta, over Time }

func (c *clock) hardware(t Time) Time {
	if c.drift == 0 {
		return c.offset + t
	}
	return c.offset + t + Time(math.Floor(float64(t)*c.drift))
}

// read is the software clock at true time t, given no correction since.
func (c *clock) read(t Time) Time {
	h := c.hardware(t)
	return h + c.adj + c.slew.gained(h)
}

func (sl *slew) gained(h Time) Time {
	if sl.over == 0 || h <= sl.from {
		return 0
	}
	k := h - sl.from
	if k >= sl.over {
		return sl.delta
	}
	return floorMulDiv(sl.delta, k, sl.over)
}

// floorMulDiv is floor(a*k/d) for 0 <= k < d, exactly: a*k may pass 64
// bits (a slew of MaxDelay over MaxDelay ticks).
func floorMulDiv(a, k, d Time) Time {
	neg := a < 0
	if neg {
		a = -a
	}
	hi, lo := bits.Mul64(uint64(a), uint64(k))
	q, r := bits.Div64(hi, lo, uint64(d)) // hi < d since k < d
	if neg {
		if r != 0 {
			q++
		}
		return -Time(q)
	}
	return Time(q)
}

// local reads process i's software clock at true time t.
func (s *Sim) local(i int32, t Time) Time {
	if s.clocks == nil {
		return t
	}
	return s.clocks[i].read(t)
}

// trueDelay converts a span of the node's clock into true ticks: the
// smallest true span over which its hardware clock advances by at least d.
func (rt *nodeRT) trueDelay(d Duration) Time {
	if d <= 0 {
		return 0
	}
	d = min(d, MaxDelay)
	s := rt.s
	if s.clocks == nil || s.clocks[rt.idx].drift == 0 {
		return d
	}
	c := &s.clocks[rt.idx]
	now := s.now
	start := c.hardware(now)
	dt := Time(math.Ceil(float64(d) / (1 + c.drift)))
	for dt > 1 && c.hardware(now+dt-1)-start >= d {
		dt--
	}
	for c.hardware(now+dt)-start < d {
		dt++
	}
	return dt
}

// useClocks allocates the clocks and their history at the first change of
// any clock: until then every process reads true time and nothing is paid.
func (s *Sim) useClocks() {
	if s.clocks == nil {
		s.clocks = make([]clock, len(s.nodes))
		s.hist.changes = make([][]clockEntry, len(s.nodes))
	}
}

// SetClock sets process id's hardware clock: offset + t + floor(t*drift)
// for true time t. drift is a rate, e.g. 0.01 runs 1% fast. It discards
// the process's corrections, so that its clock reads that from now on.
func (s *Sim) SetClock(id NodeID, offset Time, drift float64) error {
	i, err := s.mustIndex(id)
	if err != nil {
		return err
	}
	if math.IsNaN(drift) || drift <= -0.5 || drift >= 0.5 {
		return fmt.Errorf("drift %g is outside (-0.5, 0.5)", drift)
	}
	s.useClocks()
	before := s.clocks[i]
	s.clocks[i] = clock{offset: offset, drift: drift}
	s.hist.add(i, s.now, ClockSet, before, s.clocks[i])
	return nil
}

// StepClock sets process id's clock to read to, as Context.StepClock.
func (s *Sim) StepClock(id NodeID, to Time) error {
	i, err := s.mustIndex(id)
	if err != nil {
		return err
	}
	s.correct(i, ClockStep, to, 0)
	return nil
}

// SlewClock makes process id's clock gain delta over the next over ticks of
// its hardware clock, as Context.SlewClock.
func (s *Sim) SlewClock(id NodeID, delta, over Duration) error {
	i, err := s.mustIndex(id)
	if err != nil {
		return err
	}
	if err := checkSlew(delta, over); err != nil {
		return err
	}
	s.correct(i, ClockSlew, delta, over)
	return nil
}

func checkSlew(delta, over Duration) error {
	switch {
	case over <= 0 || over > MaxDelay:
		return fmt.Errorf("a slew over %d ticks: want 1 to %d", over, MaxDelay)
	case delta <= -over:
		return fmt.Errorf("a slew of %d over %d ticks would stop the clock or run it backwards: it may lose less than one tick per tick", delta, over)
	case delta > MaxDelay:
		return fmt.Errorf("a slew of %d ticks: want at most %d", delta, MaxDelay)
	}
	return nil
}

func (rt *nodeRT) StepClock(to Time) {
	if rt.up {
		rt.s.correct(rt.idx, ClockStep, to, 0)
	}
}

// SlewClock panics on a slew the contract rules out: like sending a nil
// message, it is a bug in the algorithm.
func (rt *nodeRT) SlewClock(delta, over Duration) {
	if err := checkSlew(delta, over); err != nil {
		panic(errors.New("sim: SlewClock: " + err.Error()))
	}
	if rt.up {
		rt.s.correct(rt.idx, ClockSlew, delta, over)
	}
}

// correct applies a step to x, or a slew of x over `over` ticks, to process
// i's clock now, and records it in the trace and the history. What a slew
// in progress has gained so far is kept; the rest is abandoned.
func (s *Sim) correct(i int32, mode ClockMode, x, over Time) {
	s.useClocks()
	c := &s.clocks[i]
	before := *c
	old := c.read(s.now)
	c.adj, c.slew = old-c.hardware(s.now), slew{}
	delta := x
	if mode == ClockStep {
		delta = min(max(x, -Forever), Forever) - old
		c.adj += delta
	} else {
		c.slew = slew{from: c.hardware(s.now), delta: x, over: over}
	}
	s.hist.add(i, s.now, mode, before, *c)
	if s.tracing() {
		ev := s.begin(trace.Clock, i)
		ev.Local, ev.Kind, ev.Delta, ev.Over = int64(old), mode.String(), int64(delta), int64(over)
		s.emit()
	}
}

// LocalTime reads process id's local clock.
func (s *Sim) LocalTime(id NodeID) (Time, error) {
	i, err := s.mustIndex(id)
	if err != nil {
		return 0, err
	}
	return s.local(i, s.now), nil
}

// LocalAt reads process id's local clock as it was at true time t (after
// the events at t), from the clock history; ok is false for a time before
// the history kept (see ClockHistoryFrom) or after now.
func (s *Sim) LocalAt(id NodeID, t Time) (at Time, ok bool) {
	i, found := s.index(id)
	if !found || t > s.now || t < s.hist.from {
		return 0, false
	}
	if s.clocks == nil {
		return t, true
	}
	c := s.clocks[i]
	if h := s.hist.of(i); len(h) > 0 {
		// the clock as it was before the first change after t
		lo, hi := 0, len(h)
		for lo < hi {
			m := (lo + hi) / 2
			if h[m].at <= t {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < len(h) {
			c = h[lo].before
		}
	}
	return c.read(t), true
}

// ClockHistoryFrom is the earliest true time LocalAt and ClockChanges know:
// 0 until the history fills up (see maxClockHistory).
func (s *Sim) ClockHistoryFrom() Time { return s.hist.from }

// ClockMode says what changed a clock.
type ClockMode uint8

const (
	ClockSet  ClockMode = iota + 1 // the scenario set the hardware clock
	ClockStep                      // the process stepped its clock
	ClockSlew                      // the process started a slew
)

func (m ClockMode) String() string {
	switch m {
	case ClockSet:
		return "set"
	case ClockStep:
		return "step"
	case ClockSlew:
		return "slew"
	}
	return fmt.Sprintf("clockmode(%d)", uint8(m))
}

// ClockChange is one change of a process's clock: at true time T the
// reading went from Old to New (the same, for a slew, which gains Delta
// over the next Over ticks of the hardware clock; for a step New-Old).
type ClockChange struct {
	T        Time
	Mode     ClockMode
	Old, New Time
	Delta    Time
	Over     Duration
}

// ClockChanges lists process id's clock changes since ClockHistoryFrom,
// oldest first.
func (s *Sim) ClockChanges(id NodeID) ([]ClockChange, error) {
	i, err := s.mustIndex(id)
	if err != nil {
		return nil, err
	}
	h := s.hist.of(i)
	out := make([]ClockChange, len(h))
	for k, e := range h {
		old, nw := e.before.read(e.at), e.after.read(e.at)
		out[k] = ClockChange{T: e.at, Mode: e.mode, Old: old, New: nw, Delta: nw - old}
		if e.mode == ClockSlew {
			out[k].Delta, out[k].Over = e.after.slew.delta, e.after.slew.over
		}
	}
	return out, nil
}

// maxClockHistory bounds the clock changes the history keeps, over every
// process: a run whose processes correct their clocks without end must not
// grow without end. Past it the history starts again from the current
// time.
const maxClockHistory = 1 << 15

// clockHistory keeps each process's clock changes, so that a reading of
// the past (LocalAt: the clock error series) and the corrections can be
// read after the run, traced or not. It costs nothing until a clock
// changes.
type clockHistory struct {
	changes [][]clockEntry // per process, allocated with Sim.clocks
	n       int
	from    Time
}

type clockEntry struct {
	at            Time
	mode          ClockMode
	before, after clock
}

func (h *clockHistory) add(i int32, at Time, mode ClockMode, before, after clock) {
	if h.n == maxClockHistory {
		clear(h.changes)
		h.n, h.from = 0, at
	}
	h.changes[i] = append(h.changes[i], clockEntry{at, mode, before, after})
	h.n++
}

func (h *clockHistory) of(i int32) []clockEntry {
	if int(i) < len(h.changes) {
		return h.changes[i]
	}
	return nil
}
