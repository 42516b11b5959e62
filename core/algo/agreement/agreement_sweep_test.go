package agreement_test

import (
	"fmt"
	"strings"
	"testing"

	"dsim/core/algo/agreement"
	_ "dsim/core/algo/all"
	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

// The sweep runs OM(m) for n > 3m and SM(m) for n >= m+2, with every
// placement of m traitors among the generals (the commander among them),
// and none, under every lie strategy (flip, split, silent, and two random
// masks), on links of random latency within the round, FIFO or not, and
// checks that core/check finds IC1 and IC2 hold in every run. A failure
// names the world.

// placements lists every set of k ids among 1..n, as "1,3".
func placements(n, k int) []string {
	if k == 0 {
		return []string{""}
	}
	var out []string
	var rec func(from int, chosen []string)
	rec = func(from int, chosen []string) {
		if len(chosen) == k {
			out = append(out, strings.Join(chosen, ","))
			return
		}
		for id := from; id <= n; id++ {
			rec(id+1, append(chosen, fmt.Sprint(id)))
		}
	}
	rec(1, nil)
	return out
}

func TestSweep(t *testing.T) {
	worlds := map[string][][2]int{
		"agreement.om": {{4, 1}, {5, 1}, {6, 1}, {7, 1}, {7, 2}, {8, 2}, {10, 3}},
		"agreement.sm": {{3, 1}, {4, 1}, {4, 2}, {5, 2}, {5, 3}, {6, 3}},
	}
	runs := 0
	for _, name := range []string{"agreement.om", "agreement.sm"} {
		for _, nm := range worlds[name] {
			n, m := nm[0], nm[1]
			for _, traitors := range append(placements(n, 0), placements(n, m)...) {
				for k, lie := range []string{agreement.Flip, agreement.Split, agreement.Silent, agreement.Mask, agreement.Mask} {
					runs++
					r := sim.Stream(uint64(runs), "agreement-sweep", 0)
					cfg := map[string]any{"m": m, "traitors": traitors, "lie": lie, "lies": r.IntN(1 << 20), "order": r.IntN(2)}
					link := sim.Link{FIFO: r.IntN(2) == 0, Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + r.IntN(49))}}
					w := algotest.New(t, algotest.Setup{Algo: name, IDs: algotest.IDs(n), Link: link, Config: cfg, Seed: uint64(runs)})
					w.Run(0)
					if err := w.Judge(agreement.IC1, agreement.IC2); err != nil {
						t.Errorf("%s n=%d config=%v link=%s (strategy %d): %v", name, n, cfg, link.Latency, k, err)
					}
				}
			}
		}
	}
	t.Logf("%d runs", runs)
}
