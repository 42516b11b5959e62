package script

import (
	"fmt"
	"io"
	"testing"

	"dsim/core/algo"
	"dsim/core/sim"
	"dsim/core/trace"
)

// test.token passes one token round a ring forever: one send and one
// delivery per event, nothing else, so the benchmarks below measure what
// the binding adds per message.
type token struct {
	N int `json:"n"`
}

func (token) Kind() string { return "TOKEN" }

type passer struct{}

func (passer) Start(ctx sim.Context) {
	if ctx.Self() == 1 {
		ctx.Send(ctx.Neighbor(1), token{})
	}
}
func (passer) Receive(ctx sim.Context, _ sim.NodeID, m sim.Message) {
	ctx.Send(ctx.Neighbor(1), token{N: m.(token).N + 1})
}
func (passer) Timer(sim.Context, string)                   {}
func (passer) Command(sim.Context, string, sim.Args) error { return nil }

func init() {
	algo.Register(algo.Spec{
		Name: "test.token", Summary: "test-only: a token round a ring", Description: "Benchmarks.",
		Topology: "ring", Messages: []sim.Message{token{}},
		New: func(algo.Values) (sim.Factory, error) {
			return func(sim.NodeID) sim.Node { return passer{} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(0), BootEvents: 1},
	})
}

// BenchmarkDeliverHook measures the cost per delivered message of a Lua
// on("deliver") hook and of recording and encoding the trace, against the
// bare run. Compare the ns/msg of the sub-benchmarks:
//
//	go test ./core/script -run XXX -bench DeliverHook -benchtime 1000000x
func BenchmarkDeliverHook(b *testing.B) {
	cases := []struct {
		name  string
		hook  string
		trace bool
		jsonl bool
	}{
		{"bare", "", false, false},
		{"empty-hook", `w:on("deliver", function(ev) end)`, false, false},
		{"hook-reads-msg", `local s = 0 w:on("deliver", function(ev) s = s + ev.msg.n end)`, false, false},
		{"trace", "", true, false},
		{"trace+jsonl", "", true, true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			src := fmt.Sprintf(`
local w = sim.world{algorithm="test.token", n=64, max_events=0}
w:run{events=64}
%s
w:run{events=%d}`, c.hook, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			res, err := Run("bench.lua", []byte(src), Options{Seed: 1, NoTrace: !c.trace, Limits: Unlimited})
			if err != nil {
				b.Fatal(err)
			}
			if c.jsonl {
				if err := trace.WriteJSONL(io.Discard, res.Worlds); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/msg")
		})
	}
}
