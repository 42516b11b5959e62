package script

import (
	"fmt"
	"math"

	"dsim/core/algo"
	"dsim/core/sim"
	"dsim/core/trace"
)

// Warning is a world leaving its algorithm's assumptions (algo.Assumptions):
// from then on the algorithm promises nothing, and a failed check says
// little about the algorithm. A world warns once per kind of breach.
type Warning struct {
	World int    // 1-based
	Seq   uint64 // seq of the warning event in the world's trace (0 when not traced)
	Line  int    // script line that left the assumptions (0 if none)
	Text  string
}

// breach is one kind of leaving the assumptions.
type breach uint8

const (
	reorders breach = iota
	loses
	duplicates
	partitions
	crashes
	recoveries
	latency
	traitors
	early     // a crossing faster than the least latency the bounds assume
	drifts    // a clock drifting faster than the bound
	reference // the reference clock set off true time
)

// outside warns that w has left its algorithm's assumptions by b, unless it
// has warned of b already: a sweep that crashes a process a thousand times
// needs to be told once. model names the assumption, what the world did.
func (w *world) outside(b breach, line int, model, what string) {
	if w.warned&(1<<b) != 0 {
		return
	}
	w.warned |= 1 << b
	text := fmt.Sprintf("outside the assumptions of %s (%s): %s", w.spec.Name, model, what)
	seq := w.emit(trace.Event{Type: trace.Warning, Node: trace.NoNode, Text: text, Line: line})
	w.r.warnings = append(w.r.warnings, Warning{World: w.index, Seq: seq, Line: line, Text: text})
}

// checkLink warns of what a link model, set at line for the links named
// by where, does that the algorithm does not tolerate.
func (w *world) checkLink(l sim.Link, line int, where string) {
	a := &w.spec.Assumptions
	if a.FIFO && !l.FIFO {
		w.outside(reorders, line, "FIFO links", "messages on "+where+" may arrive out of order (fifo = false)")
	}
	if !a.Loss && l.Loss > 0 {
		w.outside(loses, line, "no message loss", fmt.Sprintf("messages on %s may be lost (loss = %g)", where, l.Loss))
	}
	if !a.Duplication && l.Dup > 0 {
		w.outside(duplicates, line, "no duplication", fmt.Sprintf("messages on %s may be duplicated (dup = %g)", where, l.Dup))
	}
	if b := a.Latency; !b.Holds(w.config, l.Latency.Max()) {
		model := fmt.Sprintf("%s, %s = %d", b, b.Key, w.config.Int(b.Key))
		longest := fmt.Sprintf("up to %g ticks", l.Latency.Max())
		if math.IsInf(l.Latency.Max(), 1) {
			longest = "arbitrarily long"
		}
		w.outside(latency, line, model, fmt.Sprintf("a message on %s may take %s (latency %s)", where, longest, l.Latency))
	}
	if k := a.Clocks.MinLatency; k != "" && l.Latency.Min() < float64(w.config.Int(k)) {
		w.outside(early, line, fmt.Sprintf("no message in less than %s = %d ticks", k, w.config.Int(k)),
			fmt.Sprintf("a message on %s may arrive in %g ticks (latency %s)", where, l.Latency.Min(), l.Latency))
	}
}

// checkClock warns when a clock set at line, that of id with the offset
// and drift given, leaves the algorithm's clock model.
func (w *world) checkClock(id sim.NodeID, offset int64, drift float64, line int) {
	c := w.spec.Assumptions.Clocks
	if k := c.Drift; k != "" && math.Abs(drift)*1e6 > float64(w.config.Int(k)) {
		w.outside(drifts, line, fmt.Sprintf("clocks drift by at most %s = %d millionths", k, w.config.Int(k)),
			fmt.Sprintf("process %d's clock drifts by %g millionths (drift = %g)", id, drift*1e6, drift))
	}
	if k := c.Reference; k != "" && (offset != 0 || drift != 0) {
		ref := w.config.ID(k)
		if ref < 0 {
			ref = w.s.IDs()[0] // the first in ring order
		}
		if id == ref {
			w.outside(reference, line, fmt.Sprintf("the reference's clock reads true time, %s = %d", k, ref),
				fmt.Sprintf("process %d's clock is set off it (offset = %d, drift = %g)", id, offset, drift))
		}
	}
}

// crash crashes id at line's request, warning when the algorithm tolerates
// no crash.
func (w *world) crash(id sim.NodeID, line int) error {
	err := w.s.Crash(id)
	if err == nil && w.spec.Assumptions.Crashes == algo.NoCrashes {
		w.outside(crashes, line, "no crash", fmt.Sprintf("process %d crashed", id))
	}
	return err
}

// recover restarts id at line's request, warning when the algorithm
// tolerates no recovery.
func (w *world) recover(id sim.NodeID, line int) error {
	err := w.s.Recover(id)
	if err == nil && w.spec.Assumptions.Crashes < algo.CrashRecovery {
		w.outside(recoveries, line, "no recovery", fmt.Sprintf("process %d recovered", id))
	}
	return err
}

// split warns, once a partition or cut link (what) is in place, when the
// algorithm does not tolerate partitions.
func (w *world) split(err error, line int, what string) error {
	if err == nil && !w.spec.Assumptions.Partitions {
		w.outside(partitions, line, "no partition", what)
	}
	return err
}
