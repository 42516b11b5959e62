// Package algo is the algorithm contract's registry: every algorithm package
// registers a Spec describing itself (name, source text, configuration with
// defaults, commands, observable state, messages, promised properties) and a
// constructor. The scenario binding, the CLI's list and the API reference
// are all generated from these specs.
package algo

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"dsim/core/proc"
	"dsim/core/trace"
)

// ParamType is the type of a configuration value.
type ParamType string

const (
	Int   ParamType = "int"
	Float ParamType = "float"
	Bool  ParamType = "bool"
	Str   ParamType = "string"
)

// Param is one configuration key.
type Param struct {
	Name    string
	Type    ParamType
	Default any // int, float64, bool or string, matching Type
	Doc     string
	Min     float64 // inclusive bounds for Int and Float; Min == Max: none
	Max     float64
	// Process: an Int naming a process of the world, which sim.world
	// refuses when it names none; a negative value (none, or a default
	// the algorithm picks) is not checked.
	Process bool
}

// CommandSpec documents a command nodes accept.
type CommandSpec struct {
	Name string
	Args string // e.g. "", "to=<id>", "duration=<ticks>"
	Doc  string
}

// StateKey documents an observable state key.
type StateKey struct {
	Key string
	Doc string
	// Chart: the playground charts the key's integer values over time
	// under the space-time diagram, one line per process (a replica's
	// balance), where the clocks do not drift.
	Chart bool
}

// Spec is an algorithm's registry entry.
type Spec struct {
	Name        string // family.name, e.g. "election.bully"
	Summary     string // one line
	Description string // the rules implemented, and the source (title and section) and variant they follow
	Topology    string // the topology it expects by default, e.g. "ring"
	Config      []Param
	Commands    []CommandSpec
	State       []StateKey
	// Messages are zero values of the message types, so scenarios can build
	// hand-made messages by kind.
	Messages []proc.Message
	// Assumptions are the system model the algorithm is correct in: the
	// sweeps draw faults only within them, and a run outside them warns.
	Assumptions Assumptions
	// Properties are the properties the algorithm promises, each declared
	// by its family (see Property).
	Properties []Property
	// New returns the node factory for a validated configuration.
	New func(cfg Values) (proc.Factory, error)
	// Check, if set, rejects a configuration that does not fit the
	// world's processes (ids in ring order): a traitor or an item's site
	// that is no process, more copies than sites. Nil: any world fits.
	Check func(cfg Values, ids []proc.NodeID) error
	// Memory is what one process of the algorithm holds, so that a world
	// that would not fit the run's memory budget is refused before it is
	// built. Required: Memory.Boot must be set.
	Memory Memory
}

// Memory is the memory one process of an algorithm holds, in bytes, as a
// function of the number n of processes of its world. The scenario layer
// (core/script) adds what the kernel keeps per process whatever the
// algorithm (runtime record, ids, topology, state slots, the property
// monitor, and the boot's trace records when traced) and refuses a world
// whose estimate exceeds the run's memory budget; dsim list shows the
// largest n that fits.
//
// The figures are measured, not derived: core/script's TestMemoryEstimates
// builds every registered algorithm's world at two sizes, with and without
// the light load below and with and without a trace, and checks that each
// estimate bounds the heap growth it measured and is at most three times
// it. A figure that grows with n means that every process keeps something
// per other process: n² in the world. Where the algorithm needs that (a
// view of every other process), the figure says so; where it does not, the
// algorithm should not (keep what all processes share once per world, and
// fill maps as processes are heard from rather than presizing them).
type Memory struct {
	// Boot gives the bytes one process holds in a booted world of n
	// processes before any command: its Node and what its Start
	// allocates, its state values, its timers, and its share of the
	// messages the boot sends.
	Boot func(n int) uint64
	// Load gives the bytes one process adds, on average, once the light
	// load has run to its end: one election (the elect command at the
	// first process in ring order) or a few requests at once (five
	// processes spread over the ring requesting the critical section for
	// a few ticks). Messages and timers in flight, and the state kept for
	// them, count: the kernel reuses a queue's memory rather than
	// returning it. Nil: the load adds nothing.
	Load func(n int) uint64
	// BootEvents is how many trace events one process records as the world
	// boots: the state its Start sets, the messages the boot sends and
	// their deliveries. A traced world adds the recorder's cost of each.
	BootEvents int
}

// PerProcess is Boot and Load together: what one process holds through a
// light load.
func (m Memory) PerProcess(n int) uint64 {
	b := m.Boot(n)
	if m.Load != nil {
		b += m.Load(n)
	}
	return b
}

// Bytes is a memory figure that does not depend on n.
func Bytes(b uint64) func(n int) uint64 {
	return func(int) uint64 { return b }
}

// PerPeer is a memory figure of fixed bytes plus perPeer bytes for every
// other process: n² in the world.
func PerPeer(fixed, perPeer uint64) func(n int) uint64 {
	return func(n int) uint64 { return fixed + perPeer*uint64(max(n-1, 0)) }
}

// MapEntryBytes bounds what one entry of a Go map of small keys and values
// (a map[proc.NodeID]int) costs, presized or grown: 21 to 37 bytes
// measured, by how full its tables are.
const MapEntryBytes = 40

// Assumptions is the system model an algorithm needs, as data: the seed
// sweeps draw their worlds within it, dsim list and the reference print it,
// and the scenario layer warns, once per world and kind, when a world
// leaves it (links that reorder, lose or duplicate, a partition, a crash or
// recovery, a latency above the bound). The zero value is the strictest
// model: reliable links in any order, no partition, no crash, no latency
// bound.
type Assumptions struct {
	FIFO        bool // needs links that deliver in the order messages were sent
	Loss        bool // tolerates lost messages
	Duplication bool // tolerates duplicated messages
	Partitions  bool // tolerates partitions and cut links, and their healing
	Crashes     Crashes
	// Latency is the bound on message latency the algorithm's timers rely
	// on; the zero value: none, the algorithm is correct however late a
	// message arrives.
	Latency LatencyBound
	// Traitors is the Byzantine faults the algorithm tolerates, processes
	// that lie as their configuration says; the zero value: none.
	Traitors Traitors
	// Clocks is what the algorithm assumes of the hardware clocks and the
	// fastest crossing, which the bounds it claims rest on; the zero
	// value: nothing.
	Clocks ClockModel
}

// ClockModel names the configuration keys of a physical clock
// synchronization's model, each "" when it assumes nothing of the kind.
type ClockModel struct {
	Drift      string // ρ, in millionths: no clock drifts faster
	MinLatency string // in ticks: no message arrives sooner
	// Reference names the process whose clock reads true time (-1: the
	// first in ring order), which a scenario leaves exact.
	Reference string
}

// Traitors is how many lying processes an algorithm tolerates among how
// many: the rule as the text states it, and the check of a world.
type Traitors struct {
	Rule string // "at most m traitors among more than 3m generals"
	// Breach says how a world of these processes so configured leaves
	// the rule, "" when it does not.
	Breach func(cfg Values, ids []proc.NodeID) string
}

// Crashes is the process failures an algorithm tolerates, at any time of
// its run: during an election or while requests are pending, not only
// while it is quiet. Each level includes the ones before it.
type Crashes uint8

const (
	NoCrashes     Crashes = iota // every process runs to the end
	CrashStop                    // processes may crash and stay down
	CrashRecovery                // crashed processes may also recover, with their state lost
)

var crashNames = [...]string{NoCrashes: "none", CrashStop: "crash-stop", CrashRecovery: "crash-recovery"}

func (c Crashes) String() string {
	if int(c) < len(crashNames) {
		return crashNames[c]
	}
	return fmt.Sprintf("crashes(%d)", uint8(c))
}

// LatencyBound names the configuration key, in ticks, within which the
// algorithm assumes Trips link crossings in a row complete: the longest
// latency of any link times Trips must be at most the key's value, or less
// than it for a Timeout. The ring elections' hop is one crossing; the
// bully's T is a round trip, an ELECTION and its ANSWER, and a timeout.
type LatencyBound struct {
	Key   string // "": no bound
	Trips int
	// Timeout: the key is a timer armed as the first message leaves, and
	// the last must arrive before it fires: on a tie the timer, scheduled
	// first, wins.
	Timeout bool
}

func (b LatencyBound) String() string {
	crossings := "a link crossing"
	if b.Trips > 1 {
		crossings = fmt.Sprintf("%d link crossings in a row", b.Trips)
	}
	if b.Timeout {
		return fmt.Sprintf("%s in less than %s ticks", crossings, b.Key)
	}
	return fmt.Sprintf("%s within %s ticks", crossings, b.Key)
}

// Holds reports whether links whose latency is at most maxLatency ticks
// keep the bound with the configuration v.
func (b LatencyBound) Holds(v Values, maxLatency float64) bool {
	if b.Key == "" {
		return true
	}
	total, limit := float64(b.Trips)*maxLatency, float64(v.Int(b.Key))
	if b.Timeout {
		return total < limit
	}
	return total <= limit
}

// Lines says the model in words, one line per dimension, for dsim list and
// the reference.
func (a Assumptions) Lines() []string {
	yes := func(b bool, ok, not string) string {
		if b {
			return ok
		}
		return not
	}
	latency := "none (any finite latency)"
	if a.Latency.Key != "" {
		latency = a.Latency.String()
	}
	lines := []string{
		"links: " + yes(a.FIFO, "FIFO", "any order"),
		"message loss: " + yes(a.Loss, "tolerated", "not tolerated"),
		"duplication: " + yes(a.Duplication, "tolerated", "not tolerated"),
		"partitions: " + yes(a.Partitions, "tolerated", "not tolerated"),
		"crashes: " + a.Crashes.String(),
		"latency bound: " + latency,
	}
	if a.Traitors.Rule != "" {
		lines = append(lines, "traitors: "+a.Traitors.Rule)
	}
	if c := a.Clocks; c.Drift != "" {
		lines = append(lines, "clocks: drift by at most "+c.Drift+" millionths")
	}
	if c := a.Clocks; c.MinLatency != "" {
		lines = append(lines, "fastest crossing: no message arrives in less than "+c.MinLatency+" ticks")
	}
	if c := a.Clocks; c.Reference != "" {
		lines = append(lines, "reference: the "+c.Reference+" process's clock reads true time")
	}
	return lines
}

// Family is the part of the name before the dot.
func (s *Spec) Family() string {
	f, _, _ := strings.Cut(s.Name, ".")
	return f
}

// families are the declared families' titles, by name.
var families = map[string]string{}

// DeclareFamily names a family of algorithms (the part of their names
// before the dot) with the topic it covers, for listings: the family's
// helper package declares it in its init, before its algorithms register.
func DeclareFamily(name, title string) {
	if name == "" || title == "" || strings.Contains(name, ".") {
		panic("algo: malformed family " + name)
	}
	if _, dup := families[name]; dup {
		panic("algo: family " + name + " declared twice")
	}
	families[name] = title
}

// FamilyTitle is the topic of a declared family, "" for an undeclared one.
func FamilyTitle(name string) string { return families[name] }

var registry = map[string]*Spec{}

// Register adds an algorithm; it panics on a duplicate or malformed spec,
// which is a programming error caught by any test.
func Register(s Spec) {
	if !strings.Contains(s.Name, ".") || s.New == nil || s.Summary == "" || s.Description == "" {
		panic("algo: incomplete spec " + s.Name)
	}
	if s.Memory.Boot == nil || s.Memory.BootEvents < 0 {
		panic("algo: " + s.Name + " states no memory figure (Spec.Memory.Boot)")
	}
	if _, dup := registry[s.Name]; dup {
		panic("algo: duplicate " + s.Name)
	}
	for _, p := range s.Properties {
		if p.Doc() == "" {
			panic("algo: " + s.Name + " promises the undeclared property " + string(p))
		}
	}
	for _, p := range s.Config {
		if _, err := p.coerce(p.Default); err != nil {
			panic(fmt.Sprintf("algo: %s: bad default: %v", s.Name, err))
		}
	}
	if b := s.Assumptions.Latency; b.Key != "" && (b.Trips < 1 || s.param(b.Key) == nil || s.param(b.Key).Type != Int) {
		panic(fmt.Sprintf("algo: %s: latency bound %q is not an int config key, or Trips < 1", s.Name, b.Key))
	}
	registry[s.Name] = &s
}

// Lookup finds an algorithm by name; the error lists the known names.
func Lookup(name string) (*Spec, error) {
	if s, ok := registry[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("unknown algorithm %s (known: %s)", trace.Quote(name), strings.Join(Names(), ", "))
}

// Names lists the registered algorithms, sorted.
func Names() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// All returns the specs sorted by name.
func All() []*Spec {
	out := make([]*Spec, 0, len(registry))
	for _, n := range Names() {
		out = append(out, registry[n])
	}
	return out
}

// Values is a validated configuration: every key of the spec is present with
// its declared type.
type Values map[string]any

func (v Values) Int(k string) int        { return v[k].(int) }
func (v Values) Float(k string) float64  { return v[k].(float64) }
func (v Values) Bool(k string) bool      { return v[k].(bool) }
func (v Values) String(k string) string  { return v[k].(string) }
func (v Values) Time(k string) proc.Time { return proc.Time(v[k].(int)) }
func (v Values) ID(k string) proc.NodeID { return proc.NodeID(v[k].(int)) }

// CheckProcesses rejects a configuration whose Process keys name no
// process of the world (ids).
func (s *Spec) CheckProcesses(v Values, ids []proc.NodeID) error {
	for _, p := range s.Config {
		if !p.Process {
			continue
		}
		if id := v.ID(p.Name); id >= 0 && !slices.Contains(ids, id) {
			return fmt.Errorf("config key %q: %d is not a process (ids: %s)", p.Name, id, proc.FormatIDs(ids))
		}
	}
	return nil
}

// Resolve checks user-given settings against the spec and fills defaults.
// Errors name the offending key.
func (s *Spec) Resolve(given map[string]any) (Values, error) {
	out := Values{}
	for _, p := range s.Config {
		out[p.Name] = p.Default
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := s.param(k)
		if p == nil {
			return nil, fmt.Errorf("config key %s is not known to %s (known: %s)", trace.Quote(k), s.Name, s.paramNames())
		}
		v, err := p.coerce(given[k])
		if err != nil {
			return nil, fmt.Errorf("config key %s: %v", trace.Quote(k), err)
		}
		out[k] = v
	}
	return out, nil
}

func (s *Spec) param(name string) *Param {
	for i := range s.Config {
		if s.Config[i].Name == name {
			return &s.Config[i]
		}
	}
	return nil
}

func (s *Spec) paramNames() string {
	if len(s.Config) == 0 {
		return "none"
	}
	names := make([]string, len(s.Config))
	for i, p := range s.Config {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

func (p *Param) coerce(v any) (any, error) {
	num, isNum := toFloat(v)
	switch p.Type {
	case Int:
		if !isNum || num != math.Trunc(num) || math.Abs(num) > 1<<53 {
			return nil, fmt.Errorf("want an integer, got %s", describe(v))
		}
		if err := p.bounds(num); err != nil {
			return nil, err
		}
		return int(num), nil
	case Float:
		if !isNum || math.IsNaN(num) || math.IsInf(num, 0) {
			return nil, fmt.Errorf("want a number, got %s", describe(v))
		}
		if err := p.bounds(num); err != nil {
			return nil, err
		}
		return num, nil
	case Bool:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want true or false, got %s", describe(v))
		}
		return b, nil
	case Str:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %s", describe(v))
		}
		return str, nil
	}
	return nil, fmt.Errorf("unknown parameter type %q", p.Type)
}

func (p *Param) bounds(x float64) error {
	if p.Min == p.Max {
		return nil
	}
	if x < p.Min || x > p.Max {
		return fmt.Errorf("%g is outside [%g, %g]", x, p.Min, p.Max)
	}
	return nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// describe names a configuration value in a script's terms: the script
// layer gives booleans, strings, numbers and lists of integers (Lua tables).
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nothing"
	case string:
		return "the string " + trace.Quote(x)
	case bool, int, int64, float64:
		return proc.FormatValue(x)
	}
	return "a table"
}
