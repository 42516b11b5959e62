package election

import (
	"fmt"

	"dsim/core/algo"
	"dsim/core/proc"
)

// The ring texts assume no failures during an election. What the ring
// algorithms here add, the same way in all three, is this file:
//
//   - messages go to Successor, which skips processes the declared failure
//     detector suspects (the trace shows its suspect and trust events);
//   - with watch on, the process that notices the coordinator's failure
//     starts an election (the texts' "detects a coordinator failure"): the
//     coordinator's first live successor, the process that would hear from
//     it, as in the lecture notes' examples where 3 notices that 6 does not
//     respond on the ring 3,5,0,1,4,6 and P2 detects that P4 is not
//     responding when P1 is down too; with watch_all every process that
//     suspects the coordinator starts one (concurrent elections); another
//     process that still follows the suspected coordinator 3·n·hop ticks
//     after suspecting it (the successor was busy with an election that
//     ended without it hearing) starts one then (timer "watch");
//   - a process in an election that sees no outcome within 3·n·hop ticks
//     starts it again (timer "restart"): a message sent to a process that
//     crashed less than the detector delay ago is lost;
//   - a recovered process waits until the detector trusts it again (timer
//     "rejoin", every hop ticks), since until then its neighbours skip it,
//     and then starts an election, so that the highest live id wins (an
//     algorithm may give it another rule: see Rejoiner);
//   - an announced coordinator that is lower than the receiver or suspected
//     is not accepted: the receiver starts an election instead (the lecture
//     notes' bully rule, "a process with a higher ID number will bully a
//     lower ID process out of the coordinator position", applied to rings),
//     because the election that chose it missed a live process.

// Ring timer tags.
const (
	RestartTimer = "restart"
	RejoinTimer  = "rejoin"
	WatchTimer   = "watch"
)

// RingParams are the configuration keys the ring algorithms share.
func RingParams() []algo.Param {
	return append(BootParams(),
		algo.Param{Name: "hop", Type: algo.Int, Default: 10, Min: 1, Max: 1e9,
			Doc: "the longest a message is assumed to take on one link, in ticks: an election with no outcome after 3·n·hop ticks is restarted, and a recovered process asks the failure detector every hop ticks whether it is trusted again"},
		algo.Param{Name: "restart", Type: algo.Bool, Default: true,
			Doc: "restart an election that has no outcome after 3·n·hop ticks (false: the texts' fault-free rules, with no timers)"},
		algo.Param{Name: "watch", Type: algo.Bool, Default: true,
			Doc: "the process that notices the coordinator's failure starts an election: its first live successor, once the failure detector suspects the coordinator (false: only the elect command, recovery and the restart timer start one)"},
		algo.Param{Name: "watch_all", Type: algo.Bool, Default: false,
			Doc: "with watch, every process that suspects the coordinator starts an election, not only its first live successor (concurrent elections)"},
	)
}

// RingConfig is the configuration RingParams describe. The processes of a
// world share their algorithm's one RingConfig, which nobody changes.
type RingConfig struct {
	Boot
	Hop     proc.Duration
	Restart bool
	Watch   bool
	// WatchAll makes every process that suspects the coordinator start an
	// election, not only the coordinator's first live successor.
	WatchAll bool
}

// RingConfigFrom reads the shared ring keys from resolved values.
func RingConfigFrom(v algo.Values) RingConfig {
	return RingConfig{Boot: BootFrom(v), Hop: v.Time("hop"), Restart: v.Bool("restart"), Watch: v.Bool("watch"), WatchAll: v.Bool("watch_all")}
}

// RingFactory validates the shared ring keys of v and returns a factory of
// nodes made by mk, all sharing one configuration: the registry entry of a
// ring algorithm whose configuration is exactly these keys.
func RingFactory(v algo.Values, mk func(cfg *RingConfig) proc.Node) (proc.Factory, error) {
	c := RingConfigFrom(v)
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return func(proc.NodeID) proc.Node { return mk(&c) }, nil
}

// Validate checks the shared ring keys.
func (c RingConfig) Validate() error {
	if err := c.Boot.Validate(); err != nil {
		return err
	}
	if c.Hop < 1 {
		return fmt.Errorf("hop must be at least 1 tick, got %d", c.Hop)
	}
	return nil
}

// Elector is a ring algorithm as the shared behaviour sees it.
type Elector interface {
	// Elect starts an election at this process, or starts it again.
	Elect(ctx proc.Context)
}

// Rejoiner is an Elector with its own rule for a recovered process that the
// detector trusts again and that knows no coordinator yet; without it, the
// process starts an election.
type Rejoiner interface {
	Rejoin(ctx proc.Context)
}

// Ring is the state and behaviour every ring process shares: its role, the
// coordinator it knows, and the timers above. Algorithms embed it and call
// its methods from their own handlers.
type Ring struct {
	Cfg *RingConfig
	// next is the process after this one in ring order; until warned its
	// successor is next. See Successor.
	next   proc.NodeID
	leader proc.NodeID // the coordinator, when known
	role   role
	known  bool
	armed  bool // the restart timer is pending
	// watching: the watch timer is pending (see Suspect)
	watching bool
	// warned: the failure detector has suspected a process since this
	// one started, or it recovered and may have missed a suspicion.
	warned bool
}

// role numbers the roles; 0 is "not yet set".
type role uint8

const (
	noRole role = iota
	leaderRole
	candidateRole
	followerRole
)

// roleValues are the KeyRole state values.
var roleValues = [...]any{leaderRole: Leader, candidateRole: Candidate, followerRole: Follower}

// Start runs at boot and on recovery. At boot a process knows the
// configured coordinator, if any, and starts an election if it is the
// configured initiator or initiate says so; a recovered process rejoins.
func (r *Ring) Start(ctx proc.Context, e Elector, initiate bool) {
	r.next, r.warned = ctx.Neighbor(1), ctx.Recovered()
	if ctx.Recovered() {
		r.setRole(ctx, followerRole)
		r.rejoin(ctx, e)
		return
	}
	if r.Cfg.Leader != None {
		r.Follow(ctx, r.Cfg.Leader)
	}
	switch {
	case initiate || r.Cfg.Start == ctx.Self():
		e.Elect(ctx)
	case r.role == noRole:
		r.setRole(ctx, followerRole)
	}
}

func (r *Ring) rejoin(ctx proc.Context, e Elector) {
	if ctx.Suspected(ctx.Self()) {
		ctx.SetTimer(r.Cfg.Hop, RejoinTimer)
		return
	}
	if !r.Electing() && !r.known {
		if j, ok := e.(Rejoiner); ok {
			j.Rejoin(ctx)
			return
		}
		ctx.Log("recovered and trusted again: starting an election")
		e.Elect(ctx)
	}
}

// Timer handles the shared timers, the only ones ring processes set.
func (r *Ring) Timer(ctx proc.Context, tag string, e Elector) {
	switch tag {
	case RejoinTimer:
		r.rejoin(ctx, e)
	case RestartTimer:
		r.armed = false
		ctx.Log("no outcome within the restart timeout: starting the election again")
		e.Elect(ctx)
	case WatchTimer:
		r.watching = false
		if lead := r.leader; r.known && !r.Electing() && lead != ctx.Self() && ctx.Suspected(lead) {
			ctx.Log("coordinator %d is still suspected and no election has reached this process: starting one", lead)
			e.Elect(ctx)
		}
	}
}

// Suspect is watch: the process that notices the coordinator's failure
// starts an election. That is the coordinator's first live successor,
// which the detector may only make this process once it suspects the
// processes between them too, so every suspicion asks again; with
// watch_all, every process that suspects the coordinator. Another process
// that suspects its coordinator arms the watch timer (with restart): if
// no election has reached it 3·n·hop ticks later and it still follows the
// suspected coordinator, it starts one, as the successor may have been in
// an election that ended without it.
func (r *Ring) Suspect(ctx proc.Context, id proc.NodeID, e Elector) {
	r.warned = true
	if !r.Cfg.Watch || !r.known || r.Electing() {
		return
	}
	lead := r.leader
	if r.Cfg.WatchAll {
		if id != lead {
			return
		}
	} else if lead == ctx.Self() || !ctx.Suspected(lead) {
		return
	} else if !watches(ctx, lead) {
		if r.Cfg.Restart && !r.watching {
			r.watching = true
			ctx.SetTimer(proc.Duration(3*ctx.N())*r.Cfg.Hop, WatchTimer)
		}
		return
	}
	ctx.Log("coordinator %d is suspected: starting an election", lead)
	e.Elect(ctx)
}

// watches reports whether this process is the first one after lead in ring
// order that the detector does not suspect: the one lead's messages would
// reach, which notices that it does not respond.
func watches(ctx proc.Context, lead proc.NodeID) bool {
	for d := 1; d < ctx.N(); d++ {
		switch id := ctx.Neighbor(-d); {
		case id == lead:
			return true
		case !ctx.Suspected(id):
			return false
		}
	}
	return false
}

// Successor is the process ring messages go to: the first one after this
// one in ring order that the failure detector does not suspect (the
// Context's Successor), which is the next one as long as the detector has
// suspected nobody.
func (r *Ring) Successor(ctx proc.Context) proc.NodeID {
	if !r.warned {
		return r.next
	}
	return ctx.Successor()
}

// Toward returns the Successor for a message that travels round the ring
// until it is back at owner. ok is false when the successor lies beyond
// owner, which the detector suspects: the message could then only circle,
// so the caller drops it.
func (r *Ring) Toward(ctx proc.Context, owner proc.NodeID) (next proc.NodeID, ok bool) {
	if !r.warned { // the usual case, kept small so that it is inlined into every forward
		return r.next, true
	}
	return r.toward(ctx, owner)
}

func (r *Ring) toward(ctx proc.Context, owner proc.NodeID) (next proc.NodeID, ok bool) {
	next = ctx.Successor()
	if next == r.next { // no process was skipped
		return next, true
	}
	for d := 1; d < ctx.N(); d++ {
		switch id := ctx.Neighbor(d); {
		case id == next:
			return next, true
		case id == owner:
			return next, false
		}
	}
	return next, true // every other process is suspected: next is this one
}

// Leading reports whether this process is the coordinator.
func (r *Ring) Leading() bool { return r.role == leaderRole }

// Electing reports whether this process takes part in an election.
func (r *Ring) Electing() bool { return r.role == candidateRole }

// setRole records the role.
func (r *Ring) setRole(ctx proc.Context, to role) {
	if r.role != to {
		r.role = to
		ctx.Set(KeyRole, roleValues[to])
	}
}

// Candidate marks this process as taking part in an election and arms the
// restart timer. A process already in the election with the timer armed
// (or none wanted) does nothing, and is told so without a call: every
// forwarded ELECTION asks.
func (r *Ring) Candidate(ctx proc.Context) {
	if r.role != candidateRole || r.Cfg.Restart && !r.armed {
		r.candidate(ctx)
	}
}

func (r *Ring) candidate(ctx proc.Context) {
	r.setRole(ctx, candidateRole)
	r.unwatch(ctx)
	if r.Cfg.Restart && !r.armed {
		r.armed = true
		ctx.SetTimer(proc.Duration(3*ctx.N())*r.Cfg.Hop, RestartTimer)
	}
}

// Follow records id as the coordinator: the election is over here.
func (r *Ring) Follow(ctx proc.Context, id proc.NodeID) {
	r.leader, r.known = id, true
	ctx.Set(KeyLeader, id)
	if id == ctx.Self() {
		r.setRole(ctx, leaderRole)
	} else {
		r.setRole(ctx, followerRole)
	}
	if r.armed {
		r.armed = false
		ctx.CancelTimer(RestartTimer)
	}
	r.unwatch(ctx)
}

// unwatch cancels the watch timer: an election has reached this process.
func (r *Ring) unwatch(ctx proc.Context) {
	if r.watching {
		r.watching = false
		ctx.CancelTimer(WatchTimer)
	}
}

// Accepts reports whether this process accepts id, announced as the new
// coordinator; the caller then follows it and passes the announcement on. A
// coordinator lower than this process, or one the detector suspects, is
// refused, and this process starts an election unless it is in one already.
// An announcement lower than the coordinator this process already follows,
// which the detector does not suspect, is a late one from an older election
// (messages can overtake each other): it is dropped.
func (r *Ring) Accepts(ctx proc.Context, id proc.NodeID, e Elector) bool {
	if lead := r.leader; r.known && id < lead && lead != ctx.Self() && !ctx.Suspected(lead) {
		ctx.Log("announced coordinator %d is older news than %d: dropped", id, lead)
		return false
	}
	var why string
	switch {
	case id < ctx.Self():
		why = "is lower than this process"
	case id != ctx.Self() && ctx.Suspected(id):
		why = "is suspected"
	default:
		return true
	}
	if r.Electing() {
		ctx.Log("announced coordinator %d %s: ignored, an election is under way", id, why)
	} else {
		ctx.Log("announced coordinator %d %s: starting an election", id, why)
		e.Elect(ctx)
	}
	return false
}
