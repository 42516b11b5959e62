package compose

import (
	"strings"
	"testing"

	"dsim/core/sim"
	"dsim/core/topo"
	"dsim/core/trace"
)

type ping struct{}

func (ping) Kind() string { return "PING" }

// otherPing is another layer's message of the same kind.
type otherPing struct{}

func (otherPing) Kind() string { return "PING" }

type pong struct{}

func (pong) Kind() string { return "PONG" }

// upper sends PING on its "go" command and watches the lower layer's
// "count"; lower answers PING with PONG, counts them on a timer and
// answers its own command "bump".
type upper struct {
	layers Layers
	seen   []string
	pongs  int
	starts *[]string
}

func (u *upper) Start(ctx sim.Context) { *u.starts = append(*u.starts, "upper") }
func (u *upper) Receive(ctx sim.Context, from sim.NodeID, m sim.Message) {
	u.pongs++
}
func (u *upper) Timer(ctx sim.Context, tag string) { ctx.Log("upper timer %s", tag) }
func (u *upper) Command(ctx sim.Context, name string, args sim.Args) error {
	ctx.Send(ctx.Peers()[0], ping{})
	ctx.SetTimer(1, "t")
	return u.layers.Call("low", "bump", nil)
}
func (u *upper) UseLayers(ls Layers) { u.layers = ls }
func (u *upper) Observe(ctx sim.Context, layer, key string, v any) {
	u.seen = append(u.seen, layer+"."+key)
}

type lower struct{ starts *[]string }

func (l *lower) Start(ctx sim.Context) { *l.starts = append(*l.starts, "lower") }
func (l *lower) Receive(ctx sim.Context, from sim.NodeID, m sim.Message) {
	ctx.Send(from, pong{})
}
func (l *lower) Timer(ctx sim.Context, tag string) { ctx.Set("count", 1) }
func (l *lower) Command(ctx sim.Context, name string, args sim.Args) error {
	ctx.SetTimer(2, "t")
	return nil
}

func TestStackRoutesMessagesTimersCommandsAndState(t *testing.T) {
	var starts []string
	ups := map[sim.NodeID]*upper{}
	f, err := Factory(
		Part{New: func(id sim.NodeID) sim.Node {
			u := &upper{starts: &starts}
			ups[id] = u
			return u
		}, Messages: []sim.Message{pong{}}, Commands: []string{"go"}},
		Part{Name: "low", New: func(sim.NodeID) sim.Node { return &lower{starts: &starts} },
			Messages: []sim.Message{ping{}}, Commands: []string{"bump"}},
	)
	if err != nil {
		t.Fatal(err)
	}
	g, err := topo.Build(topo.Spec{Kind: "complete", IDs: []sim.NodeID{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sim.Config{Topology: g.Topology, Factory: f, Link: sim.DefaultLink, MaxEvents: 1000})
	if err != nil {
		t.Fatal(err)
	}
	rec := &trace.Recorder{}
	s.Observe(rec.Record)
	s.Run(sim.Until{})
	if got := strings.Join(starts, ","); got != "lower,upper,lower,upper" {
		t.Errorf("start order %s, want the lower layer first at each process", got)
	}
	if err := s.Command(1, "go", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Command(1, "nope", nil); err == nil || !strings.Contains(err.Error(), "go, bump") {
		t.Errorf("unknown command error %v should list go, bump", err)
	}
	s.Run(sim.Until{})
	var timers []string
	for _, e := range rec.Events {
		if e.Type == trace.Timer {
			timers = append(timers, e.Tag)
		}
	}
	if got := strings.Join(timers, ","); got != "t,low/t" {
		t.Errorf("timer tags %s, want the main layer's unprefixed and the lower one's as low/t", got)
	}
	if ups[1].pongs != 1 {
		t.Errorf("the PONG answering the PING reached the upper layer %d times, want 1", ups[1].pongs)
	}
	if got := strings.Join(ups[1].seen, ","); got != "low.count" {
		t.Errorf("upper observed %q, want low.count", got)
	}
}

func TestFactoryRejectsAmbiguousRoutes(t *testing.T) {
	mk := func(sim.NodeID) sim.Node { return &lower{} }
	if _, err := Factory(Part{New: mk, Messages: []sim.Message{ping{}}}, Part{Name: "b", New: mk, Messages: []sim.Message{ping{}}}); err == nil {
		t.Error("two layers receiving PING were accepted")
	}
	if _, err := Factory(Part{New: mk, Messages: []sim.Message{ping{}}}, Part{Name: "b", New: mk, Messages: []sim.Message{otherPing{}}}); err == nil || !strings.Contains(err.Error(), "kind PING") {
		t.Errorf("two layers sending PING were accepted (err %v)", err)
	}
	if _, err := Factory(Part{New: mk, Commands: []string{"x"}}, Part{Name: "b", New: mk, Commands: []string{"x"}}); err == nil {
		t.Error("two layers answering x were accepted")
	}
	if _, err := Factory(Part{New: mk}, Part{New: mk}); err == nil {
		t.Error("an unnamed lower layer was accepted")
	}
}

func TestRecoveredSeesThroughLayers(t *testing.T) {
	var got []bool
	f, err := Factory(Part{Name: "main", New: func(sim.NodeID) sim.Node {
		return &probe{got: &got}
	}})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := topo.Build(topo.Spec{Kind: "complete", N: 2})
	s, err := sim.New(sim.Config{Topology: g.Topology, Factory: f, Link: sim.DefaultLink})
	if err != nil {
		t.Fatal(err)
	}
	s.Run(sim.Until{})
	if err := s.Crash(1); err != nil {
		t.Fatal(err)
	}
	if err := s.Recover(1); err != nil {
		t.Fatal(err)
	}
	s.Run(sim.Until{})
	if len(got) != 3 || got[0] || got[1] || !got[2] {
		t.Errorf("Recovered at the three starts: %v, want false, false, true", got)
	}
}

type probe struct{ got *[]bool }

func (p *probe) Start(ctx sim.Context)                        { *p.got = append(*p.got, ctx.Recovered()) }
func (p *probe) Receive(sim.Context, sim.NodeID, sim.Message) {}
func (p *probe) Timer(sim.Context, string)                    {}
func (p *probe) Command(sim.Context, string, sim.Args) error  { return nil }
