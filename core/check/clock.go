package check

import (
	"fmt"

	"dsim/core/trace"
)

// clockState follows the processes' clock corrections. A slew never runs
// a clock backwards (the kernel spreads it so), so the corrections that
// can are the steps back, which the clock events name.
type clockState struct {
	steps, slews int
	back         string // the first step back, described
	backSeq      uint64
	backMore     int // steps back after it
}

func (s *clockState) observe(e *trace.Event) {
	if e.Type != trace.Clock {
		return
	}
	if e.Over != 0 {
		s.slews++
		return
	}
	s.steps++
	if e.Delta >= 0 {
		return
	}
	if s.back != "" {
		s.backMore++
		return
	}
	s.back = fmt.Sprintf("t=%d seq=%d: process %d stepped its clock back from %d to %d", e.T, e.Seq, e.Node, e.Local, e.ClockAfter())
	s.backSeq = e.Seq
}

func (m *Monitor) monotonic(int64) (bool, string) {
	s := &m.clock
	if s.back != "" {
		return false, s.back + more(s.backMore)
	}
	return true, fmt.Sprintf("no clock went backwards (%d slews, %d steps forward)", s.slews, s.steps)
}
