// Package algo is the algorithm contract's registry: every algorithm package
// registers a Spec describing itself (name, source text, configuration with
// defaults, commands, observable state, messages, promised properties) and a
// constructor. The scenario binding, the CLI's list and the API reference
// are all generated from these specs.
package algo

import (
	"fmt"
	"math"
	"sort"
	"strconv"
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
	// Properties are the properties the algorithm promises, each declared
	// by its family (see Property).
	Properties []Property
	// New returns the node factory for a validated configuration.
	New func(cfg Values) (proc.Factory, error)
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

// Family is the part of the name before the dot.
func (s *Spec) Family() string {
	f, _, _ := strings.Cut(s.Name, ".")
	return f
}

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
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return fmt.Sprintf("%g", x)
	}
	return "a table"
}
