package mutex_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/algo/internal/algotest"
	"dsim/core/algo/mutex"
	"dsim/core/check"
	"dsim/core/sim"
	"dsim/core/topo"
)

// The seed sweep runs every registered mutual exclusion algorithm under
// random workloads and latencies and, within each algorithm's declared
// assumptions (algo.Assumptions), links that reorder, lose or duplicate
// messages, crashes, recoveries and healed partitions, and judges every run with core/check:
// safety at every event, liveness at the end, ordering where the algorithm
// declares it. A failure prints the seed; replay it with
//
//	go test ./core/algo/mutex -run 'TestSweep/mutex.lamport$' -sweep.seed=N -v
const sweepN = 1000

// sweepCase is one random run.
type sweepCase struct {
	seed    uint64
	n       int
	link    sim.Link
	config  map[string]any // the latency bound's key, where the algorithm has one
	rate    float64        // requests per tick per process
	until   sim.Time
	crashes []sweepCrash
}

type sweepCrash struct {
	id       int // index into the processes
	at, back sim.Time
	recovers bool
}

func (c sweepCase) String() string {
	var cr []string
	for _, x := range c.crashes {
		s := fmt.Sprintf("p#%d@%d", x.id, x.at)
		if x.recovers {
			s += fmt.Sprintf("..%d", x.back)
		}
		cr = append(cr, s)
	}
	return fmt.Sprintf("seed %d: n=%d latency=%s fifo=%v loss=%g dup=%g config=%v rate=%g until=%d crashes=[%s]",
		c.seed, c.n, c.link.Latency, c.link.FIFO, c.link.Loss, c.link.Dup, c.config, c.rate, c.until, strings.Join(cr, " "))
}

func newSweepCase(seed uint64, a algo.Assumptions) sweepCase {
	r := sim.Stream(seed, "mutex-sweep", 0)
	c := sweepCase{seed: seed, n: 2 + r.IntN(9), until: sim.Time(100 + r.IntN(300)), config: map[string]any{}}
	c.link = sim.Link{FIFO: a.FIFO || r.IntN(2) == 0}
	// An exponential latency has no bound, which an algorithm with a
	// latency bound does not tolerate.
	if r.IntN(4) == 0 && a.Latency.Key == "" {
		c.link.Latency = sim.Dist{Kind: sim.Exponential, A: 1, B: float64(1 + r.IntN(4))}
	} else {
		c.link.Latency = sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + r.IntN(8))}
	}
	// From a request every few hundred ticks (no contention) to one every
	// few ticks across the system (a queue at every exit).
	c.rate = []float64{0.002, 0.01, 0.03, 0.1}[r.IntN(4)]
	if a.Crashes > algo.NoCrashes {
		for range r.IntN(4) {
			x := sweepCrash{id: r.IntN(c.n), at: sim.Time(r.IntN(int(c.until)))}
			if x.recovers = r.IntN(2) == 0 && a.Crashes == algo.CrashRecovery; x.recovers {
				x.back = x.at + sim.Time(5+r.IntN(100))
			}
			c.crashes = append(c.crashes, x)
		}
	}
	algotest.Assume(a, seed, &c.link, c.config)
	return c
}

// sweepOne runs one case and returns what went wrong ("" if nothing).
func sweepOne(t *testing.T, spec *algo.Spec, c sweepCase) string {
	vals, err := spec.Resolve(c.config)
	if err != nil {
		t.Fatal(err)
	}
	factory, err := spec.New(vals)
	if err != nil {
		t.Fatal(err)
	}
	g, err := topo.Build(topo.Spec{Kind: spec.Topology, N: c.n, First: 1, Shuffle: true, Seed: c.seed})
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sim.Config{Seed: c.seed, Topology: g.Topology, Factory: factory, Link: c.link, DetectDelay: 5, MaxEvents: 2_000_000})
	if err != nil {
		t.Fatal(err)
	}
	mon := check.New()
	s.Observe(mon.Observe)
	ids := s.IDs()
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	// Poisson requests, as w:workload makes them.
	for k, id := range ids {
		rng := sim.Stream(c.seed, "mutex-sweep/workload", uint64(k))
		var at float64
		var next func()
		next = func() {
			at += sim.Exp(rng, 1/c.rate)
			if t := sim.Time(at); t < c.until {
				d := 1 + rng.IntN(6)
				s.At(t, func() {
					if s.Up(id) {
						if err := s.Command(id, "request", sim.Args{"duration": d}); err != nil {
							fail("t=%d: process %d rejected a request: %v", s.Now(), id, err)
						}
					}
					next()
				})
			}
		}
		next()
	}
	for _, x := range c.crashes {
		id := ids[x.id]
		s.At(x.at, func() {
			if !s.Up(id) || len(slices.DeleteFunc(slices.Clone(ids), func(j sim.NodeID) bool { return !s.Up(j) })) < 2 {
				return // already down, or the last live process besides
			}
			if err := s.Crash(id); err != nil {
				fail("crash %d: %v", id, err)
			}
			if x.recovers {
				s.At(x.back, func() {
					if err := s.Recover(id); err != nil {
						fail("recover %d: %v", id, err)
					}
				})
			}
		})
	}
	// A partition during the workload, healed later, where the algorithm
	// tolerates partitions.
	split, healed := algotest.Partition(spec.Assumptions, c.seed, s, ids, int(c.until))
	// Token algorithms that circulate while idle never go quiet: after the
	// workload, the last recovery and the heal, run in steps until every
	// request is served or a bound is reached (an overloaded run needs
	// thousands of ticks to drain its backlogs).
	for end := max(c.until, healed) + 200; ; end += 500 {
		res := s.Run(sim.Until{Time: end})
		if res.Limited() {
			fail("run %s", res)
			break
		}
		if v, _ := mon.Check(mutex.Liveness, int64(s.Now())); v.Pass || res.Reason == sim.Quiescent || end > c.until+30000 {
			break
		}
	}
	props := []string{mutex.Safety, mutex.Liveness}
	if slices.Contains(spec.Properties, mutex.Ordering) {
		props = append(props, mutex.Ordering)
	}
	for _, p := range props {
		v, err := mon.Check(p, int64(s.Now()))
		if err != nil {
			t.Fatal(err)
		}
		if !v.Pass {
			fail("%s", v.Text)
		}
	}
	if costs := mon.Costs(); costs.Requests == 0 && len(problems) == 0 && c.rate*float64(c.until)*float64(c.n) > 20 {
		fail("no request was made (%s)", costs)
	}
	if len(problems) > 0 && len(split) > 0 {
		problems = append(problems, "partition: "+strings.Join(split, ", "))
	}
	return strings.Join(problems, "; ")
}

func TestSweep(t *testing.T) {
	found := false
	for _, spec := range algo.All() {
		if !strings.HasPrefix(spec.Name, "mutex.") {
			continue
		}
		found = true
		t.Run(spec.Name, func(t *testing.T) {
			algotest.Seeds(t, "./core/algo/mutex", sweepN, func(seed uint64) string {
				c := newSweepCase(seed, spec.Assumptions)
				if msg := sweepOne(t, spec, c); msg != "" {
					return fmt.Sprintf("%s: %s", c, msg)
				}
				return ""
			})
		})
	}
	if !found {
		t.Fatal("no mutex.* algorithm is registered (core/algo/all imports them)")
	}
}
