package vector

import (
	"runtime"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/internal/algotest"
	"dsim/core/topo"
)

// BenchmarkVectorMillion runs vector clocks on a complete graph of 1000
// processes, each sending 1000 messages to peers drawn at random: 10^6
// messages, each carrying a vector of 1000 entries, and 2*10^6 events,
// tracing off. It reports the time and the bytes allocated per event, and
// the live heap at the end of a run (every process's vector and the state
// copy of it: n² entries). Under js/wasm:
//
//	PATH=$(go env GOROOT)/lib/wasm:$PATH GOOS=js GOARCH=wasm go test -run - -bench VectorMillion ./core/algo/clock/vector
func BenchmarkVectorMillion(b *testing.B) {
	const n, each = 1000, 1000
	spec, err := algo.Lookup("clock.vector")
	if err != nil {
		b.Fatal(err)
	}
	vals, err := spec.Resolve(map[string]any{"events": each, "sends": 1.0, "rate": 0.1})
	if err != nil {
		b.Fatal(err)
	}
	g, err := topo.Build(topo.Spec{Kind: "complete", N: n, First: 1, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var events uint64
	var heap uint64
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		s := algotest.Quiescent(b, spec, vals, g.Topology)
		st := s.Stats()
		if st.Sent != n*each || st.Delivered != n*each {
			b.Fatalf("%d messages sent, %d delivered, want %d", st.Sent, st.Delivered, n*each)
		}
		events = st.Events
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		heap = m.HeapAlloc
		runtime.KeepAlive(s)
	}
	runtime.ReadMemStats(&after)
	runs := float64(b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/runs/float64(events), "ns/event")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/runs/float64(events), "B/event")
	b.ReportMetric(float64(heap)/(1<<20), "MiB-live")
	b.ReportMetric(float64(events), "events/op")
}
