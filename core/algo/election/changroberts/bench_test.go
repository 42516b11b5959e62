package changroberts

import (
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
	"dsim/core/topo"
)

// BenchmarkChangRobertsMillion runs one full election per op on a
// unidirectional ring of 10^6 processes with shuffled ids, every process
// starting at boot, constant latency and tracing off: the fault-free
// textbook rules (restart off, so no timers). It reports the messages sent.
func BenchmarkChangRobertsMillion(b *testing.B) {
	const n = 1_000_000
	spec, err := algo.Lookup("election.changroberts")
	if err != nil {
		b.Fatal(err)
	}
	vals, err := spec.Resolve(map[string]any{"all": true, "restart": false})
	if err != nil {
		b.Fatal(err)
	}
	g, err := topo.Build(topo.Spec{Kind: "ring", N: n, First: 1, Shuffle: true, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var msgs uint64
	b.ReportAllocs()
	for b.Loop() {
		s := algotest.Quiescent(b, spec, vals, g.Topology)
		st := s.Stats()
		msgs = st.Sent
		if s.Get(sim.NodeID(n), "role") != "leader" {
			b.Fatalf("process %d is not the leader", n)
		}
	}
	b.ReportMetric(float64(msgs), "msgs/op")
}
