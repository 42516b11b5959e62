// Package mutex holds what the mutual exclusion algorithms share: the
// critical-section states and state keys that the checkers (core/check) and
// the playground read, the request and release commands with each process's
// own queue of requests, and the Lamport clock and (timestamp, id) stamps
// of the timestamped algorithms. The algorithms live in the sub-packages.
package mutex

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"dsim/core/algo"
	"dsim/core/proc"
)

// The values of the "cs" state key: Coulouris's RELEASED, WANTED and HELD.
const (
	Released = "released" // not interested in the critical section
	Wanted   = "wanted"   // requested, waiting for permission or the token
	Held     = "held"     // in the critical section
)

// State keys every mutual exclusion algorithm sets or may set. The checkers
// read KeyCS (safety, liveness) and KeyStamp (ordering); the playground
// colours processes by KeyCS and KeyToken.
const (
	KeyCS      = "cs"
	KeyStamp   = "req_ts"
	KeyBacklog = "backlog"
	KeyToken   = "has_token"
)

// The properties of mutual exclusion (see init for what each holds).
// Every algorithm promises Safety and Liveness; the timestamped permission
// algorithms (Lamport, Ricart-Agrawala) promise Ordering too.
const (
	Safety   = "mutex.safety"
	Liveness = "mutex.liveness"
	Ordering = "mutex.ordering"
)

func init() {
	algo.DeclareFamily("mutex", "distributed mutual exclusion: one process at a time in the critical section")
	algo.DeclareProperty(Safety, `at most one process has cs="held" at every event; a crash ends that process's critical section`)
	algo.DeclareProperty(Liveness, `at the end, every live process that has not crashed since making its request has cs other than "wanted" and an empty backlog`)
	algo.DeclareProperty(Ordering, "critical-section entries happen in increasing (req_ts, id) order, req_ts being the entering process's state value set when it made the request")
}

// Properties is the list most algorithms declare.
var Properties = []algo.Property{Safety, Liveness}

// StateKeys documents the keys CS sets; algorithms append their own.
var StateKeys = []algo.StateKey{
	{Key: KeyCS, Doc: `"released", "wanted" (requested, waiting) or "held" (in the critical section)`},
	{Key: KeyBacklog, Doc: "requests made while another was pending or held; each is served in turn (set when it changes)"},
}

// StampKey documents req_ts for the algorithms that timestamp requests.
var StampKey = algo.StateKey{Key: KeyStamp, Doc: "the Lamport timestamp of the current request (set when it is made)"}

// TokenKey documents has_token for the token algorithms.
var TokenKey = algo.StateKey{Key: KeyToken, Doc: "true while this process holds the token"}

// Commands are the commands every mutual exclusion algorithm accepts.
var Commands = []algo.CommandSpec{
	{Name: "request", Args: "duration=<ticks>", Doc: "ask for the critical section; with a duration the process leaves it by itself that many ticks (local clock) after entering, otherwise at the release command. A request while another is pending or held waits its turn in the process's backlog"},
	{Name: "release", Doc: "leave the critical section (an error when the process is not in it)"},
}

// TimerExit is the tag of the timer that ends a critical section given a
// duration. Algorithms must not use it for their own timers.
const TimerExit = "exit"

// Protocol is the algorithm side of a mutual exclusion process: CS calls it
// when the local user wants the critical section and when the user has left
// it.
type Protocol interface {
	// Want runs the algorithm's request rule. The state is already Wanted;
	// the algorithm calls CS.Enter when the process may enter, possibly at
	// once.
	Want(ctx proc.Context)
	// Exit runs the algorithm's release rule; the state is already
	// Released.
	Exit(ctx proc.Context)
}

// CS is the user side of a mutual exclusion process: its state with respect
// to the critical section, the duration of the current entry and the
// requests waiting behind it. Algorithms embed it and route their Command
// and Timer calls through it.
type CS struct {
	state   string
	dur     proc.Duration   // of the current request; 0: until the release command
	backlog []proc.Duration // durations of the requests waiting behind it
}

// Start publishes the initial state. Call it from the algorithm's Start: a
// recovered process starts Released, with its requests forgotten.
func (c *CS) Start(ctx proc.Context) {
	c.state, c.dur, c.backlog = "", 0, nil
	c.set(ctx, Released)
}

// State is Released, Wanted or Held.
func (c *CS) State() string { return c.state }

// Wanted reports whether the process is waiting to enter.
func (c *CS) Wanted() bool { return c.state == Wanted }

// Held reports whether the process is in the critical section.
func (c *CS) Held() bool { return c.state == Held }

func (c *CS) set(ctx proc.Context, s string) {
	c.state = s
	ctx.Set(KeyCS, s)
}

// Enter puts a Wanted process in the critical section and, when its request
// gave a duration, arms the timer that ends it.
func (c *CS) Enter(ctx proc.Context) {
	if c.state != Wanted {
		panic(fmt.Sprintf("mutex: process %d entering the critical section from state %q", ctx.Self(), c.state))
	}
	c.set(ctx, Held)
	if c.dur > 0 {
		ctx.SetTimer(c.dur, TimerExit)
	}
}

// Command handles request and release; it rejects any other name so that
// algorithms without commands of their own can return it directly.
func (c *CS) Command(ctx proc.Context, p Protocol, name string, args proc.Args) error {
	switch name {
	case "request":
		d, err := duration(args)
		if err != nil {
			return err
		}
		if c.state != Released {
			c.backlog = append(c.backlog, d)
			ctx.Set(KeyBacklog, len(c.backlog))
			return nil
		}
		c.want(ctx, p, d)
		return nil
	case "release":
		if len(args) > 0 {
			return fmt.Errorf("command \"release\" takes no arguments, got %s", args)
		}
		if c.state != Held {
			return fmt.Errorf("process %d is not in the critical section (cs=%s)", ctx.Self(), c.state)
		}
		ctx.CancelTimer(TimerExit)
		c.leave(ctx, p)
		return nil
	}
	names := make([]string, len(Commands))
	for i, cmd := range Commands {
		names[i] = cmd.Name
	}
	return fmt.Errorf("unknown command %q (known: %s)", name, strings.Join(names, ", "))
}

func duration(args proc.Args) (proc.Duration, error) {
	for k := range args {
		if k != "duration" {
			return 0, fmt.Errorf("command \"request\" takes only duration=<ticks>, got %s", args)
		}
	}
	d, err := args.Int("duration", 0)
	if err != nil {
		return 0, err
	}
	if d < 0 {
		return 0, fmt.Errorf("request: duration must be positive (or absent: until release), got %d", d)
	}
	return proc.Duration(d), nil
}

// Timer handles the exit timer and reports whether tag was it.
func (c *CS) Timer(ctx proc.Context, p Protocol, tag string) bool {
	if tag != TimerExit {
		return false
	}
	if c.state == Held {
		c.leave(ctx, p)
	}
	return true
}

// leave ends the critical section, runs the release rule, then serves the
// next request of the backlog.
func (c *CS) leave(ctx proc.Context, p Protocol) {
	c.set(ctx, Released)
	p.Exit(ctx)
	if len(c.backlog) > 0 && c.state == Released {
		d := c.backlog[0]
		c.backlog = slices.Delete(c.backlog, 0, 1)
		ctx.Set(KeyBacklog, len(c.backlog))
		c.want(ctx, p, d)
	}
}

func (c *CS) want(ctx proc.Context, p Protocol, d proc.Duration) {
	c.dur = d
	c.set(ctx, Wanted)
	p.Want(ctx)
}

// Clock is a Lamport logical clock: ticked before every timestamped send,
// advanced past every timestamp received. At the top of int's range, where
// only a hand-made timestamp can take it, it stays rather than wrap round to
// the lowest value, which every request would then follow.
type Clock int

// Tick advances the clock for a local event and returns the new value.
func (c *Clock) Tick() int {
	if *c < math.MaxInt {
		*c++
	}
	return int(*c)
}

// Witness advances the clock past a received timestamp.
func (c *Clock) Witness(ts int) {
	*c = Clock(max(int(*c), ts))
	c.Tick()
}

// Stamp is a request's (timestamp, id): the total order in which the
// timestamped algorithms serve requests.
type Stamp struct {
	TS int         `json:"ts"`
	ID proc.NodeID `json:"id"`
}

// Less orders stamps by timestamp, then by id.
func (a Stamp) Less(b Stamp) bool { return a.TS < b.TS || (a.TS == b.TS && a.ID < b.ID) }

// Compare is Less as a three-way comparison, for slices.SortFunc.
func (a Stamp) Compare(b Stamp) int {
	switch {
	case a.Less(b):
		return -1
	case b.Less(a):
		return 1
	}
	return 0
}
