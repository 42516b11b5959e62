package clock

import (
	"fmt"

	"dsim/core/algo"
	"dsim/core/proc"
)

// The properties of physical clock synchronization (Coulouris et al.,
// "Distributed Systems: Concepts and Design", section 14.3 "Synchronizing
// physical clocks"; Tanenbaum and van Steen, "Distributed Systems:
// Principles and Paradigms", section 6.1 "Clock Synchronization"), judged
// by core/check from the events' true time T and local reading Local
// against the bounds the algorithms claim (see KeyBound).
const (
	Skew      = "clock.skew"
	Accuracy  = "clock.accuracy"
	Monotonic = "clock.monotonic"
)

// State keys of the physical clocks: each synchronization claims a bound.
//
// KeyBound is the claim itself, an int b in ticks, set (after clearing it)
// at each synchronization once the correction is made: |C_i − R| <= b now, R being
// the reference KeyRef names. Until the next claim the bound grows as the
// clock drifts: by ceil(ρ·Δ) + 1 ticks Δ true ticks later (the one for the
// hardware clock's rounding), ρ being KeyDrift, and twice that between two
// clocks (the reference may drift too). A crash ends the claim; the
// process claims nothing until it sets the key again.
//
// KeyRef names the reference R, set before the bound: RefUTC is true time
// (clock.accuracy judges |C_i − t|); any other value is an internal
// reference (a Berkeley round's average), against which only the
// processes claiming the same reference are compared (clock.skew:
// |C_i − C_j| <= b_i + b_j).
//
// KeyDrift is ρ, the drift rate the algorithm assumes of every hardware
// clock, in millionths (10000 is 1%): set at start from the configuration.
const (
	KeyBound = "clock_bound"
	KeyRef   = "clock_ref"
	KeyDrift = "drift_ppm"
	RefUTC   = "utc"
)

func init() {
	algo.DeclareProperty(Skew, "once processes claim bounds b_i, b_j against the same reference (state clock_bound, clock_ref), their clocks differ by at most b_i + b_j, each grown by 2(ρ·Δ + 1) in the Δ ticks since it was claimed (ρ the state drift_ppm); judged at every event against the other live processes' latest readings, extrapolated with ρ")
	algo.DeclareProperty(Accuracy, "once a process claims a bound b against true time (clock_ref utc), its reading at every event is within b + ρ·Δ + 1 of true time, Δ the ticks since the claim (ρ the state drift_ppm)")
	algo.DeclareProperty(Monotonic, "no clock runs backwards: each process's readings at its successive events never decrease, and no correction steps a clock back")
}

// External is the system model of external synchronization to the
// reference the configuration key reference names (Cristian, NTP): lost
// and duplicated messages only delay a correction, processes may crash and
// recover, every reply comes within timeout ticks and none sooner than
// min, clocks drift by at most drift_ppm, and the reference's reads true
// time.
func External(reference string) algo.Assumptions {
	return algo.Assumptions{
		Loss: true, Duplication: true, Crashes: algo.CrashRecovery,
		Latency: algo.LatencyBound{Key: "timeout", Trips: 2, Timeout: true},
		Clocks:  algo.ClockModel{Drift: "drift_ppm", MinLatency: "min", Reference: reference},
	}
}

// UTCClaims are the state keys of an external synchronization's claims
// against true time; bound says what its bound holds.
func UTCClaims(bound string) []algo.StateKey {
	return []algo.StateKey{
		{Key: KeyBound, Doc: bound},
		{Key: KeyRef, Doc: "the reference claimed against: utc"},
		{Key: KeyDrift, Doc: "ρ, the drift bound, in millionths"},
	}
}

// PhysicalParams are the configuration keys every physical clock
// synchronization shares.
func PhysicalParams(period int) []algo.Param {
	return []algo.Param{
		{Name: "period", Type: algo.Int, Default: period, Doc: "ticks of local time between two rounds of synchronization", Min: 1, Max: 1e6},
		{Name: "min", Type: algo.Int, Default: 1, Doc: "the minimum one-way latency, in ticks, the bound assumes of every message: no message arrives sooner", Min: 0, Max: 1e6},
		{Name: "timeout", Type: algo.Int, Default: 50, Doc: "ticks of local time to wait for a reply before giving up on it (the latency bound: a round trip in less)", Min: 1, Max: 1e6},
		{Name: "drift_ppm", Type: algo.Int, Default: 10000, Doc: "ρ, the bound on every hardware clock's drift rate, in millionths (10000: 1%), by which a claimed bound grows", Min: 0, Max: 499999},
	}
}

// Request asks a process for its clock (Cristian's m_r; NTP's first
// message; the Berkeley master's poll).
type Request struct {
	Seq int `json:"seq"`
}

func (Request) Kind() string { return "TIME?" }

// Reply answers a Request: T2 is the responder's reading when the request
// arrived, T3 when the reply left (the same here, as replies leave at once),
// Bound its own claimed bound then (0 for a reference clock) and Stratum its
// NTP stratum (0: none).
type Reply struct {
	Seq     int       `json:"seq"`
	T2      proc.Time `json:"t2"`
	T3      proc.Time `json:"t3"`
	Bound   int       `json:"bound"`
	Stratum int       `json:"stratum"`
}

func (Reply) Kind() string { return "TIME" }

// Sample is one request and its reply, timed by the asker's clock: T1 the
// request left, T4 the reply arrived.
type Sample struct {
	From           proc.NodeID
	T1, T2, T3, T4 proc.Time
	Bound, Stratum int
}

// RTT is the round trip the asker measured, T4 − T1 (Cristian's T_round).
func (s Sample) RTT() proc.Time { return s.T4 - s.T1 }

// Delay is NTP's δ = (T4 − T1) − (T3 − T2): the round trip less the time
// the responder held the request.
func (s Sample) Delay() proc.Time { return (s.T4 - s.T1) - (s.T3 - s.T2) }

// Offset is NTP's θ = ((T2 − T1) + (T3 − T4)) / 2, the responder's clock
// minus the asker's, rounded down: exact when the two crossings took
// equally long, off by at most δ/2 otherwise.
func (s Sample) Offset() proc.Time { return floorHalf((s.T2 - s.T1) + (s.T3 - s.T4)) }

func floorHalf(x proc.Time) proc.Time {
	if x < 0 {
		return -((1 - x) / 2)
	}
	return x / 2
}

// Error bounds the error of an estimate of the responder's clock from the
// sample: half the delay less the minimum one-way latency min (Cristian's
// ±(T_round/2 − min)), rounded up, plus what the asker's clock may have
// drifted while it measured the delay, plus the responder's own bound.
func (s Sample) Error(min int, drift Drift) int {
	d := int(s.Delay())
	return (d+1)/2 - min + drift.Grow(d) + s.Bound
}

// Drift is ρ in millionths.
type Drift int

// Grow is what a bound grows by over d ticks: ceil(ρ·d) + 1, or nothing
// when ρ is 0 (a clock that does not drift is not rounded either).
func (r Drift) Grow(d int) int {
	if r == 0 || d <= 0 {
		return 0
	}
	return int((int64(r)*int64(d)+999_999)/1_000_000) + 1
}

// Asker sends requests one at a time and keeps the samples of a round: the
// request in flight (by Seq), so that a late reply to an abandoned request
// is ignored.
type Asker struct {
	seq     int
	to      proc.NodeID
	t1      proc.Time
	waiting bool
}

// TimerTimeout is the tag of an Asker's timeout.
const TimerTimeout = "timeout"

// Ask sends a request to `to` and arms the timeout.
func (a *Asker) Ask(ctx proc.Context, to proc.NodeID, timeout proc.Duration) {
	a.seq++
	a.to, a.t1, a.waiting = to, ctx.Now(), true
	ctx.Send(to, Request{Seq: a.seq})
	ctx.SetTimer(timeout, TimerTimeout)
}

// Take turns the reply to the request in flight into a sample; ok is false
// for any other message (a late, duplicated or hand-made reply).
func (a *Asker) Take(ctx proc.Context, from proc.NodeID, r Reply) (s Sample, ok bool) {
	if !a.waiting || r.Seq != a.seq || from != a.to {
		return Sample{}, false
	}
	a.waiting = false
	ctx.CancelTimer(TimerTimeout)
	return Sample{From: from, T1: a.t1, T2: r.T2, T3: r.T3, T4: ctx.Now(), Bound: r.Bound, Stratum: r.Stratum}, true
}

// TimedOut abandons the request in flight when tag is the timeout's, and
// reports whether it was.
func (a *Asker) TimedOut(tag string) bool {
	if tag != TimerTimeout {
		return false
	}
	a.waiting = false
	return true
}

// Answer replies to a request at once with this process's clock.
func Answer(ctx proc.Context, to proc.NodeID, q Request, bound, stratum int) {
	now := ctx.Now()
	ctx.Send(to, Reply{Seq: q.Seq, T2: now, T3: now, Bound: bound, Stratum: stratum})
}

// Claim is a process's latest claimed bound, kept to answer with its
// present value: the claim grown by the drift since, measured on its own
// clock (a drifting clock measures Δ within ρ·Δ, which one more Grow
// covers). A reference clock's claim does not grow: its receiver keeps it
// on true time (a time server's UTC receiver, NTP's stratum 1).
type Claim struct {
	Drift     Drift
	b         int
	at        proc.Time
	ok, fixed bool
}

// Start sets KeyDrift, and when reference is set, claims b against ref
// for good: a reference clock claims 0 against true time at boot, and
// keeps that claim.
func (c *Claim) Start(ctx proc.Context, ref string, b int, reference bool) {
	ctx.Set(KeyDrift, int(c.Drift))
	c.ok, c.fixed = false, reference
	if reference {
		c.Set(ctx, ref, b)
	}
}

// Set claims |C − ref| <= b from now on.
func (c *Claim) Set(ctx proc.Context, ref string, b int) {
	c.b, c.at, c.ok = b, ctx.Now(), true
	// Cleared first, so that every claim is an event of its own, at its
	// time, even when it repeats the bound (the kernel records no
	// unchanged value), and no event between the reference's change and
	// the bound's carries the old bound against the new reference.
	ctx.Set(KeyBound, nil)
	if ctx.Get(KeyRef) != ref {
		ctx.Set(KeyRef, ref)
	}
	ctx.Set(KeyBound, b)
}

// Now is the claim grown to now; ok is false before the first claim.
func (c *Claim) Now(ctx proc.Context) (b int, ok bool) {
	if !c.ok {
		return 0, false
	}
	if c.fixed {
		return c.b, true
	}
	d := max(int(ctx.Now()-c.at), 0)
	return c.b + 2*c.Drift.Grow(d), true
}

// NoCommand is the error of a command sent to a physical clock, which the
// scenario drives by time alone.
func NoCommand(name string) error {
	return fmt.Errorf("unknown command %q: the clock synchronizations take no commands", name)
}

// Memory is the figure of a physical clock synchronization whose processes
// correct their clocks once a round of period ticks: boot bytes each, and
// through the light load (which runs 20n + 2000 ticks) the kernel's clock
// history, about 200 bytes a correction until it holds 2^15 of them over
// every process and starts again; plus perPeer bytes for every other
// process (the light load's election, where there is one: n² messages).
func Memory(boot uint64, bootEvents, period int, perPeer uint64) algo.Memory {
	return algo.Memory{Boot: algo.Bytes(boot), BootEvents: bootEvents, Load: func(n int) uint64 {
		const entry, most = 200, 1 << 15
		return uint64(min((20*n+2000)/period*entry, most*entry/max(n, 1))) + algo.PerPeer(0, perPeer)(n)
	}}
}

// Slewer slews the clock and knows when the slew is done: a round trip
// timed across a slew, or a clock read while it still has to gain, would
// be taken for the clock's own, so the algorithms start no round while
// one is in progress.
type Slewer struct{ busy bool }

// TimerSlewed is the tag of the timer that marks the end of a slew.
const TimerSlewed = "slewed"

// Slew slews as the function Slew, and is busy until it is done.
func (s *Slewer) Slew(ctx proc.Context, delta, over proc.Duration) proc.Duration {
	over = Slew(ctx, delta, over)
	if over > 0 && delta != 0 {
		s.busy = true
		ctx.SetTimer(over, TimerSlewed)
	}
	return over
}

// Start abandons, in a recovered process, the rest of a slew its earlier
// life left in progress, which it no longer knows of (the clock keeps what
// the slew gained so far): a slew of 0 replaces it.
func (s *Slewer) Start(ctx proc.Context) {
	s.busy = false
	if ctx.Recovered() {
		ctx.SlewClock(0, 1)
	}
}

// Busy reports whether a slew is in progress.
func (s *Slewer) Busy() bool { return s.busy }

// Done ends the slew when tag is the end's, and reports whether it was.
func (s *Slewer) Done(tag string) bool {
	if tag != TimerSlewed {
		return false
	}
	s.busy = false
	return true
}

// Poll starts a round of time requests, every period ticks: it re-arms the
// period; then, unless a slew is in progress (a round trip timed across it
// would be off by what the clock has yet to gain), it sends each of peers a
// Request named by the clock's reading, which it returns with true, and
// arms the gather timer to end the round timeout ticks later.
func (s *Slewer) Poll(ctx proc.Context, peers []proc.NodeID, period, timeout proc.Duration, tag, gather string) (proc.Time, bool) {
	ctx.SetTimer(period, tag)
	if s.busy {
		ctx.Log("slewing: no round")
		return 0, false
	}
	round := ctx.Now()
	for _, id := range peers {
		ctx.Send(id, Request{Seq: int(round)})
	}
	ctx.SetTimer(timeout, gather)
	return round, true
}

// Slew slews the clock by delta over at least `over` ticks, longer for a
// loss that would otherwise lose a tick per tick, so that it never runs
// backwards; it returns the ticks it takes. A delta beyond proc.MaxDelay
// (only a hand-made message carries one) is refused with a log line and
// takes none.
func Slew(ctx proc.Context, delta, over proc.Duration) proc.Duration {
	if delta > proc.MaxDelay || delta < -proc.MaxDelay+1 {
		ctx.Log("a correction of %d ticks is beyond any clock: ignored", delta)
		return 0
	}
	over = min(max(over, -delta+1), proc.MaxDelay)
	if delta != 0 {
		ctx.SlewClock(delta, over)
	}
	return over
}
