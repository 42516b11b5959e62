package algo_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/sim"
	"dsim/core/topo"
	"dsim/core/trace"
)

// A hostile or careless scenario must never make an algorithm panic: not
// with hand-made messages of any of its kinds carrying any field values,
// nor on links that duplicate and reorder messages, with crashes,
// recoveries and commands at random. These tests build such worlds for
// every registered algorithm (an algorithm added later is covered without
// a change here) and fail with the algorithm, the world and the call that
// panicked. They check nothing else: what an algorithm promises holds
// under its own assumptions, which the seed sweeps of each family test.
//
// TestHostileWorlds runs a number of seeds per algorithm; FuzzHostile lets
// go test -fuzz explore further, each input describing one world:
//
//	go test ./core/algo -run TestHostileWorlds -hostile.seeds=20000
//	go test ./core/algo -run '^$' -fuzz FuzzHostile -fuzztime 5m -hostile.only=mutex.

var (
	hostileSeeds = flag.Int("hostile.seeds", 150, "worlds per algorithm in TestHostileWorlds")
	hostileOnly  = flag.String("hostile.only", "", "only the algorithms whose name starts with this (e.g. election.)")
)

// hostileSpecs lists the registered algorithms -hostile.only selects.
func hostileSpecs() []*algo.Spec {
	var out []*algo.Spec
	for _, spec := range algo.All() {
		if strings.HasPrefix(spec.Name, *hostileOnly) {
			out = append(out, spec)
		}
	}
	return out
}

func TestHostileWorlds(t *testing.T) {
	for _, spec := range hostileSpecs() {
		t.Run(spec.Name, func(t *testing.T) {
			var total hostileStats
			for seed := uint64(1); seed <= uint64(*hostileSeeds); seed++ {
				r := rand.New(rand.NewPCG(seed, 0x686f7374696c65))
				st := play(t, spec, r, fmt.Sprintf("seed %d", seed))
				total.add(st)
			}
			// The worlds did what they are for: every kind was delivered
			// hand-made, and links duplicated messages.
			for _, m := range spec.Messages {
				if total.injected[m.Kind()] == 0 {
					t.Errorf("no hand-made %s was delivered in %d worlds", m.Kind(), *hostileSeeds)
				}
			}
			if total.dups == 0 {
				t.Errorf("no message was duplicated in %d worlds", *hostileSeeds)
			}
		})
	}
}

// FuzzHostile builds one world from its input: the first bytes pick the
// algorithm, the rest its processes, links, configuration, messages and
// schedule. The seed corpus has, for every algorithm, inputs that inject
// each of its kinds.
func FuzzHostile(f *testing.F) {
	specs := algo.All()
	for a, spec := range specs {
		for k := range spec.Messages {
			for v := range 3 {
				f.Add([]byte{byte(a), byte(k), byte(v), 0x5a ^ byte(v*k), 0xc3, byte(3*k + v), 0x7e, 0x11 * byte(v), 0xa5, byte(a * k)})
			}
		}
	}
	specs = hostileSpecs()
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &byteChooser{b: data}
		spec := specs[c.IntN(len(specs))]
		play(t, spec, c, fmt.Sprintf("input %x", data))
	})
}

// chooser draws the world's choices: a seeded random stream, or the bytes
// of a fuzz input.
type chooser interface {
	IntN(n int) int
}

// byteChooser reads choices from bytes, two at a time, then zeros.
type byteChooser struct{ b []byte }

func (c *byteChooser) IntN(n int) int {
	if n <= 1 {
		return 0
	}
	v := 0
	for range 2 {
		v <<= 8
		if len(c.b) > 0 {
			v |= int(c.b[0])
			c.b = c.b[1:]
		}
	}
	return v % n
}

// hostileStats counts what a world did.
type hostileStats struct {
	injected map[string]int // hand-made messages delivered, by kind
	dups     int            // messages delivered more often than sent
}

func (h *hostileStats) add(o hostileStats) {
	if h.injected == nil {
		h.injected = map[string]int{}
	}
	for k, n := range o.injected {
		h.injected[k] += n
	}
	h.dups += o.dups
}

// The bounds of one world: processes, ticks of scheduled actions, ticks of
// the run, events.
const (
	maxProcs  = 7
	actWithin = 150
	runUntil  = 300
	maxEvents = 20_000
)

// play builds a world of spec from c's choices, runs it and fails the test
// if the algorithm panics.
func play(t *testing.T, spec *algo.Spec, c chooser, label string) hostileStats {
	t.Helper()
	w := newWorld(t, spec, c, label)
	if w == nil {
		return hostileStats{}
	}
	w.schedule(c)
	if r, stack := w.run(); r != nil {
		t.Fatalf("%s, %s: panicked in %s: %v\n%s\n%s", spec.Name, w.label, w.probe, r, w.describe(), stack)
	}
	return w.stats()
}

// world is one hostile run.
type world struct {
	spec  *algo.Spec
	s     *sim.Sim
	ids   []sim.NodeID
	label string
	probe *probe
	// handmade holds the ids of the hand-made messages (those sent while
	// injecting is set), delivered counts their deliveries by kind.
	injecting bool
	handmade  map[uint64]bool
	delivered map[string]int
	actions   []action
}

// action is a scheduled action, for the report.
type action struct {
	t    sim.Time
	what string
}

func newWorld(t *testing.T, spec *algo.Spec, c chooser, label string) *world {
	t.Helper()
	n := 1 + c.IntN(maxProcs)
	ids := pickIDs(c, n)
	given := pickConfig(c, spec)
	factory, cfgText, err := build(spec, given)
	if err != nil {
		// The drawn configuration was refused: the defaults never are.
		if factory, cfgText, err = build(spec, nil); err != nil {
			t.Fatalf("%s: the default configuration is refused: %v", spec.Name, err)
		}
	}
	g, err := topo.Build(topo.Spec{Kind: spec.Topology, IDs: ids})
	if err != nil {
		t.Fatalf("%s, %s: topology %s of %v: %v", spec.Name, label, spec.Topology, ids, err)
	}
	link := sim.Link{
		Latency: sim.Dist{Kind: sim.Uniform, A: 1, B: float64(1 + c.IntN(8))},
		Dup:     []float64{0.1, 0.3, 0.6}[c.IntN(3)],
		Loss:    []float64{0, 0, 0.05}[c.IntN(3)],
		FIFO:    c.IntN(4) == 0,
	}
	p := &probe{}
	s, err := sim.New(sim.Config{
		Seed:        uint64(c.IntN(1 << 16)),
		Topology:    g.Topology,
		Factory:     p.wrap(factory),
		Link:        link,
		DetectDelay: sim.Duration(c.IntN(12)),
		MaxEvents:   maxEvents,
	})
	if err != nil {
		t.Fatalf("%s, %s: %v", spec.Name, label, err)
	}
	label = fmt.Sprintf("%s: ids=%v config={%s} latency=%s dup=%g loss=%g fifo=%v", label, ids, cfgText, link.Latency, link.Dup, link.Loss, link.FIFO)
	w := &world{spec: spec, s: s, ids: ids, label: label, probe: p, handmade: map[uint64]bool{}, delivered: map[string]int{}}
	s.Observe(w.observe)
	return w
}

func (w *world) observe(e *trace.Event) {
	switch e.Type {
	case trace.Send:
		if w.injecting {
			w.handmade[e.MsgID] = true
		}
	case trace.Deliver:
		if w.handmade[e.MsgID] {
			w.delivered[e.Kind]++
		}
	}
}

// pickIDs draws n distinct ids in ring order: usually 1..n, else with gaps
// between them, now and then from 0 or a negative id, and shuffled.
func pickIDs(c chooser, n int) []sim.NodeID {
	ids := make([]sim.NodeID, n)
	switch c.IntN(4) {
	case 0, 1:
		for i := range ids {
			ids[i] = sim.NodeID(i + 1)
		}
		return ids
	case 2:
		ids[0] = sim.NodeID(c.IntN(3))
	default:
		ids[0] = sim.NodeID(-1 - c.IntN(6))
	}
	for i := 1; i < n; i++ {
		ids[i] = ids[i-1] + 1 + sim.NodeID(c.IntN(5))
	}
	for i := n - 1; i > 0; i-- {
		j := c.IntN(i + 1)
		ids[i], ids[j] = ids[j], ids[i]
	}
	return ids
}

// pickConfig draws a value for some of spec's integer and boolean keys,
// within their bounds (ids and small counts, for the integers).
func pickConfig(c chooser, spec *algo.Spec) map[string]any {
	given := map[string]any{}
	for _, p := range spec.Config {
		if c.IntN(3) != 0 {
			continue
		}
		switch p.Type {
		case algo.Bool:
			given[p.Name] = c.IntN(2) == 1
		case algo.Int:
			lo, hi := int(p.Min), int(p.Max)
			if p.Min == p.Max {
				lo, hi = -1, 40
			}
			given[p.Name] = lo + c.IntN(min(hi-lo, 40)+1)
		}
	}
	return given
}

func build(spec *algo.Spec, given map[string]any) (sim.Factory, string, error) {
	vals, err := spec.Resolve(given)
	if err != nil {
		return nil, "", err
	}
	f, err := spec.New(vals)
	if err != nil {
		return nil, "", err
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%v", k, given[k]))
	}
	return f, strings.Join(parts, " "), nil
}

// schedule draws the world's actions: commands the algorithm accepts,
// crashes and recoveries and, in two worlds out of three, hand-made
// messages of every kind (the others test the algorithm's own messages
// duplicated and reordered).
func (w *world) schedule(c chooser) {
	at := func() sim.Time { return sim.Time(c.IntN(actWithin)) }
	for range 1 + c.IntN(8) {
		w.command(c, at())
	}
	if c.IntN(3) > 0 {
		for _, proto := range w.spec.Messages {
			for range 1 + c.IntN(3) {
				w.inject(c, at(), proto)
			}
		}
	}
	for range c.IntN(3) {
		id := w.ids[c.IntN(len(w.ids))]
		t := at()
		w.do(t, fmt.Sprintf("crash %d", id), func() error { return w.s.Crash(id) })
		if c.IntN(2) == 0 {
			back := t + 1 + sim.Time(c.IntN(actWithin))
			w.do(back, fmt.Sprintf("recover %d", id), func() error { return w.s.Recover(id) })
		}
	}
}

// do schedules an action; the kernel may refuse it (a command to a crashed
// process, a release outside the critical section): that is no failure.
func (w *world) do(t sim.Time, what string, f func() error) {
	w.actions = append(w.actions, action{t, what})
	w.s.At(t, func() { _ = f() })
}

// command gives a random process one of the algorithm's commands, with
// arguments its CommandSpec names.
func (w *world) command(c chooser, t sim.Time) {
	if len(w.spec.Commands) == 0 {
		return
	}
	cmd := w.spec.Commands[c.IntN(len(w.spec.Commands))]
	id := w.ids[c.IntN(len(w.ids))]
	args := sim.Args{}
	for _, a := range strings.Fields(cmd.Args) {
		key, _, _ := strings.Cut(a, "=")
		if c.IntN(4) == 0 {
			continue
		}
		if strings.Contains(a, "id") {
			args[key] = int(w.anyID(c))
		} else {
			args[key] = []int{1, 2, 3, 5, 8, 0, -1}[c.IntN(7)]
		}
	}
	w.do(t, fmt.Sprintf("command %d %s %s", id, cmd.Name, args), func() error { return w.s.Command(id, cmd.Name, args) })
}

// inject sends a hand-made message of proto's kind, its fields drawn: the
// zero value, or any values at all.
func (w *world) inject(c chooser, t sim.Time, proto sim.Message) {
	typ := reflect.TypeOf(proto)
	var m sim.Message
	if c.IntN(5) == 0 {
		m = reflect.Zero(typ).Interface().(sim.Message)
		if typ.Kind() == reflect.Pointer {
			m = reflect.New(typ.Elem()).Interface().(sim.Message)
		}
	} else {
		m = w.value(c, typ, 0).Interface().(sim.Message)
	}
	from := w.ids[c.IntN(len(w.ids))]
	to := w.ids[c.IntN(len(w.ids))]
	if c.IntN(8) == 0 {
		to = w.anyID(c)
	}
	w.do(t, fmt.Sprintf("inject %d->%d %s%+v", from, to, m.Kind(), m), func() error {
		w.injecting = true
		defer func() { w.injecting = false }()
		return w.s.Inject(from, to, m)
	})
}

// anyID is a process id, or an id no process has.
func (w *world) anyID(c chooser) sim.NodeID {
	if c.IntN(3) > 0 {
		return w.ids[c.IntN(len(w.ids))]
	}
	return []sim.NodeID{0, -1, slices.Max(w.ids) + 1, slices.Min(w.ids) - 1, 1 << 30, sim.MaxID, sim.MinID}[c.IntN(7)]
}

// value draws a value of type t: ids inside and outside the process set,
// negative and huge numbers, nil, empty and random lists and maps.
func (w *world) value(c chooser, t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	if depth > 4 {
		return v
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var n int64
		if t == reflect.TypeOf(sim.NodeID(0)) {
			n = int64(w.anyID(c))
		} else {
			n = []int64{0, 1, 2, 3, 5, 10, 100, -1, -2, -100, 1 << 31, 1 << 53, -(1 << 53), math.MaxInt64, math.MinInt64}[c.IntN(15)]
		}
		if v.OverflowInt(n) {
			n = 0
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n := []uint64{0, 1, 2, 100, 1 << 53, math.MaxUint64}[c.IntN(6)]
		if v.OverflowUint(n) {
			n = 0
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{0, 1, -1, 0.5, 1e300, math.Inf(1), math.NaN()}[c.IntN(7)])
	case reflect.Bool:
		v.SetBool(c.IntN(2) == 1)
	case reflect.String:
		v.SetString([]string{"", "x", "TOKEN", strings.Repeat("z", 300)}[c.IntN(4)])
	case reflect.Slice:
		if c.IntN(4) == 0 {
			return v
		}
		n := c.IntN(6)
		v.Set(reflect.MakeSlice(t, n, n))
		for i := range n {
			v.Index(i).Set(w.value(c, t.Elem(), depth+1))
		}
	case reflect.Array:
		for i := range v.Len() {
			v.Index(i).Set(w.value(c, t.Elem(), depth+1))
		}
	case reflect.Map:
		if c.IntN(4) == 0 {
			return v
		}
		v.Set(reflect.MakeMap(t))
		for range c.IntN(6) {
			v.SetMapIndex(w.value(c, t.Key(), depth+1), w.value(c, t.Elem(), depth+1))
		}
	case reflect.Pointer:
		if c.IntN(3) == 0 {
			return v
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(w.value(c, t.Elem(), depth+1))
		v.Set(p)
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				v.Field(i).Set(w.value(c, t.Field(i).Type, depth+1))
			}
		}
	}
	return v
}

// run runs the world and returns what it panicked with, if it did.
func (w *world) run() (r any, stack []byte) {
	defer func() {
		if r = recover(); r != nil {
			stack = debug.Stack()
		}
	}()
	w.s.Run(sim.Until{Time: runUntil})
	return nil, nil
}

// describe lists the scheduled actions in time order.
func (w *world) describe() string {
	slices.SortStableFunc(w.actions, func(a, b action) int { return int(a.t - b.t) })
	var b strings.Builder
	b.WriteString("actions:")
	for _, a := range w.actions {
		fmt.Fprintf(&b, "\n\tt=%d %s", a.t, a.what)
	}
	return b.String()
}

// stats reads the kernel's counters: how many hand-made messages were
// delivered, and how many deliveries duplicates added.
func (w *world) stats() hostileStats {
	st := w.s.Stats()
	out := hostileStats{injected: w.delivered}
	for _, k := range st.Kinds {
		if k.Delivered+k.Dropped > k.Sent {
			out.dups += int(k.Delivered + k.Dropped - k.Sent)
		}
	}
	return out
}

// probe remembers the call a process is in, to name it when it panics,
// and which hand-made messages reached a process.
type probe struct {
	call string
	node sim.NodeID
	from sim.NodeID
	msg  sim.Message
	tag  string
}

func (p *probe) String() string {
	switch p.call {
	case "receive":
		return fmt.Sprintf("process %d receiving from %d %s%+v", p.node, p.from, p.msg.Kind(), p.msg)
	case "timer", "command":
		return fmt.Sprintf("process %d handling %s %q", p.node, p.call, p.tag)
	}
	return fmt.Sprintf("process %d in %s", p.node, p.call)
}

// wrap makes the factory's processes report their calls to p.
func (p *probe) wrap(f sim.Factory) sim.Factory {
	return func(id sim.NodeID) sim.Node {
		n := f(id)
		w := &watched{Node: n, p: p}
		if _, ok := n.(sim.SuspectHandler); ok {
			return &watchedSuspect{w}
		}
		return w
	}
}

type watched struct {
	sim.Node
	p *probe
}

func (w *watched) Start(ctx sim.Context) {
	w.p.call, w.p.node = "start", ctx.Self()
	w.Node.Start(ctx)
}

func (w *watched) Receive(ctx sim.Context, from sim.NodeID, m sim.Message) {
	w.p.call, w.p.node, w.p.from, w.p.msg = "receive", ctx.Self(), from, m
	w.Node.Receive(ctx, from, m)
}

func (w *watched) Timer(ctx sim.Context, tag string) {
	w.p.call, w.p.node, w.p.tag = "timer", ctx.Self(), tag
	w.Node.Timer(ctx, tag)
}

func (w *watched) Command(ctx sim.Context, name string, args sim.Args) error {
	w.p.call, w.p.node, w.p.tag = "command", ctx.Self(), name+" "+args.String()
	return w.Node.Command(ctx, name, args)
}

type watchedSuspect struct{ *watched }

func (w *watchedSuspect) Suspect(ctx sim.Context, id sim.NodeID) {
	w.p.call, w.p.node, w.p.tag = "suspect", ctx.Self(), fmt.Sprint(id)
	w.Node.(sim.SuspectHandler).Suspect(ctx, id)
}
