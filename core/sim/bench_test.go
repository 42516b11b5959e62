package sim

import "testing"

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
