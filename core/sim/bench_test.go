package sim

import (
	"fmt"
	"testing"
)

type token struct{}

func (token) Kind() string { return "TOKEN" }

// passer forwards the token to its ring successor: the bare kernel cost.
type passer struct{ first bool }

func (p *passer) Start(ctx Context) {
	if p.first {
		ctx.Send(ctx.Neighbor(1), token{})
	}
}
func (p *passer) Receive(ctx Context, _ NodeID, _ Message) { ctx.Send(ctx.Neighbor(1), token{}) }
func (p *passer) Timer(Context, string)                    {}
func (p *passer) Command(Context, string, Args) error      { return nil }

func ringIDs(n int) []NodeID {
	ids := make([]NodeID, n)
	for i := range ids {
		ids[i] = NodeID(i + 1)
	}
	return ids
}

func tokenRing(tb testing.TB, n int, link Link) *Sim {
	s, err := New(Config{
		Seed:     1,
		Topology: Topology{Name: "ring", IDs: ringIDs(n)},
		Factory:  func(id NodeID) Node { return &passer{first: id == 1} },
		Link:     link,
	})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// BenchmarkKernelTokenRing measures delivered messages per second with
// tracing off; b.N is the number of deliveries.
func BenchmarkKernelTokenRing(b *testing.B) {
	for _, c := range []struct {
		name string
		link Link
	}{
		{"constant", DefaultLink},
		{"uniform-fifo", Link{Latency: Dist{Kind: Uniform, A: 1, B: 20}, FIFO: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := tokenRing(b, 64, c.link)
			s.Run(Until{Events: 64}) // boot
			b.ReportAllocs()
			b.ResetTimer()
			s.Run(Until{Events: uint64(b.N)})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mmsg/s")
		})
	}
}

// holdPattern is the classic priority-queue benchmark: keep pending events
// in the queue, pop the earliest and push one at a random delay after it.
// Delays mostly fall inside the calendar window, with a few far ones.
func holdDelays(n int) []Time {
	r := Stream(1, "bench", 0)
	d := make([]Time, n)
	for i := range d {
		d[i] = Time(1 + r.IntN(100))
		if i%64 == 0 {
			d[i] = Time(nBuckets + r.IntN(10*nBuckets))
		}
	}
	return d
}

// BenchmarkQueue compares the typed binary heap alone with the calendar
// queue (buckets plus overflow heap), in events (one pop and one push) per
// second, at several queue sizes.
func BenchmarkQueue(b *testing.B) {
	delays := holdDelays(1 << 16)
	for _, pending := range []int{64, 4096, 100000} {
		b.Run(fmt.Sprintf("heap/pending=%d", pending), func(b *testing.B) {
			var h farHeap
			var seq uint64
			for i := range pending {
				seq++
				h.push(farEvent{at: delays[i%len(delays)], seq: seq})
			}
			b.ResetTimer()
			for i := range b.N {
				now := h.a[0].at
				h.pop()
				seq++
				h.push(farEvent{at: now + delays[i&(len(delays)-1)], seq: seq})
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mevents/s")
		})
		b.Run(fmt.Sprintf("calendar/pending=%d", pending), func(b *testing.B) {
			var q queue
			for i := range pending {
				q.push(delays[i%len(delays)], &event{})
			}
			b.ResetTimer()
			for i := range b.N {
				now, e, _ := q.pop()
				q.push(now+delays[i&(len(delays)-1)], e)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mevents/s")
		})
	}
}

// BenchmarkSet measures Context.Set on 100,000 processes keeping three keys,
// as the ring elections do: each op sets one process's three keys. One of
// them never changes; the other two keep their values on the first pass
// over the processes and change on every pass after it.
func BenchmarkSet(b *testing.B) {
	const n = 100_000
	var ctxs []Context
	s, err := New(Config{
		Seed:     1,
		Topology: Topology{Name: "ring", IDs: ringIDs(n)},
		Factory: func(NodeID) Node {
			return &fnNode{start: func(ctx Context) {
				ctx.Set("participant", false)
				ctx.Set("role", "candidate")
				ctx.Set("leader", 0)
				ctxs = append(ctxs, ctx)
			}}
		},
		Link: DefaultLink,
	})
	if err != nil {
		b.Fatal(err)
	}
	s.Run(Until{})
	roles := [2]any{"candidate", "follower"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ctx := ctxs[i%n]
		flip := i / n & 1
		ctx.Set("participant", flip == 1)
		ctx.Set("role", roles[flip])
		ctx.Set("leader", 0)
		i++
	}
}
