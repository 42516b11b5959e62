package deadlock_test

import (
	"fmt"
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
	"dsim/core/trace"
)

func TestDebug(t *testing.T) {
	if *sweepSeed == 0 {
		t.Skip()
	}
	spec, _ := algo.Lookup("deadlock.pex")
	r := sim.Stream(*sweepSeed, "deadlock-sweep", 0)
	n := 2 + r.IntN(4)
	link := sim.Link{FIFO: true, Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + r.IntN(6))}}
	cfg := map[string]any{"txns": 1 + r.IntN(6), "ops": 2 + r.IntN(3), "writes": []float64{0.5, 0.8, 1}[r.IntN(3)],
		"rate": []float64{0.05, 0.2, 0.5}[r.IntN(3)]}
	algotest.Assume(spec.Assumptions, *sweepSeed, &link, cfg)
	w := algotest.New(t, algotest.Setup{Algo: spec.Name, IDs: algotest.IDs(n), Link: link, Config: cfg, Seed: *sweepSeed})
	w.Run(horizon)
	for _, e := range w.Rec.Events {
		if e.T > int64(*debugUntil) {
			break
		}
		switch {
		case e.Type == trace.State && e.Key != "op":
			fmt.Printf("t=%d seq=%d n%d %s=%v\n", e.T, e.Seq, e.Node, e.Key, e.New)
		case e.Type == trace.Log:
			fmt.Printf("t=%d n%d %s\n", e.T, e.Node, e.Text)
		case (e.Type == trace.Send || e.Type == trace.Deliver) && e.Kind != "STATUS":
			fmt.Printf("t=%d seq=%d %s %d->%d %s %v\n", e.T, e.Seq, e.Type, e.From, e.To, e.Kind, e.Msg)
		}
	}
}

func TestCount(t *testing.T) {
	if *countAlgo == "" {
		t.Skip()
	}
	spec, _ := algo.Lookup(*countAlgo)
	kinds := map[string]int{}
	for seed := uint64(1); seed <= 1000; seed++ {
		msg := sweepOne(t, spec, seed)
		if msg != "" {
			for _, k := range []string{"sound", "complete", "serializable", "not committed"} {
				if strings.Contains(msg, k) {
					kinds[k]++
				}
			}
		}
	}
	fmt.Println(kinds)
}
