package algotest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"dsim/core/algo"
	"dsim/core/proc"
)

// Fake is a Context with no kernel behind it, for rule tests in the style
// of etcd's raft tests: a test makes a process, calls its handlers
// directly (Start, Receive, Timer, Command), and reads what the process
// asked for as data: the messages it sent, the timers it armed, the state
// it set, the lines it logged. Nothing is delivered and no time passes
// unless the test says so.
//
// The world is a ring in the order of the ids given to NewFake: Neighbor
// and Successor walk it. The failure detector suspects the ids in Down.
type Fake struct {
	Me  proc.NodeID
	IDs []proc.NodeID // ring order
	// Ring makes Neighbors the two ring neighbours (a bidirectional ring);
	// otherwise every other process is a neighbour.
	Ring bool
	// Down is what the failure detector suspects.
	Down map[proc.NodeID]bool
	// Time is the local clock Now reads.
	Time proc.Time
	// Lives is how many times this process has crashed and recovered:
	// Recovered is true when it is above zero.
	Lives int

	Sent   []Sent
	Timers map[string]proc.Duration // armed timers and their durations
	State  map[string]any
	Logs   []string
	Steps  []proc.Time        // the readings StepClock set, in order
	Slews  [][2]proc.Duration // the slews asked for: {delta, over}
	// Trail is every value Set gave each key, in order (State holds the
	// last): a delivery order, where one handler delivers several.
	Trail map[string][]any
	// Records is the stable log: WriteStable appends to it, and it
	// outlives the Node, so a test recovers a process by starting a fresh
	// Node on the same Fake with Lives raised.
	Records []string

	rng *rand.Rand
}

// Sent is one message a process sent.
type Sent struct {
	To  proc.NodeID
	Msg proc.Message
}

// NewFake returns the Context of process self in a world of the given ids,
// in ring order; self must be one of them.
func NewFake(self proc.NodeID, ids ...proc.NodeID) *Fake {
	if !slices.Contains(ids, self) {
		panic(fmt.Sprintf("algotest: process %d is not among %v", self, ids))
	}
	return &Fake{Me: self, IDs: ids, Down: map[proc.NodeID]bool{}, Timers: map[string]proc.Duration{}, State: map[string]any{}}
}

// Take returns the messages sent since the last Take and forgets them.
func (f *Fake) Take() []Sent {
	out := f.Sent
	f.Sent = nil
	return out
}

func (f *Fake) Self() proc.NodeID { return f.Me }
func (f *Fake) N() int            { return len(f.IDs) }
func (f *Fake) Index() int        { return slices.Index(f.IDs, f.Me) }

func (f *Fake) IsProcess(id proc.NodeID) bool { return slices.Contains(f.IDs, id) }

func (f *Fake) Peers() []proc.NodeID {
	out := make([]proc.NodeID, 0, len(f.IDs)-1)
	for d := 1; d < len(f.IDs); d++ {
		out = append(out, f.Neighbor(d))
	}
	return out
}

func (f *Fake) Neighbors() []proc.NodeID {
	if !f.Ring {
		return f.Peers()
	}
	if len(f.IDs) == 2 {
		return []proc.NodeID{f.Neighbor(1)}
	}
	return []proc.NodeID{f.Neighbor(1), f.Neighbor(-1)}
}

func (f *Fake) Neighbor(dir int) proc.NodeID {
	n := len(f.IDs)
	return f.IDs[((f.Index()+dir)%n+n)%n]
}

func (f *Fake) Successor() proc.NodeID {
	for d := 1; d < len(f.IDs); d++ {
		if id := f.Neighbor(d); !f.Down[id] {
			return id
		}
	}
	return f.Me
}

func (f *Fake) Now() proc.Time { return f.Time }

// StepClock and SlewClock record the correction; a step also sets Time.
func (f *Fake) StepClock(to proc.Time) {
	f.Steps = append(f.Steps, to)
	f.Time = to
}

func (f *Fake) SlewClock(delta, over proc.Duration) {
	f.Slews = append(f.Slews, [2]proc.Duration{delta, over})
}
func (f *Fake) Send(to proc.NodeID, m proc.Message) { f.Sent = append(f.Sent, Sent{to, m}) }

func (f *Fake) Broadcast(m proc.Message) {
	for _, to := range f.Neighbors() {
		f.Send(to, m)
	}
}

func (f *Fake) SetTimer(d proc.Duration, tag string) { f.Timers[tag] = d }
func (f *Fake) CancelTimer(tag string)               { delete(f.Timers, tag) }
func (f *Fake) Suspected(id proc.NodeID) bool        { return f.Down[id] }
func (f *Fake) Recovered() bool                      { return f.Lives > 0 }

// Rand is a stream fixed by the process id, so rule tests are repeatable.
func (f *Fake) Rand() *rand.Rand {
	if f.rng == nil {
		f.rng = rand.New(rand.NewPCG(uint64(f.Me), 0))
	}
	return f.rng
}

// Set records the value as the kernel does: nil removes the key. A list is
// copied, as the kernel copies it.
func (f *Fake) Set(key string, v any) {
	if l, ok := v.([]int); ok {
		v = slices.Clone(l)
	}
	if f.Trail == nil {
		f.Trail = map[string][]any{}
	}
	f.Trail[key] = append(f.Trail[key], v)
	if v == nil {
		delete(f.State, key)
		return
	}
	f.State[key] = v
}

func (f *Fake) Get(key string) any { return f.State[key] }

func (f *Fake) Log(format string, args ...any) { f.Logs = append(f.Logs, fmt.Sprintf(format, args...)) }

// WriteStable appends to Records and sets proc.KeyStable, as the kernel does.
func (f *Fake) WriteStable(record string) {
	f.Records = append(f.Records, record)
	f.Set(proc.KeyStable, record)
}

func (f *Fake) Stable() []string { return slices.Clip(f.Records) }

var _ proc.Context = (*Fake)(nil)

// Process makes process id of the registered algorithm name, configured by
// config (nil: the defaults), as the kernel's factory would, or fails the
// test.
func Process(t testing.TB, name string, config map[string]any, id proc.NodeID) proc.Node {
	t.Helper()
	spec, err := algo.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := spec.Resolve(config)
	if err != nil {
		t.Fatal(err)
	}
	factory, err := spec.New(vals)
	if err != nil {
		t.Fatal(err)
	}
	return factory(id)
}

// Booted is process self of algorithm name (configuration config) among
// ids, started on a Fake, for a rule test.
func Booted(t testing.TB, name string, config map[string]any, self proc.NodeID, ids ...proc.NodeID) (proc.Node, *Fake) {
	t.Helper()
	n := Process(t, name, config, self)
	f := NewFake(self, ids...)
	n.Start(f)
	return n, f
}
