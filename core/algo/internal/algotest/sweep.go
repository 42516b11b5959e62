package algotest

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"testing"

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

// Partition schedules, in half the worlds of an algorithm that tolerates
// partitions, a split of ids into two sides at a time before within and its
// healing up to 300 ticks later, from a stream of the seed's own; it
// returns what it scheduled, for the sweep's report, and when the network
// is whole again (0: no partition).
func Partition(a algo.Assumptions, seed uint64, s *sim.Sim, ids []sim.NodeID, within int) (schedule []string, healed sim.Time) {
	p := sim.Stream(seed, "sweep-partition", 0)
	if !a.Partitions || len(ids) < 2 || p.IntN(2) != 0 {
		return nil, 0
	}
	side := slices.Clone(ids)
	p.Shuffle(len(side), func(i, j int) { side[i], side[j] = side[j], side[i] })
	k := 1 + p.IntN(len(side)-1)
	groups := [][]sim.NodeID{side[:k], side[k:]}
	at := sim.Time(p.IntN(within))
	healed = at + 1 + sim.Time(p.IntN(300))
	s.At(at, func() { _ = s.Partition(groups) })
	s.At(healed, s.Heal)
	return []string{fmt.Sprintf("t=%d partition %v", at, groups), fmt.Sprintf("t=%d heal", healed)}, healed
}

// The flags of every package's seed sweep.
var (
	sweepSeed  = flag.Uint64("sweep.seed", 0, "run only this seed of the seed sweep")
	sweepSeeds = flag.Int("sweep.seeds", 0, "seeds per algorithm in the seed sweep (0: the sweep's own number)")
)

// Seeds runs a sweep's seeds, 1 to n or -sweep.seeds (a fifth of them with
// -short), or only -sweep.seed when it is given: run judges one and says
// what went wrong ("" for nothing). A failure names the seed and the
// command that runs it again, pkg's test of this name with -sweep.seed;
// the test stops after three failing seeds.
func Seeds(t *testing.T, pkg string, n int, run func(seed uint64) string) {
	if *sweepSeeds > 0 {
		n = *sweepSeeds
	}
	first, last := uint64(1), uint64(n)
	if testing.Short() {
		last /= 5
	}
	if *sweepSeed != 0 {
		first, last = *sweepSeed, *sweepSeed
	}
	failed := 0
	for seed := first; seed <= last; seed++ {
		if msg := run(seed); msg != "" {
			t.Errorf("seed %d: %s\nreplay: go test %s -run '%s$' -sweep.seed=%d -v", seed, msg, pkg, t.Name(), seed)
			if failed++; failed == 3 {
				t.Fatalf("stopping after %d failing seeds", failed)
			}
		}
	}
}

// Replaying reports whether the sweep runs one seed again (-sweep.seed),
// when the figures over all seeds it asserts do not apply.
func Replaying() bool { return *sweepSeed != 0 }
