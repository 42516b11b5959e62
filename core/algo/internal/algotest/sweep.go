package algotest

import (
	"math"

	"dsim/core/algo"
	"dsim/core/sim"
)

// Assume fits the parts of a seed sweep's world that an algorithm's
// assumptions govern, beyond the FIFO links and the crashes each sweep
// draws itself: the links lose and duplicate messages only where the
// algorithm tolerates it, at rates drawn from a stream of the seed's own
// (so that the sweep's other draws stay those of every seed), and the key
// of its latency bound is set as tight as the links' latency allows, where
// the timers built on it are put to the test.
func Assume(a algo.Assumptions, seed uint64, l *sim.Link, cfg map[string]any) {
	r := sim.Stream(seed, "sweep-faults", 0)
	rates := []float64{0, 0, 0.01, 0.05}
	if a.Loss {
		l.Loss = rates[r.IntN(len(rates))]
	}
	if a.Duplication {
		l.Dup = rates[r.IntN(len(rates))]
	}
	if b := a.Latency; b.Key != "" {
		longest := l.Latency.Max()
		if math.IsInf(longest, 0) {
			panic("algotest: a latency of no bound (" + l.Latency.String() + ") for an algorithm that assumes one")
		}
		need := b.Trips * int(longest)
		if b.Timeout {
			need++
		}
		cfg[b.Key] = need
	}
}
