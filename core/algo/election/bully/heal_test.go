package bully

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
	"dsim/core/topo"
)

// TestHealedPartition: each side of a partition elects its own highest
// process; after the heal the lower coordinator's next probe reaches the
// higher one, which answers, holds its own election and announces itself to
// everyone, so one coordinator remains, the highest live process.
func TestHealedPartition(t *testing.T) {
	for _, c := range []struct {
		name    string
		groups  [][]sim.NodeID
		crash   sim.NodeID // crashed at 20, inside the partition (0: none)
		recover bool       // and recovered at 60, still inside it
	}{
		{name: "the top process alone", groups: [][]sim.NodeID{{1, 2, 3, 4, 5, 6, 7}, {8}}},
		{name: "the top process with lower ones", groups: [][]sim.NodeID{{3, 4, 5, 6, 7}, {1, 2, 8}}},
		// 8's recovery COORDINATOR reaches only its own side.
		{name: "the top process recovered inside the partition", groups: [][]sim.NodeID{{1, 2, 3, 4, 5, 6, 7}, {8}}, crash: 8, recover: true},
		// 8 stays down: 5 and 7 coordinate the two sides, and 7 must win.
		{name: "two coordinators below the top", groups: [][]sim.NodeID{{1, 2, 3, 4, 5}, {6, 7}}, crash: 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := world(t, algotest.IDs(8), map[string]any{"leader": 8, "probe": 40})
			w.At(0, func() { _ = w.Partition(c.groups) })
			if c.crash != 0 {
				w.Crash(20, c.crash)
				if c.recover {
					w.Recover(60, c.crash)
				}
			}
			w.At(200, w.Heal)
			w.Run(199)
			var leaders []sim.NodeID
			for _, id := range w.IDs() {
				if w.Up(id) && w.Get(id, "role") == "leader" {
					leaders = append(leaders, id)
				}
			}
			if len(leaders) != 2 {
				t.Fatalf("leaders before the heal %v, want one per side", leaders)
			}
			w.Run(1000)
			w.Elected(algotest.HighestLive(w.Sim))
		})
	}
}

// TestHealedPartitionTrace follows the heal message by message: 7 won on
// its side because 8 did not answer; at its first probe after the heal it
// sends ELECTION to 8, which answers and, by the ELECTION rule, holds its
// own election: nobody is higher, so it announces itself to 1..7.
func TestHealedPartitionTrace(t *testing.T) {
	w := world(t, algotest.IDs(8), map[string]any{"leader": 8, "probe": 40})
	w.At(0, func() { _ = w.Partition([][]sim.NodeID{{1, 2, 3, 4, 5, 6, 7}, {8}}) })
	w.At(100, w.Heal)
	w.Run(150)
	checkSends(t, sendsSince(w, 100), []string{
		"120 PROBE 1->7", "120 PROBE 2->7", "120 PROBE 3->7", "120 PROBE 4->7", "120 PROBE 5->7", "120 PROBE 6->7",
		"120 ELECTION 7->8",
		"121 REPLY 7->1", "121 REPLY 7->2", "121 REPLY 7->3", "121 REPLY 7->4", "121 REPLY 7->5", "121 REPLY 7->6",
		"121 ANSWER 8->7",
		"121 COORDINATOR 8->1", "121 COORDINATOR 8->2", "121 COORDINATOR 8->3", "121 COORDINATOR 8->4",
		"121 COORDINATOR 8->5", "121 COORDINATOR 8->6", "121 COORDINATOR 8->7",
	})
	w.Elected(8)
}

// TestCoordinatorCheck: the check goes only to higher processes the
// failure detector does not suspect, so a coordinator whose higher
// processes are down (the recovered-process rule will bring them back)
// sends nothing; and the highest process has nobody to check.
func TestCoordinatorCheck(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "election.bully", IDs: algotest.IDs(4), Detect: 5,
		Config: map[string]any{"T": 10, "T2": 30, "leader": 4}})
	w.Crash(0, 4)
	w.Command(10, 3, "elect")
	w.Command(30, 3, "probe") // 4 suspected since 5
	w.Recover(40, 4)          // its COORDINATOR reaches everyone
	w.Command(50, 4, "probe")
	w.Run(0)
	checkSends(t, sends(w), []string{
		"10 ELECTION 3->4", "20 COORDINATOR 3->1", "20 COORDINATOR 3->2",
		"40 COORDINATOR 4->1", "40 COORDINATOR 4->2", "40 COORDINATOR 4->3",
	})
	w.Elected(4)
}

// TestPartitionSweep runs random worlds with crashes, recoveries, elect
// commands and partitions that all heal, on reliable links, and checks at
// the end that the highest live process is the only coordinator and that
// every live process follows it.
func TestPartitionSweep(t *testing.T) {
	seeds := uint64(300)
	if testing.Short() {
		seeds = 100
	}
	spec, err := algo.Lookup("election.bully")
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		if err := partitionWorld(spec, seed); err != nil {
			t.Errorf("seed %d: %v", seed, err)
			if failed++; failed == 5 {
				t.Fatal("giving up after 5 failing seeds")
			}
		}
	}
}

func partitionWorld(spec *algo.Spec, seed uint64) error {
	r := sim.Stream(seed, "bully-partition", 0)
	n := 3 + r.IntN(8)
	maxLat := 1 + r.IntN(10)
	link := sim.Link{Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(maxLat)}, FIFO: r.IntN(2) == 0}
	g, err := topo.Build(topo.Spec{Kind: spec.Topology, N: n, First: r.IntN(3), Shuffle: true, Seed: seed})
	if err != nil {
		return err
	}
	ids := g.IDs
	T := 2*maxLat + 1
	cfg := map[string]any{"T": T, "T2": T + 3*maxLat, "probe": 4 * T}
	var schedule []string
	var electAt []sim.Time
	var electors []sim.NodeID
	if r.IntN(2) == 0 {
		cfg["leader"] = int(slices.Max(ids))
		schedule = append(schedule, fmt.Sprintf("leader %d at boot", cfg["leader"]))
	} else {
		electors, electAt = append(electors, ids[r.IntN(n)]), append(electAt, 0)
	}
	vals, err := spec.Resolve(cfg)
	if err != nil {
		return err
	}
	factory, err := spec.New(vals)
	if err != nil {
		return err
	}
	s, err := sim.New(sim.Config{Seed: seed, Topology: g.Topology, Factory: factory, Link: link,
		DetectDelay: sim.Duration(1 + r.IntN(20)), MaxEvents: 2_000_000})
	if err != nil {
		return err
	}
	var last sim.Time
	// One or two partitions into two or three random groups, each healed
	// after a while; they may overlap, a later one replacing the earlier.
	for range 1 + r.IntN(2) {
		groups := make([][]sim.NodeID, 2+r.IntN(2))
		for _, id := range ids {
			k := r.IntN(len(groups))
			groups[k] = append(groups[k], id)
		}
		at := sim.Time(r.IntN(400))
		heal := at + 1 + sim.Time(r.IntN(400))
		s.At(at, func() { _ = s.Partition(groups) })
		s.At(heal, s.Heal)
		schedule = append(schedule, fmt.Sprintf("t=%d partition %v", at, groups), fmt.Sprintf("t=%d heal", heal))
		last = max(last, heal)
	}
	// Zero to two crashes, most of them recovered.
	for range r.IntN(3) {
		id := ids[r.IntN(n)]
		at := sim.Time(r.IntN(600))
		s.At(at, func() {
			if s.Up(id) && live(s) > 1 {
				_ = s.Crash(id)
			}
		})
		schedule = append(schedule, fmt.Sprintf("t=%d crash %d", at, id))
		last = max(last, at)
		if r.IntN(4) > 0 {
			back := at + 1 + sim.Time(r.IntN(300))
			s.At(back, func() {
				if !s.Up(id) {
					_ = s.Recover(id)
				}
			})
			schedule = append(schedule, fmt.Sprintf("t=%d recover %d", back, id))
			last = max(last, back)
		}
	}
	for range r.IntN(3) {
		electors, electAt = append(electors, ids[r.IntN(n)]), append(electAt, sim.Time(r.IntN(600)))
	}
	for k, id := range electors {
		s.At(electAt[k], func() {
			if s.Up(id) {
				_ = s.Command(id, "elect", nil)
			}
		})
		schedule = append(schedule, fmt.Sprintf("t=%d elect %d", electAt[k], id))
		last = max(last, electAt[k])
	}
	// Dozens of probe periods after the last fault.
	if res := s.Run(sim.Until{Time: last + 5_000}); res.Limited() {
		return fmt.Errorf("run %s", res)
	}
	if err := algotest.Agreed(s, algotest.HighestLive(s)); err != nil {
		return fmt.Errorf("%v; n=%d ids=%v latency=1..%d config=%v; schedule: %s", err, n, ids, maxLat, cfg, strings.Join(schedule, ", "))
	}
	return nil
}

func live(s *sim.Sim) int {
	n := 0
	for _, id := range s.IDs() {
		if s.Up(id) {
			n++
		}
	}
	return n
}
