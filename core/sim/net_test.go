package sim

import (
	"dsim/core/detmath"

	"math"
	"math/rand/v2"
	"testing"

	"dsim/core/trace"
)

// stream has process 1 send k messages to process 2, one per tick, over
// link, and returns the trace.
func stream(t *testing.T, link Link, k int, seed uint64) *trace.Recorder {
	t.Helper()
	mk := func(id NodeID) Node {
		if id != 1 {
			return &fnNode{}
		}
		sent := 0
		return &fnNode{
			start: func(ctx Context) { ctx.SetTimer(0, "tick") },
			timer: func(ctx Context, _ string) {
				sent++
				ctx.Send(2, msg{sent})
				if sent < k {
					ctx.SetTimer(1, "tick")
				}
			},
		}
	}
	s, rec := world(t, []NodeID{1, 2}, link, mk, func(c *Config) { c.Seed = seed })
	s.Run(Until{})
	return rec
}

// delays pairs each delivery with its send and returns the latencies.
func delays(rec *trace.Recorder) []int64 {
	sentAt := map[uint64]int64{}
	var out []int64
	for _, e := range rec.Events {
		switch e.Type {
		case trace.Send:
			sentAt[e.MsgID] = e.T
		case trace.Deliver:
			out = append(out, e.T-sentAt[e.MsgID])
		}
	}
	return out
}

func payloads(rec *trace.Recorder) []int {
	var out []int
	for _, e := range of(rec, trace.Deliver) {
		out = append(out, e.Msg.(msg).N)
	}
	return out
}

func inversions(ns []int) int {
	inv := 0
	for i := 1; i < len(ns); i++ {
		if ns[i] < ns[i-1] {
			inv++
		}
	}
	return inv
}

func TestFIFOKeepsSendOrder(t *testing.T) {
	rec := stream(t, Link{Latency: Dist{Kind: Uniform, A: 1, B: 50}, FIFO: true}, 2000, 1)
	ns := payloads(rec)
	if len(ns) != 2000 {
		t.Fatalf("%d deliveries, want 2000", len(ns))
	}
	if inv := inversions(ns); inv != 0 {
		t.Fatalf("%d reorderings on a FIFO link", inv)
	}
	distinct := map[int64]bool{}
	for _, d := range delays(rec) {
		distinct[d] = true
	}
	if len(distinct) < 20 {
		t.Fatalf("only %d distinct latencies: the test would not see reordering anyway", len(distinct))
	}
}

func TestUnorderedLinkReorders(t *testing.T) {
	ns := payloads(stream(t, Link{Latency: Dist{Kind: Uniform, A: 1, B: 50}}, 2000, 1))
	if len(ns) != 2000 {
		t.Fatalf("%d deliveries, want 2000", len(ns))
	}
	if inversions(ns) < 100 {
		t.Fatalf("only %d reorderings on an unordered link with latency 1..50", inversions(ns))
	}
}

func TestLoss(t *testing.T) {
	const k = 10000
	rec := stream(t, Link{Latency: Dist{Kind: Constant, A: 1}, Loss: 0.3}, k, 1)
	drops := of(rec, trace.Drop)
	for _, d := range drops {
		if d.Reason != "loss" || d.Node != 1 {
			t.Fatalf("drop %+v: want reason loss at the sender", d)
		}
	}
	if f := float64(len(drops)) / k; f < 0.28 || f > 0.32 {
		t.Fatalf("lost %.3f of the messages, want about 0.3", f)
	}
	if got := len(of(rec, trace.Deliver)) + len(drops); got != k {
		t.Fatalf("%d delivered+dropped, want %d", got, k)
	}
}

func TestDuplication(t *testing.T) {
	const k = 10000
	rec := stream(t, Link{Latency: Dist{Kind: Uniform, A: 1, B: 5}, Dup: 0.5}, k, 1)
	perID := map[uint64]int{}
	for _, d := range of(rec, trace.Deliver) {
		perID[d.MsgID]++
	}
	total := 0
	for id, c := range perID {
		if c > 2 {
			t.Fatalf("message %d delivered %d times", id, c)
		}
		total += c
	}
	if len(perID) != k {
		t.Fatalf("%d distinct messages delivered, want %d", len(perID), k)
	}
	if f := float64(total) / k; f < 1.47 || f > 1.53 {
		t.Fatalf("%.3f deliveries per message, want about 1.5", f)
	}
}

func stats(ds []int64) (lo, hi int64, mean float64) {
	lo, hi = math.MaxInt64, math.MinInt64
	sum := 0.0
	for _, d := range ds {
		lo, hi = min(lo, d), max(hi, d)
		sum += float64(d)
	}
	return lo, hi, sum / float64(len(ds))
}

func TestLatencyDistributions(t *testing.T) {
	const k = 20000
	t.Run("constant", func(t *testing.T) {
		lo, hi, _ := stats(delays(stream(t, Link{Latency: Dist{Kind: Constant, A: 4}}, 100, 1)))
		if lo != 4 || hi != 4 {
			t.Fatalf("latency in [%d, %d], want 4", lo, hi)
		}
	})
	t.Run("uniform", func(t *testing.T) {
		ds := delays(stream(t, Link{Latency: Dist{Kind: Uniform, A: 3, B: 7}}, k, 1))
		seen := map[int64]int{}
		for _, d := range ds {
			seen[d]++
		}
		for v := int64(3); v <= 7; v++ {
			if f := float64(seen[v]) / k; f < 0.18 || f > 0.22 {
				t.Errorf("latency %d drawn %.3f of the time, want about 0.2", v, f)
			}
		}
		if len(seen) != 5 {
			t.Fatalf("latencies %v outside [3, 7]", seen)
		}
	})
	t.Run("exponential", func(t *testing.T) {
		lo, hi, mean := stats(delays(stream(t, Link{Latency: Dist{Kind: Exponential, A: 2, B: 10}}, k, 1)))
		// A + floor(Exp(mean B)): mean A + B - about 0.5.
		if lo != 2 || math.Abs(mean-11.5) > 0.4 || hi < 2+5*10 {
			t.Fatalf("min %d, mean %.2f, max %d; want 2, about 11.5, above 52", lo, mean, hi)
		}
	})
	t.Run("pareto", func(t *testing.T) {
		ds := delays(stream(t, Link{Latency: Dist{Kind: Pareto, A: 5, B: 1.5}}, k, 1))
		lo, hi, mean := stats(ds)
		if lo != 5 || hi > 5000 {
			t.Fatalf("latency in [%d, %d], want from 5, capped at 1000*5", lo, hi)
		}
		// Mean A*B/(B-1) = 15 less the floor; the infinite variance makes the
		// sample mean wander, hence the loose bound.
		if mean < 11 || mean > 19 {
			t.Fatalf("mean %.2f, want about 14.5", mean)
		}
		// The long tail: P(X > 10A) = 10^-1.5, about 3.2%.
		over := 0
		for _, d := range ds {
			if d > 50 {
				over++
			}
		}
		if f := float64(over) / k; f < 0.025 || f > 0.04 {
			t.Fatalf("%.4f of latencies above 10*min, want about 0.032", f)
		}
		if hi < 500 {
			t.Fatalf("max %d: no long tail", hi)
		}
	})
}

// Max bounds every draw, and is reached where the distribution has an end.
func TestDistMax(t *testing.T) {
	for _, c := range []struct {
		d    Dist
		want float64
	}{
		{Dist{Kind: Constant, A: 4}, 4},
		{Dist{Kind: Uniform, A: 3, B: 7}, 7},
		{Dist{Kind: Exponential, A: 2, B: 10}, math.Inf(1)},
		{Dist{Kind: Exponential, A: 2}, 2},
		{Dist{Kind: Pareto, A: 5, B: 1.5}, 5000},
	} {
		if got := c.d.Max(); got != c.want {
			t.Errorf("%s: Max %g, want %g", c.d, got, c.want)
		}
		_, hi, _ := stats(delays(stream(t, Link{Latency: c.d}, 2000, 1)))
		if float64(hi) > c.d.Max() || (c.d.Kind != Exponential && c.d.Kind != Pareto && float64(hi) != c.d.Max()) {
			t.Errorf("%s: a draw of %d, Max %g", c.d, hi, c.d.Max())
		}
	}
}

func TestDistValidate(t *testing.T) {
	bad := []Dist{
		{Kind: Constant, A: -1},
		{Kind: Constant, A: math.NaN()},
		{Kind: Constant, A: math.Inf(1)},
		{Kind: Uniform, A: 5, B: 3},
		{Kind: Exponential, A: 1, B: -2},
		{Kind: Pareto, A: 0.5, B: 2},
		{Kind: Pareto, A: 2, B: 0},
		{Kind: Constant, A: 1e13},
		{Kind: DistKind(9), A: 1},
	}
	for _, d := range bad {
		if d.Validate() == nil {
			t.Errorf("%+v validated", d)
		}
	}
	for _, l := range []Link{{Latency: Dist{A: 1}, Loss: 1.5}, {Latency: Dist{A: 1}, Dup: math.NaN()}, {Latency: Dist{A: 1}, Loss: -0.1}} {
		if l.Validate() == nil {
			t.Errorf("%+v validated", l)
		}
	}
	if err := (Link{Latency: Dist{Kind: Pareto, A: 1, B: 1}, Loss: 1, Dup: 0}).Validate(); err != nil {
		t.Errorf("a valid link: %v", err)
	}
}

// sendAt schedules process from to send a message to to at time at.
func sendAt(t *testing.T, s *Sim, at Time, from, to NodeID, n int) {
	s.At(at, func() { must(t, s.Inject(from, to, msg{n})) })
}

type fate struct {
	n      int
	typ    trace.Type
	t      int64
	node   int
	reason string
}

func fates(rec *trace.Recorder) []fate {
	var out []fate
	for _, e := range rec.Events {
		if e.Type == trace.Deliver || e.Type == trace.Drop {
			out = append(out, fate{e.Msg.(msg).N, e.Type, e.T, e.Node, e.Reason})
		}
	}
	return out
}

func checkFates(t *testing.T, rec *trace.Recorder, want []fate) {
	t.Helper()
	got := fates(rec)
	if len(got) != len(want) {
		t.Fatalf("fates %+v, want %+v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("fate %d: %+v, want %+v (all: %+v)", i, got[i], want[i], got)
		}
	}
}

func TestPartitionAndHeal(t *testing.T) {
	s, rec := world(t, []NodeID{1, 2, 3, 4}, Link{Latency: Dist{Kind: Constant, A: 10}}, idle)
	s.At(0, func() { must(t, s.Partition([][]NodeID{{1, 2}, {3}})) }) // 4 joins nobody: its own group
	sendAt(t, s, 1, 1, 2, 1)                                          // same side
	sendAt(t, s, 1, 1, 3, 2)                                          // across: dropped at once, at the sender
	sendAt(t, s, 1, 3, 4, 3)                                          // 4 is in the implicit group
	s.At(20, func() { s.Heal() })
	sendAt(t, s, 21, 1, 3, 4) // healed
	sendAt(t, s, 40, 1, 4, 5) // in flight when the partition comes back
	s.At(45, func() { must(t, s.Partition([][]NodeID{{1, 2, 3}})) })
	s.Run(Until{})
	checkFates(t, rec, []fate{
		{2, trace.Drop, 1, 1, "partition"},
		{3, trace.Drop, 1, 3, "partition"},
		{1, trace.Deliver, 11, 2, ""},
		{4, trace.Deliver, 31, 3, ""},
		{5, trace.Drop, 50, 4, "partition"},
	})
	if err := s.Partition([][]NodeID{{1}, {1, 2}}); err == nil {
		t.Error("a process in two groups was accepted")
	}
	if err := s.Partition([][]NodeID{{99}}); err == nil {
		t.Error("an unknown process was accepted")
	}
	if st := s.Stats(); st.DropReasons["partition"] != 3 {
		t.Errorf("drop reasons %v", st.DropReasons)
	}
}

func TestCutAndMend(t *testing.T) {
	s, rec := world(t, []NodeID{1, 2, 3}, Link{Latency: Dist{Kind: Constant, A: 1}}, idle)
	s.At(0, func() { must(t, s.Cut(2, 1)) })
	sendAt(t, s, 1, 1, 2, 1) // cut both ways
	sendAt(t, s, 1, 2, 1, 2)
	sendAt(t, s, 1, 1, 3, 3) // other links unaffected
	s.At(5, func() { must(t, s.Mend(1, 2)) })
	sendAt(t, s, 6, 2, 1, 4)
	s.Run(Until{})
	checkFates(t, rec, []fate{
		{1, trace.Drop, 1, 1, "partition"},
		{2, trace.Drop, 1, 2, "partition"},
		{3, trace.Deliver, 2, 3, ""},
		{4, trace.Deliver, 7, 1, ""},
	})
	if err := s.Cut(1, 9); err == nil {
		t.Error("cutting a link to an unknown process succeeded")
	}
}

func TestPerLinkOverride(t *testing.T) {
	s, rec := world(t, []NodeID{1, 2, 3}, Link{Latency: Dist{Kind: Constant, A: 1}}, idle)
	slow := Link{Latency: Dist{Kind: Constant, A: 5}}
	must(t, s.SetLink(1, 2, slow))
	lossy := Link{Latency: Dist{Kind: Constant, A: 1}, Loss: 1}
	must(t, s.SetLink(3, 1, lossy))
	sendAt(t, s, 0, 1, 2, 1) // overridden: 5
	sendAt(t, s, 0, 2, 1, 2) // the reverse direction keeps the default
	sendAt(t, s, 0, 1, 3, 3)
	sendAt(t, s, 0, 3, 1, 4) // always lost
	s.Run(Until{})
	checkFates(t, rec, []fate{
		{4, trace.Drop, 0, 3, "loss"},
		{2, trace.Deliver, 1, 1, ""},
		{3, trace.Deliver, 1, 3, ""},
		{1, trace.Deliver, 5, 2, ""},
	})
	if l, err := s.Link(1, 2); err != nil || l != slow {
		t.Errorf("Link(1,2) = %+v, %v", l, err)
	}
	if l, _ := s.Link(2, 1); l.Latency.A != 1 {
		t.Errorf("Link(2,1) = %+v, want the default", l)
	}
	if err := s.SetLink(1, 2, Link{Loss: 2}); err == nil {
		t.Error("an invalid link was accepted")
	}
	if err := s.SetDefaultLink(Link{Latency: Dist{Kind: Uniform, A: 4, B: 1}}); err == nil {
		t.Error("an invalid default link was accepted")
	}
}

// A FIFO link whose latency drops mid-run must still not let a later
// message overtake one in flight.
func TestFIFOSurvivesLatencyChange(t *testing.T) {
	s, rec := world(t, []NodeID{1, 2}, Link{Latency: Dist{Kind: Constant, A: 10}, FIFO: true}, idle)
	sendAt(t, s, 0, 1, 2, 1)
	s.At(1, func() { must(t, s.SetLink(1, 2, Link{Latency: Dist{Kind: Constant, A: 1}, FIFO: true})) })
	sendAt(t, s, 1, 1, 2, 2)
	sendAt(t, s, 20, 1, 2, 3)
	s.Run(Until{})
	checkFates(t, rec, []fate{
		{1, trace.Deliver, 10, 2, ""},
		{2, trace.Deliver, 10, 2, ""},
		{3, trace.Deliver, 21, 2, ""},
	})
}

// The same change on a non-FIFO link lets the second message overtake.
func TestUnorderedLatencyChangeOvertakes(t *testing.T) {
	s, rec := world(t, []NodeID{1, 2}, Link{Latency: Dist{Kind: Constant, A: 10}}, idle)
	sendAt(t, s, 0, 1, 2, 1)
	s.At(1, func() { must(t, s.SetDefaultLink(Link{Latency: Dist{Kind: Constant, A: 1}})) })
	sendAt(t, s, 1, 1, 2, 2)
	s.Run(Until{})
	checkFates(t, rec, []fate{{2, trace.Deliver, 2, 2, ""}, {1, trace.Deliver, 10, 2, ""}})
}

func TestSendToUnknownProcess(t *testing.T) {
	s, rec := world(t, []NodeID{1, 2}, DefaultLink, idle)
	sendAt(t, s, 0, 1, 99, 1)
	s.Run(Until{})
	checkFates(t, rec, []fate{{1, trace.Drop, 0, 1, "no-such-process"}})
	if s.Inject(1, 2, nil) == nil {
		t.Error("a nil message was injected")
	}
	if s.Inject(42, 2, msg{}) == nil {
		t.Error("a message from an unknown process was injected")
	}
}

// detLog and detExp must agree with the standard functions to rounding
// (amd64's assembly math.Exp is itself a few ulps off at times).
func TestPortableLogExp(t *testing.T) {
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-14*math.Abs(b) }
	r := rand.New(rand.NewPCG(9, 9))
	for range 100000 {
		x := unitOpen(r)
		if !close(detmath.Log(x), math.Log(x)) {
			t.Fatalf("detmath.Log(%v) = %v, math.Log %v", x, detmath.Log(x), math.Log(x))
		}
		y := (r.Float64() - 0.5) * 1400
		if !close(detmath.Exp(y), math.Exp(y)) {
			t.Fatalf("detmath.Exp(%v) = %v, math.Exp %v", y, detmath.Exp(y), math.Exp(y))
		}
	}
	for _, c := range []struct{ got, want float64 }{
		{detmath.Log(1), 0}, {detmath.Log(0), math.Inf(-1)}, {detmath.Exp(0), 1}, {detmath.Exp(-800), 0}, {detmath.Exp(800), math.Inf(1)},
	} {
		if c.got != c.want {
			t.Errorf("got %v, want %v", c.got, c.want)
		}
	}
	if !math.IsNaN(detmath.Log(-1)) {
		t.Error("detmath.Log(-1) is not NaN")
	}
}
