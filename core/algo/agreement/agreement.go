// Package agreement holds what the agreement algorithms share: the
// properties of the Byzantine generals problem (Lamport, Shostak and Pease,
// "The Byzantine Generals Problem", 1982, section 1: interactive
// consistency conditions IC1 and IC2), the state keys that make the
// generals' orders, loyalty and decisions visible in the trace, and the
// traitors with their programmable lies. The algorithms live in the
// sub-packages om (oral messages), sm (signed messages) and twogenerals.
//
// How a run shows in the trace. Every general sets traitor (true or false)
// at its start; the commander sets order, the value a loyal commander
// orders; every lieutenant sets decision when it decides. The checkers of
// core/check read these keys only.
package agreement

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dsim/core/algo"
	"dsim/core/proc"
	"dsim/core/trace"
)

// The properties (see init), judged at the end of a run.
const (
	IC1 = "agreement.ic1"
	IC2 = "agreement.ic2"
)

// State keys.
const (
	KeyTraitor  = "traitor"  // true at a traitor, false at a loyal general
	KeyOrder    = "order"    // the commander's order
	KeyDecision = "decision" // the value a lieutenant decided
)

// The two orders, and the default a lieutenant takes for a missing one.
const (
	Retreat = 0
	Attack  = 1
)

func init() {
	algo.DeclareFamily("agreement", "reaching agreement: the two generals on lossy links, the Byzantine generals")
	algo.DeclareProperty(IC1, "at the end, all loyal lieutenants (traitor false, no order key, no crash) have decided, and decided the same value")
	algo.DeclareProperty(IC2, "at the end, if the commander (the process with the order key) is loyal, every loyal lieutenant has decided its order")
}

// State documents the keys every Byzantine generals algorithm sets.
var State = []algo.StateKey{
	{Key: KeyTraitor, Doc: "set at start: true at a traitor (config traitors), false at a loyal general"},
	{Key: KeyOrder, Doc: "set at start at the commander: the value it orders (1 attack, 0 retreat); a traitorous commander's lies may send otherwise"},
	{Key: KeyDecision, Doc: "set at a lieutenant when it decides: 1 attack, 0 retreat"},
}

// Lie strategies.
const (
	Flip   = "flip"
	Split  = "split"
	Mask   = "mask"
	Silent = "silent"
)

var lies = []string{Flip, Split, Mask, Silent}

// Params are the configuration keys of the Byzantine generals algorithms;
// maxM bounds m.
func Params(maxM int) []algo.Param {
	return []algo.Param{
		{Name: "m", Type: algo.Int, Default: 1, Doc: "the number of traitors the algorithm tolerates: OM(m), SM(m)", Min: 0, Max: float64(maxM)},
		{Name: "commander", Type: algo.Int, Default: 0, Doc: "the commander's id (0: the first process)"},
		{Name: "order", Type: algo.Int, Default: Attack, Doc: "the commander's order: 1 attack, 0 retreat", Min: 0, Max: 1},
		{Name: "round", Type: algo.Int, Default: 50, Doc: "ticks per synchronous round: a message that has not arrived by the end of its round is missing, and counts as the default, retreat", Min: 1, Max: 1e6},
		{Name: "traitors", Type: algo.Str, Default: "", Doc: `the traitors' ids, e.g. "3" or "1,3" ("": none)`},
		{Name: "lie", Type: algo.Str, Default: Flip, Doc: `how traitors lie: "flip" sends the opposite of what a loyal general would; "split" sends it to the first half of the receivers of each message (rounded up, in ring order) and the opposite to the rest; "mask" makes the k-th message a traitor sends (from 0) carry bit k of lies; "silent" sends nothing`},
		{Name: "lies", Type: algo.Int, Default: 0, Doc: `with lie "mask": bit k is the value of the k-th message each traitor sends`, Min: 0, Max: 1 << 53},
	}
}

// Assumptions: reliable links, no crash, and the rounds' time bound (a
// message that misses its round counts as missing: the paper's A3).
var Assumptions = algo.Assumptions{Latency: algo.LatencyBound{Key: "round", Trips: 1, Timeout: true}}

// Config is the parsed configuration of Params.
type Config struct {
	M         int
	Order     int
	Round     proc.Duration
	Strategy  string // lie
	Lies      uint64
	commander proc.NodeID
	traitors  []proc.NodeID
}

// NewConfig reads the configuration; an error names the key.
func NewConfig(v algo.Values) (Config, error) {
	c := Config{M: v.Int("m"), Order: v.Int("order"), Round: v.Time("round"), Strategy: v.String("lie"), Lies: uint64(v.Int("lies")), commander: v.ID("commander")}
	if !slices.Contains(lies, c.Strategy) {
		return c, fmt.Errorf("config key \"lie\": %s is not one of %s", trace.Quote(c.Strategy), strings.Join(lies, ", "))
	}
	var err error
	c.traitors, err = ParseIDs(v.String("traitors"))
	if err != nil {
		return c, fmt.Errorf("config key \"traitors\": %v", err)
	}
	return c, nil
}

// ParseIDs reads a list of ids such as "1,3" ("" is none).
func ParseIDs(s string) ([]proc.NodeID, error) {
	var ids []proc.NodeID
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		id, err := strconv.ParseInt(f, 10, 32)
		if err != nil || proc.NodeID(id) < proc.MinID {
			return nil, fmt.Errorf("%s is not a list of process ids such as \"1,3\"", trace.Quote(s))
		}
		ids = append(ids, proc.NodeID(id))
	}
	return ids, nil
}

// Check rejects a configuration that does not fit the world: fewer than
// least generals, a commander or traitor that is no process.
func Check(least int) func(algo.Values, []proc.NodeID) error {
	return func(v algo.Values, ids []proc.NodeID) error {
		if len(ids) < least {
			return fmt.Errorf("%d generals: it takes at least %d", len(ids), least)
		}
		c, err := NewConfig(v)
		if err != nil {
			return err
		}
		if c.commander != 0 && !slices.Contains(ids, c.commander) {
			return fmt.Errorf("config key \"commander\": %d is not a process", c.commander)
		}
		for _, t := range c.traitors {
			if !slices.Contains(ids, t) {
				return fmt.Errorf("config key \"traitors\": %d is not a process", t)
			}
		}
		return nil
	}
}

// Tolerating is the generals' model with at most m traitors among more
// than times·m generals (OM: 3; SM: 0) and at least m + least (SM: 2).
func Tolerating(rule string, times, least int) algo.Assumptions {
	a := Assumptions
	a.Traitors = algo.Traitors{Rule: rule, Breach: func(v algo.Values, ids []proc.NodeID) string {
		c, err := NewConfig(v)
		switch n := len(ids); {
		case err != nil:
			return ""
		case len(c.traitors) > c.M:
			return fmt.Sprintf("%d traitors, more than m = %d", len(c.traitors), c.M)
		case n <= times*c.M:
			return fmt.Sprintf("%d generals, not more than %dm = %d", n, times, times*c.M)
		case n < c.M+least:
			return fmt.Sprintf("%d generals, fewer than m + %d = %d", n, least, c.M+least)
		}
		return ""
	}}
	return a
}

// Factory is the New of a generals algorithm whose process mk makes from
// the general its configuration describes.
func Factory(mk func(General) proc.Node) func(algo.Values) (proc.Factory, error) {
	return func(v algo.Values) (proc.Factory, error) {
		c, err := NewConfig(v)
		if err != nil {
			return nil, err
		}
		return func(proc.NodeID) proc.Node { return mk(General{Config: c}) }, nil
	}
}

// General is what a general knows once started: who commands and whether
// it is a traitor; and, for a traitor, how many messages it has sent (the
// mask's k).
type General struct {
	Config
	Commander proc.NodeID
	Traitor   bool
	sent      uint
}

// Start resolves the commander and publishes traitor, and order at the
// commander. It reports false, with a log line, when the configured
// commander is no process: then nobody does anything.
func (g *General) Start(ctx proc.Context) bool {
	g.sent = 0
	g.Commander = g.commander
	if g.Commander == 0 {
		g.Commander = ctx.Self()
		if ctx.Index() != 0 {
			g.Commander = ctx.Neighbor(-ctx.Index())
		}
	}
	if !ctx.IsProcess(g.Commander) {
		ctx.Log("commander %d is no process: nothing to do", g.Commander)
		return false
	}
	g.Traitor = g.IsTraitor(ctx.Self())
	ctx.Set(KeyTraitor, g.Traitor)
	if ctx.Self() == g.Commander {
		ctx.Set(KeyOrder, g.Order)
	}
	return true
}

// IsTraitor reports whether id is a traitor. Traitors know each other:
// they collude.
func (g *General) IsTraitor(id proc.NodeID) bool { return slices.Contains(g.traitors, id) }

// Lie is the value this general sends where a loyal one would send loyal,
// to the pos-th of of receivers of the same message (ring order); send is
// false when it sends nothing. A loyal general sends loyal.
func (g *General) Lie(loyal, pos, of int) (v int, send bool) {
	if !g.Traitor {
		return loyal, true
	}
	k := g.sent
	g.sent++
	switch g.Strategy {
	case Flip:
		return Not(loyal), true
	case Split:
		if pos < (of+1)/2 {
			return loyal, true
		}
		return Not(loyal), true
	case Mask:
		if k >= 64 {
			return Retreat, true
		}
		return int(g.Lies >> k & 1), true
	}
	return 0, false // silent
}

// Not is the opposite order.
func Not(v int) int {
	if v == Attack {
		return Retreat
	}
	return Attack
}

// Others lists the lieutenants other than this one and those in path, in
// ring order from the first process: the receivers of a message along
// path.
func (g *General) Others(ctx proc.Context, path []int) []proc.NodeID {
	var out []proc.NodeID
	for i := range ctx.N() {
		if id := ctx.Neighbor(i - ctx.Index()); id != g.Commander && id != ctx.Self() && !slices.Contains(path, int(id)) {
			out = append(out, id)
		}
	}
	return out
}

// ValidPath reports whether path could reach self: it starts at the
// commander, holds distinct processes, not self, and at most m+1 of them.
func (g *General) ValidPath(ctx proc.Context, path []int) bool {
	if len(path) == 0 || len(path) > g.M+1 || proc.NodeID(path[0]) != g.Commander {
		return false
	}
	for i, id := range path {
		if id < int(proc.MinID) || id > int(proc.MaxID) || id == int(ctx.Self()) || !ctx.IsProcess(proc.NodeID(id)) || slices.Contains(path[:i], id) {
			return false
		}
	}
	return true
}

// NoCommand rejects a command: the generals take none, the run is their
// configuration.
func NoCommand(name string) error {
	return fmt.Errorf("unknown command %s (the generals take none: configure the run)", trace.Quote(name))
}
