package script

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/algo"
	"dsim/core/check"
	"dsim/core/sim"
	"dsim/core/topo"
	"dsim/core/trace"
)

// world is one simulated system of a scenario.
type world struct {
	r      *runner
	index  int // 1-based
	spec   *algo.Spec
	config algo.Values // the algorithm's resolved configuration
	s      *sim.Sim
	link   sim.Link         // the network's default link, as w:network last set it
	rec    *trace.Recording // nil: no trace
	header trace.Header
	ud     *lua.LUserData

	hooks  []hook
	hooked typeSet // types with a hook; bit 0: a "*" hook
	whens  []when
	// scripted is set once the world has a Lua callback: from then on a
	// callback may add a `when` during a run, so runs check after each event.
	scripted  bool
	observing bool

	// mon judges the properties of core/check and measures costs; nil
	// when the algorithm declares none and `checks` asks for none.
	mon *check.Monitor
	// props are the properties recorded as checks at the end of the script.
	props     []string
	line      int // script line of the sim.world call
	workloads int // w:workload calls so far: each draws from its own stream

	seqOut   *uint64 // receives the seq of the next event observed
	cmdLine  int     // script line of the w:command in progress
	recorded int     // events recorded since the last memory check
	warned   uint16  // the breaches of the assumptions warned of, by bit
	// texts is the bytes of text (log lines, check messages, command
	// arguments, partitions) recorded since the last memory check.
	texts int
	// pending is the world's pending events when the memory guard last
	// looked, or fewer since (see paceMemory).
	pending int
}

type hook struct {
	typ trace.Type // 0: every type
	fn  *lua.LFunction
}

type when struct{ pred, fn *lua.LFunction }

// worldConf is what sim.world{...} asks for.
type worldConf struct {
	algorithm string
	topo      topo.Spec
	link      sim.Link
	detector  sim.Time
	seed      uint64
	seedSet   bool
	config    map[string]any
	maxEvents uint64
	maxTime   sim.Time
	memory    uint64 // bytes; 0: unchanged
	trace     bool
	checks    []string
	checksSet bool
}

// worldKey is one key of sim.world{...}. The same table parses the keys and
// documents them in the reference.
type worldKey struct {
	name, def, doc string
	set            func(c *worldConf, v lua.LValue) error
}

var worldKeys = []worldKey{
	{"algorithm", "(required)", "registry name of the algorithm, e.g. `\"election.bully\"` (see `sim.algorithms()`)", func(c *worldConf, v lua.LValue) (err error) {
		c.algorithm, err = toString(v)
		return err
	}},
	{"n", "(from `ids`)", "number of processes: at most 2000000, and no more than the memory budget holds (a larger world is refused before it is built; `dsim list` shows each algorithm's largest n)", func(c *worldConf, v lua.LValue) error {
		n, err := toNonNegative(v)
		if err == nil && n > topo.MaxN {
			return fmt.Errorf("n=%d is more than the %d processes dsim simulates", n, topo.MaxN)
		}
		c.topo.N = int(n)
		return err
	}},
	{"ids", "1..n", "process ids in ring order (they are also the priorities), or `\"shuffled\"` for 1..n in a seeded random order", func(c *worldConf, v lua.LValue) (err error) {
		if s, ok := v.(lua.LString); ok {
			if s != "shuffled" {
				return fmt.Errorf("want a list of ids or \"shuffled\", got %s", describe(v))
			}
			c.topo.Shuffle = true
			return nil
		}
		if c.topo.IDs, err = toIDs(v); err == nil && len(c.topo.IDs) == 0 {
			err = fmt.Errorf("want at least one id")
		}
		return err
	}},
	{"first", "1", "the first id when `ids` is not given: ids are first..first+n-1", func(c *worldConf, v lua.LValue) error {
		n, err := toInt(v)
		c.topo.First = int(n)
		return err
	}},
	{"topology", "the algorithm's", "one of the topologies below", func(c *worldConf, v lua.LValue) (err error) {
		c.topo.Kind, err = toString(v)
		return err
	}},
	{"arity", "2", "children per node of a `tree`", func(c *worldConf, v lua.LValue) error {
		n, err := toInt(v)
		c.topo.Arity = int(n)
		return err
	}},
	{"cols", "ceil(sqrt(n))", "columns of a `grid`", func(c *worldConf, v lua.LValue) error {
		n, err := toInt(v)
		c.topo.Cols = int(n)
		return err
	}},
	{"p", "0", "probability of each extra edge of a `random` graph", func(c *worldConf, v lua.LValue) (err error) {
		c.topo.P, err = toNumber(v)
		return err
	}},
	{"edges", "", "undirected edges of an `edges` topology: `{{1,2},{2,3}}`", func(c *worldConf, v lua.LValue) error {
		list, err := toList(v)
		if err != nil {
			return err
		}
		c.topo.Edges = make([][2]sim.NodeID, len(list))
		for i, e := range list {
			ids, err := toIDs(e)
			if err != nil || len(ids) != 2 {
				return fmt.Errorf("edge %d: want a pair of ids like {1, 2}", i+1)
			}
			c.topo.Edges[i] = [2]sim.NodeID{ids[0], ids[1]}
		}
		return nil
	}},
	{"latency", "1", "message latency in ticks: a number (constant) or a distribution below", func(c *worldConf, v lua.LValue) (err error) {
		c.link.Latency, err = toDist(v)
		return err
	}},
	{"loss", "0", "probability that a message is lost", func(c *worldConf, v lua.LValue) (err error) {
		c.link.Loss, err = toNumber(v)
		return err
	}},
	{"dup", "0", "probability that a message is delivered twice", func(c *worldConf, v lua.LValue) (err error) {
		c.link.Dup, err = toNumber(v)
		return err
	}},
	{"fifo", "true", "messages on a link arrive in the order they were sent", func(c *worldConf, v lua.LValue) (err error) {
		c.link.FIFO, err = toBool(v)
		return err
	}},
	{"detector", "5", "ticks the failure detector takes to suspect a crashed process (and to trust it again)", func(c *worldConf, v lua.LValue) error {
		n, err := toNonNegative(v)
		c.detector = sim.Time(n)
		return err
	}},
	{"seed", "`sim.seed`", "this world's seed (ignored when the run's seed is forced, e.g. `dsim run --seed`)", func(c *worldConf, v lua.LValue) error {
		n, err := toNonNegative(v)
		c.seed, c.seedSet = uint64(n), true
		return err
	}},
	{"config", "{}", "algorithm parameters by name (see each algorithm below)", func(c *worldConf, v lua.LValue) error {
		keys, t, err := fields(v)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if c.config[k], err = plainValue(t.RawGetString(k)); err != nil {
				return fmt.Errorf("%s: %v", trace.Quote(k), err)
			}
		}
		return nil
	}},
	{"max_events", "10000000", "the run stops after this many events (0: the host's ceiling: 2×10^7 in the CLI, 5×10^6 in the page); a note says so", func(c *worldConf, v lua.LValue) error {
		n, err := toNonNegative(v)
		c.maxEvents = uint64(n)
		return err
	}},
	{"max_time", "0 (none)", "the run stops at this virtual time; a note says so", func(c *worldConf, v lua.LValue) error {
		n, err := toNonNegative(v)
		c.maxTime = sim.Time(n)
		return err
	}},
	{"checks", "the algorithm's properties", "the properties recorded as checks at the end of the script (see *Checks and costs*): a list of names such as `{\"mutex.safety\"}`, `{}` for none", func(c *worldConf, v lua.LValue) error {
		list, err := toList(v)
		if err != nil {
			return err
		}
		c.checks, c.checksSet = make([]string, len(list)), true
		for i, e := range list {
			if c.checks[i], err = toString(e); err != nil {
				return fmt.Errorf("item %d: %v", i+1, err)
			}
		}
		return nil
	}},
	{"memory", "the host's (384 MiB in the CLI, 256 in the page)", "the run's memory budget in MiB from this world on, up to the host's ceiling (16 GiB in the CLI, 1 GiB in the page); see *Limits*", func(c *worldConf, v lua.LValue) error {
		n, err := toNonNegative(v)
		if err == nil && n == 0 {
			err = fmt.Errorf("want at least 1 MiB")
		}
		c.memory = uint64(n) << 20
		return err
	}},
	{"trace", "true", "record the trace (`false` saves memory in sweeps; `w:count` and `w:events` then fail)", func(c *worldConf, v lua.LValue) (err error) {
		c.trace, err = toBool(v)
		return err
	}},
}

func worldKeyNames() string {
	names := make([]string, len(worldKeys))
	for i, k := range worldKeys {
		names[i] = k.name
	}
	return strings.Join(names, ", ")
}

// distDocs documents the latency distributions by the kernel's kinds.
var distDocs = map[sim.DistKind]string{
	sim.Constant:    "`{\"constant\", a}`: always a ticks",
	sim.Uniform:     "`{\"uniform\", a, b}`: an integer in [a, b]",
	sim.Exponential: "`{\"exp\", min, mean}`: min plus an exponential draw of the given mean",
	sim.Pareto:      "`{\"pareto\", min, shape}`: a long tail, min * U^(-1/shape), capped at 1000*min",
}

func distNames() string {
	names := make([]string, 0, len(sim.DistKinds))
	for n := range sim.DistKinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// toDist reads a latency: a number, or {"name", a[, b]}.
func toDist(v lua.LValue) (sim.Dist, error) {
	if _, ok := v.(lua.LNumber); ok {
		a, err := toNumber(v)
		return sim.Dist{Kind: sim.Constant, A: a}, err
	}
	list, err := toList(v)
	if err != nil || len(list) == 0 {
		return sim.Dist{}, fmt.Errorf("want a number or a distribution like {\"uniform\", 1, 5}, got %s", describe(v))
	}
	name, err := toString(list[0])
	if err != nil {
		return sim.Dist{}, fmt.Errorf("distribution name: %v", err)
	}
	kind, ok := sim.DistKinds[name]
	if !ok {
		return sim.Dist{}, fmt.Errorf("unknown distribution %s (known: %s)", trace.Quote(name), distNames())
	}
	want := 3
	if kind == sim.Constant {
		want = 2
	}
	if len(list) != want {
		return sim.Dist{}, fmt.Errorf("distribution %s takes %d numbers, got %d", trace.Quote(name), want-1, len(list)-1)
	}
	d := sim.Dist{Kind: kind}
	if d.A, err = toNumber(list[1]); err == nil && want == 3 {
		d.B, err = toNumber(list[2])
	}
	return d, err
}

// newWorld builds a world from the sim.world{...} table.
func (r *runner) newWorld(v lua.LValue) (*world, error) {
	c := worldConf{
		topo:      topo.Spec{First: 1},
		link:      sim.DefaultLink,
		detector:  5,
		config:    map[string]any{},
		maxEvents: 10_000_000,
		trace:     true,
	}
	keys, t, err := fields(v)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		key := findKey(k)
		if key == nil {
			return nil, fmt.Errorf("unknown key %s (known: %s)", trace.Quote(k), worldKeyNames())
		}
		if err := key.set(&c, t.RawGetString(k)); err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
	}
	if c.algorithm == "" {
		return nil, fmt.Errorf("the key algorithm is required (known algorithms: %s)", strings.Join(algo.Names(), ", "))
	}
	spec, err := algo.Lookup(c.algorithm)
	if err != nil {
		return nil, err
	}
	values, err := spec.Resolve(c.config)
	if err != nil {
		return nil, err
	}
	if c.topo.Kind == "" {
		c.topo.Kind = spec.Topology
	}
	if ceiling := r.maxEvents(); c.maxEvents == 0 || c.maxEvents > ceiling {
		c.maxEvents = ceiling
	}
	if c.memory > 0 {
		if err := r.setMemoryBudget(c.memory); err != nil {
			return nil, fmt.Errorf("memory: %v", err)
		}
	}
	estimate, err := r.admit(spec, c)
	if err != nil {
		return nil, err
	}
	seed := r.opt.Seed
	if c.seedSet && !r.opt.SeedSet {
		seed = c.seed
	}
	c.topo.Seed = seed
	g, err := topo.Build(c.topo)
	if err != nil {
		return nil, err
	}
	if err := spec.CheckProcesses(values, g.Topology.IDs); err != nil {
		return nil, fmt.Errorf("%s: %v", spec.Name, err)
	}
	if spec.Check != nil {
		if err := spec.Check(values, g.Topology.IDs); err != nil {
			return nil, fmt.Errorf("%s: %v", spec.Name, err)
		}
	}
	factory, err := spec.New(values)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", spec.Name, err)
	}
	s, err := sim.New(sim.Config{
		Seed: seed, Topology: g.Topology, Factory: factory, Link: c.link,
		DetectDelay: c.detector, MaxEvents: c.maxEvents, MaxTime: c.maxTime,
	})
	if err != nil {
		return nil, err
	}
	props, err := worldChecks(spec, c)
	if err != nil {
		return nil, err
	}
	w := &world{r: r, index: len(r.worlds) + 1, spec: spec, config: values, s: s, link: c.link, props: props, line: r.currentLine(r.L, 0)}
	w.header = trace.Header{
		Schema: trace.Schema, World: w.index, Algorithm: spec.Name, Seed: seed,
		Topology: g.Kind, IDs: make([]int, len(g.IDs)), Arity: g.Arity, Cols: g.Cols,
	}
	for i, id := range g.IDs {
		w.header.IDs[i] = int(id)
	}
	if g.Adj != nil {
		// One backing array for all the lists: a large world would
		// otherwise cost an allocation per process.
		total := 0
		for _, nb := range g.Adj {
			total += len(nb)
		}
		flat := make([]int, 0, total)
		w.header.Adj = make([][]int, len(g.Adj))
		for i, nb := range g.Adj {
			start := len(flat)
			for _, j := range nb {
				flat = append(flat, int(g.IDs[j]))
			}
			w.header.Adj[i] = flat[start:len(flat):len(flat)]
		}
	}
	names := make([]string, 0, len(values))
	for k := range values {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		w.header.Config = append(w.header.Config, trace.Setting{Key: k, Value: values[k]})
	}
	if c.trace && !r.opt.NoTrace {
		w.rec = &trace.Recording{}
		w.observe()
	}
	if len(props) > 0 || len(spec.Properties) > 0 {
		w.mon = check.New()
		w.observe()
	}
	w.ud = r.L.NewUserData()
	w.ud.Value = w
	w.ud.Metatable = r.worldMT
	if err := r.intervene(w); err != nil {
		return nil, err
	}
	// Once the world is sure to exist, and after its observers, so that a
	// traced world records the warning.
	w.checkLink(c.link, w.line, "the links")
	if t := spec.Assumptions.Traitors; t.Breach != nil {
		if what := t.Breach(values, g.Topology.IDs); what != "" {
			w.outside(traitors, w.line, t.Rule, what)
		}
	}
	r.worlds = append(r.worlds, w)
	r.held = addSat(r.held, estimate)
	// The guard looks at once: the world was built in Go, with no Lua
	// instruction to count.
	r.budget.checkMemory()
	return w, nil
}

func findKey(name string) *worldKey {
	for i := range worldKeys {
		if worldKeys[i].name == name {
			return &worldKeys[i]
		}
	}
	return nil
}

// observe attaches the world's one observer to the kernel. Without a trace
// and without hooks there is none, and the kernel builds no events at all.
func (w *world) observe() {
	if !w.observing {
		w.observing = true
		w.s.Observe(w.onEvent)
	}
}

func (w *world) onEvent(e *trace.Event) {
	if w.r.seen++; w.r.opt.Progress != nil && w.r.seen%ProgressEvery == 0 {
		w.r.opt.Progress(w.r.seen, e.T)
	}
	if w.seqOut != nil {
		*w.seqOut = e.Seq
		w.seqOut = nil
	}
	if w.mon != nil {
		w.mon.Observe(e)
	}
	if e.Type == trace.Command && w.cmdLine > 0 {
		e.Line = w.cmdLine
	}
	if w.rec != nil {
		w.rec.Append(e)
		// Every so many events, or so many bytes of the texts a script
		// puts in events (a log line holds up to 64 KiB), the guard looks.
		w.recorded++
		w.texts += len(e.Text)
		if w.recorded >= eventsPerMemoryCheck || w.texts >= allocEvery {
			w.recorded, w.texts = 0, 0
			if w.r.budget.checkMemory(); w.r.fatal != nil {
				w.s.Stop()
			}
		}
	}
	if w.hooked&(1|1<<e.Type) != 0 && w.r.fatal == nil {
		t := w.r.eventObject(e)
		for i, n := 0, len(w.hooks); i < n; i++ {
			h := w.hooks[i]
			if h.typ != 0 && h.typ != e.Type {
				continue
			}
			if _, ok := w.r.callback(w, h.fn, t); !ok {
				return
			}
		}
	}
}

// emit records a scenario-level event and returns its seq (0 when the world
// has no observer).
func (w *world) emit(e trace.Event) uint64 {
	var seq uint64
	w.seqOut = &seq
	w.s.Emit(e)
	w.seqOut = nil
	return seq
}

// afterEvent runs after every event of a run or step: it fires the `when`
// callbacks whose condition holds and asks the `until` predicate.
func (w *world) afterEvent(until *lua.LFunction) bool {
	r := w.r
	for i := 0; i < len(w.whens) && r.fatal == nil; {
		wh := w.whens[i]
		v, ok := r.callback(w, wh.pred)
		if !ok || !lua.LVAsBool(v) {
			i++
			continue
		}
		w.whens = append(w.whens[:i], w.whens[i+1:]...)
		r.callback(w, wh.fn)
	}
	if r.fatal != nil {
		return true
	}
	if until != nil {
		v, ok := r.callback(w, until)
		return !ok || lua.LVAsBool(v)
	}
	return false
}

// The kernel's share of a world's memory, beside each algorithm's own
// (algo.Memory): measured with the algorithms by TestMemoryEstimates, and
// alone (a process that keeps nothing costs processBytes on a complete
// graph, adjacency lists add adjacencyBytes and arcBytes per arc, a state
// key about 18 bytes, which the algorithms' figures count).
const (
	// worldBytes is a world whatever its size: the queue's calendar of
	// buckets, the kernel's maps, the Lua objects. Timers that fall alone
	// on their ticks within the calendar's 4096 ticks take a 2 KiB chunk
	// each, up to 8 MiB; the algorithms' figures count those their
	// default configurations arm.
	worldBytes = 160 << 10
	// processBytes is one process: its runtime record (one cache line),
	// its id in the kernel's indexes and in the trace header, its ring
	// neighbours for Peers, its slot in the state store.
	processBytes = 96
	// adjacencyBytes and arcBytes are one process's adjacency lists on a
	// topology other than complete, in the kernel and in the trace header.
	adjacencyBytes = 48
	arcBytes       = 12
	// monitorBytes is what core/check keeps per process while it watches
	// the world's properties: a mutual exclusion record and an election
	// record, both in a composed world (mutex.tokenring's election layer).
	monitorBytes = 256
	// A recording keeps its events in chunks of 4096 records of 64 bytes,
	// and their values (a message, a state's new and old value: two at
	// most) in chunks of 4096 of 16 bytes; what the values and log lines
	// hold besides costs up to eventExtraBytes an event.
	eventsPerChunk  = 4096
	eventChunkBytes = eventsPerChunk * 64
	valueChunkBytes = eventsPerChunk * 16
	eventExtraBytes = 80
)

// recordingBytes is what a recording of events trace events holds.
func recordingBytes(events uint64) uint64 {
	chunks := func(k uint64) uint64 { return (k + eventsPerChunk - 1) / eventsPerChunk }
	return addSat(chunks(events)*eventChunkBytes+chunks(2*events)*valueChunkBytes, events*eventExtraBytes)
}

// footprint is what the admission knows of a world before building it.
type footprint struct {
	spec      *algo.Spec
	n         int
	arcs      float64 // adjacency arcs per process; 0: a complete graph, which has no lists
	traced    bool
	monitored bool // core/check watches its properties
}

// defaultFootprint is a world of n processes of spec as sim.world builds it
// from the algorithm and n alone: its default topology, checks and trace.
func defaultFootprint(spec *algo.Spec, n int, traced bool) footprint {
	c := worldConf{topo: topo.Spec{Kind: spec.Topology, N: n}}
	return footprintOf(spec, c, n, traced)
}

func footprintOf(spec *algo.Spec, c worldConf, n int, traced bool) footprint {
	f := footprint{spec: spec, n: n, traced: traced, monitored: len(spec.Properties) > 0 || len(c.checks) > 0}
	switch c.topo.Kind {
	case "", "complete":
	case "ring":
		f.arcs = 1
	case "grid":
		f.arcs = 4
	case "random":
		f.arcs = 2 + c.topo.P*float64(max(n-1, 0))
	case "edges":
		f.arcs = 2 * float64(len(c.topo.Edges)) / float64(max(n, 1))
	default: // biring, star, line, tree: two arcs per process at most, on average
		f.arcs = 2
	}
	return f
}

// perProcess is the estimate for one process, the kernel's share included.
func (f footprint) perProcess() uint64 {
	b := addSat(processBytes, f.spec.Memory.PerProcess(f.n))
	if f.arcs > 0 {
		b = addSat(b, adjacencyBytes+uint64(math.Ceil(f.arcs*arcBytes)))
	}
	if f.monitored {
		b = addSat(b, monitorBytes)
	}
	return b
}

// bytes is the estimate for the whole world.
func (f footprint) bytes() uint64 {
	hi, total := bits.Mul64(f.perProcess(), uint64(f.n))
	if hi != 0 {
		return math.MaxUint64
	}
	total = addSat(total, worldBytes)
	if f.traced {
		hi, events := bits.Mul64(uint64(f.spec.Memory.BootEvents), uint64(f.n))
		if hi != 0 {
			return math.MaxUint64
		}
		total = addSat(total, recordingBytes(events))
	}
	return total
}

func addSat(a, b uint64) uint64 {
	if s, carry := bits.Add64(a, b, 0); carry == 0 {
		return s
	}
	return math.MaxUint64
}

// largestN is the largest n up to topo.MaxN whose world, shape(n), fits in
// budget bytes; 0 when not even one process does. Estimates grow with n,
// so a binary search finds it.
func largestN(budget uint64, shape func(n int) footprint) int {
	lo, hi := 0, topo.MaxN // fits(lo) or lo == 0; !fits(hi+1)
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if shape(mid).bytes() <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// MemoryEstimate is the memory in bytes that sim.world estimates a world of
// n processes of spec to need, on the algorithm's default topology with its
// default checks, traced or not: what it weighs against the run's memory
// budget before building the world.
func MemoryEstimate(spec *algo.Spec, n int, traced bool) uint64 {
	return defaultFootprint(spec, n, traced).bytes()
}

// LargestN is the largest n a world of spec can have within a memory budget
// of budget bytes, on its default topology with its default checks, traced
// or not; at most topo.MaxN, and 0 when not even one process fits.
func LargestN(spec *algo.Spec, budget uint64, traced bool) int {
	return largestN(budget, func(n int) footprint { return defaultFootprint(spec, n, traced) })
}

// admit refuses a world that would not fit the run's memory budget beside
// the worlds built before it, before anything of it is built: a world too
// large for the memory must end the script with an error, never the
// process. It returns the world's estimate.
//
// Every world is held until the script ends (its trace and header are in
// the results, and Lua may still reach it), so the worlds a loop builds add
// up: the estimates of those built before count against the budget too.
func (r *runner) admit(spec *algo.Spec, c worldConf) (uint64, error) {
	n := worldN(c)
	if n <= 0 || n > topo.MaxN {
		return 0, nil // topo.Build says what is wrong
	}
	traced := c.trace && !r.opt.NoTrace
	shape := func(n int) footprint { return footprintOf(spec, c, n, traced) }
	f := shape(n)
	need, budget := f.bytes(), r.memoryBudget()
	if addSat(need, r.held) <= budget {
		return need, nil
	}
	if need <= budget {
		return 0, fmt.Errorf("%s with n = %d needs about %s, and the %d worlds built before it hold about %s: together more than the memory budget of %s (every world is kept until the script ends)",
			spec.Name, n, formatBytes(need), len(r.worlds), formatBytes(r.held), formatBytes(budget))
	}
	msg := fmt.Sprintf("%s with n = %d needs about %s (about %s per process), more than the memory budget of %s; ",
		spec.Name, n, formatBytes(need), formatBytes(need/uint64(n)), formatBytes(budget))
	if largest := largestN(budget, shape); largest > 0 {
		msg += fmt.Sprintf("the largest n that fits is %d", largest)
	} else {
		msg += "not even one process fits"
	}
	if traced && footprintOf(spec, c, n, false).bytes() <= budget {
		msg += " (with trace = false, n = " + fmt.Sprint(n) + " fits)"
	}
	return 0, fmt.Errorf("%s", msg)
}

// paceMemory has the memory guard look at the heap when the world's pending
// events grew by eventsPerMemoryCheck since it last looked. A command, a
// crash or an injection schedules events in Go, with no Lua instruction to
// count: a request of Ricart-Agrawala is a message to every other process,
// so a loop of a few instructions commanding thousands of processes would
// queue gigabytes between two looks.
func (w *world) paceMemory() {
	switch p := w.s.Pending(); {
	case p >= w.pending+eventsPerMemoryCheck:
		w.pending = p
		w.r.budget.checkMemory()
	case p < w.pending:
		w.pending = p // growth counts from the lowest point
	}
}

// worldN is the number of processes sim.world{...} asks for: n, the ids
// given, or the processes an edge list names.
func worldN(c worldConf) int {
	if len(c.topo.IDs) > 0 {
		return max(len(c.topo.IDs), c.topo.N)
	}
	if c.topo.N > 0 || c.topo.Kind != "edges" {
		return c.topo.N
	}
	seen := make(map[sim.NodeID]bool, 2*len(c.topo.Edges))
	for _, e := range c.topo.Edges {
		seen[e[0]], seen[e[1]] = true, true
	}
	return len(seen)
}

// formatBytes writes a memory size for people: "384 MiB", "1.6 GiB".
func formatBytes(b uint64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	x, u := float64(b), 0
	for x >= 1024 && u < len(units)-1 {
		x /= 1024
		u++
	}
	switch {
	case u == 0:
		return fmt.Sprintf("%d bytes", b)
	case x < 10 && x != math.Trunc(x):
		return fmt.Sprintf("%.1f %s", x, units[u])
	}
	return fmt.Sprintf("%.0f %s", x, units[u])
}

// agreed returns the value every live process holds for key, or nil.
func (w *world) agreed(key string) any {
	var val any
	var enc []byte
	live := 0
	for _, id := range w.s.IDs() {
		if !w.s.Up(id) {
			continue
		}
		v := w.s.Get(id, key)
		if v == nil {
			return nil
		}
		e := trace.AppendJSON(nil, v)
		if live > 0 && string(e) != string(enc) {
			return nil
		}
		val, enc = v, e
		live++
	}
	return val
}
