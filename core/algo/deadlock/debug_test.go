package deadlock_test

import (
	"fmt"
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/trace"
)

func TestDebug(t *testing.T) {
	if *sweepSeed == 0 {
		t.Skip()
	}
	spec, _ := algo.Lookup(*countAlgo)
	w := debugWorld(t, spec, *sweepSeed)
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

func debugWorld(t *testing.T, spec *algo.Spec, seed uint64) *algotestWorld {
	sweepOne(t, spec, seed)
	return last
}
