// Package berkeley is the Berkeley algorithm: a master polls the other
// processes' clocks, estimates each from half the round trip, averages the
// ones that agree and sends every process the adjustment that brings its
// clock to that average, which the processes slew (Coulouris et al.,
// "Distributed Systems: Concepts and Design", section 14.3.3 "The Berkeley
// algorithm"; Tanenbaum and van Steen, "Distributed Systems: Principles and
// Paradigms", section 6.1.3 "Clock Synchronization Algorithms", Figure
// 6-7). The master is elected by the bully algorithm, a second layer.
package berkeley

import (
	"fmt"
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/clock"
	"dsim/core/algo/compose"
	"dsim/core/algo/election"
	_ "dsim/core/algo/election/bully" // the election layer
	"dsim/core/proc"
)

// Adjust tells a process how much to change its clock by: Delta, not a
// time, so that the time the message takes does not matter. Round names
// the reference (the round's average); Err bounds how far from it the
// adjustment leaves the clock.
type Adjust struct {
	Round int `json:"round"`
	Delta int `json:"delta"`
	Err   int `json:"err"`
}

func (Adjust) Kind() string { return "ADJUST" }

// Timer tags: round polls the clocks, gather ends a round's waiting for
// replies.
const (
	timerRound  = "round"
	timerGather = "gather"
)

// layerName is the election layer's: its keys read election_*.
const layerName = "election"

func init() {
	bully, err := algo.Lookup("election.bully")
	if err != nil {
		panic(err)
	}
	algo.Register(algo.Spec{
		Name:    "clock.berkeley",
		Summary: "the Berkeley algorithm: an elected master polls every clock, averages those within cutoff of each other (RTT/2 estimates) and sends each process its own adjustment, which it slews",
		Description: `Text: Coulouris et al., "Distributed Systems: Concepts and Design", section 14.3.3 "The Berkeley algorithm"; Tanenbaum and van Steen, "Distributed Systems: Principles and Paradigms", section 6.1.3 "Clock Synchronization Algorithms", Figure 6-7 (the lecture notes' section 3.1 names only the heading).
Rules: every period ticks the master polls the other processes (TIME?); each answers with its clock (TIME). The master estimates each clock's offset from its own as t + T_round/2 − (its clock at the reply), the error of the estimate being at most T_round/2 − min. It takes a fault-tolerant average (Coulouris): of the largest subset of offsets, its own 0 among them, that differ from one another by at most cutoff (the earliest such subset on a tie), ignoring the others, and sends each process, excluded ones too, the amount to adjust its clock by: the average minus its offset (Tanenbaum's 3:00, 3:25, 2:50: +0:05, −0:20, +0:15). Processes slew by the adjustment over slew ticks (more when it would lose a tick per tick), never setting a clock back, the master too; a process still slewing does not answer a poll, and a master still slewing starts no round (a clock read mid-slew would be estimated short of what it has yet to gain).
The master is chosen by election.bully as a second layer (its keys read election_*): the highest process calls an election at boot (where the bully's elections all end, for n messages), and the process whose election layer sets leader to itself is the master; followers probe it every election_probe ticks, so a crashed master is replaced.
Claims: the round's average is the reference (clock_ref names the master and the round); each process claims the error of its estimate plus the drift since (ρ from drift_ppm, twice: the master's clock drifts too) plus what it is still to slew, and only the error once the slew is done. The master claims 0. clock.skew compares the processes of one round; Berkeley makes no claim about true time.
Runs: the rounds go on every period ticks, so a run never becomes quiescent: scenarios end it with w:run{until_time = T} (a bare w:run() stops at the event limit or the memory budget).
Assumptions: no message arrives in less than min ticks, nor later than timeout (the gather window is timeout ticks: a later reply is not averaged), clocks drift by at most drift_ppm; the bully's own assumptions. A process whose reply is lost keeps its previous round's claim until the next.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			FIFO: true, Crashes: algo.CrashRecovery, Latency: algo.LatencyBound{Key: "timeout", Trips: 2, Timeout: true},
			Clocks: algo.ClockModel{Drift: "drift_ppm", MinLatency: "min"},
		},
		Config: append(append([]algo.Param{
			{Name: "cutoff", Type: algo.Int, Default: 50, Min: 0, Max: 1e9, Doc: "the fault-tolerant average keeps the largest subset of clocks that differ from one another by at most this many ticks"},
			{Name: "slew", Type: algo.Int, Default: 100, Min: 1, Max: 1e9, Doc: "ticks over which a process spreads its adjustment (a loss of d ticks takes at least d+1)"},
		}, clock.PhysicalParams(200)...), compose.Params(layerName, bully, map[string]any{"probe": 100})...),
		State: append([]algo.StateKey{
			{Key: clock.KeyBound, Doc: "the skew claimed against the round's average: the estimate's error, the drift since, and the slew still to come"},
			{Key: clock.KeyRef, Doc: "the round the claim refers to: master@round"},
			{Key: clock.KeyDrift, Doc: "ρ, the drift bound, in millionths"},
		}, election.StateKeys...),
		Commands:   bully.Commands,
		Messages:   append([]proc.Message{clock.Request{}, clock.Reply{}, Adjust{}}, bully.Messages...),
		Properties: []algo.Property{clock.Skew, clock.Monotonic},
		New: func(v algo.Values) (proc.Factory, error) {
			lower, err := compose.Layer(layerName, "election.bully", v)
			if err != nil {
				return nil, err
			}
			cfg := config{period: v.Time("period"), min: v.Int("min"), timeout: v.Time("timeout"), cutoff: v.Int("cutoff"),
				slew: v.Time("slew"), drift: clock.Drift(v.Int("drift_ppm")), elect: v.ID(layerName+"_leader") == election.None}
			return compose.Factory(
				compose.Part{New: func(proc.NodeID) proc.Node { return &node{config: cfg} }, Messages: []proc.Message{clock.Request{}, clock.Reply{}, Adjust{}}},
				lower,
			)
		},
		Memory: clock.Memory(1300, 9, 200, 240),
	})
}

type config struct {
	period, timeout, slew proc.Duration
	min, cutoff           int
	drift                 clock.Drift
	elect                 bool // no leader configured: the highest process elects itself at boot
}

type node struct {
	config
	clock.Slewer
	layers compose.Layers
	claim  clock.Claim
	master bool
	leader proc.NodeID
	// The master's round: when it started (its clock, which names it) and
	// the samples gathered.
	round   proc.Time
	samples []clock.Sample
	// The adjustment being slewed, to claim its error alone once done.
	settle int
}

func (p *node) UseLayers(ls compose.Layers) { p.layers = ls }

// Observe follows the election layer: the leader is the master.
func (p *node) Observe(ctx proc.Context, layer, key string, v any) {
	if key != election.KeyLeader {
		return
	}
	p.leader, _ = v.(proc.NodeID)
	if was := p.master; p.leader == ctx.Self() != was {
		p.master = !was
		if p.master {
			ctx.Log("elected: this process is the master")
			ctx.SetTimer(0, timerRound)
		} else {
			ctx.CancelTimer(timerRound)
			ctx.CancelTimer(timerGather)
		}
	}
}

func (p *node) Start(ctx proc.Context) {
	p.Slewer.Start(ctx)
	p.claim.Drift = p.drift
	p.claim.Start(ctx, "", 0, false)
	// The highest process calls the boot election: it has nobody to send
	// ELECTION to and announces itself at once, the outcome of an election
	// called anywhere, for n messages instead of up to n².
	if p.elect && !ctx.Recovered() && !slices.ContainsFunc(ctx.Peers(), func(id proc.NodeID) bool { return id > ctx.Self() }) {
		if err := p.layers.Call(layerName, "elect", nil); err != nil {
			ctx.Log("elect: %v", err)
		}
	}
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch m := m.(type) {
	case clock.Request:
		// A clock still slewing would be estimated short of the part it
		// has yet to gain: it sits this round out.
		if !p.Busy() {
			clock.Answer(ctx, from, m, 0, 0)
		}
	case clock.Reply:
		if p.master && m.Seq == int(p.round) && !slices.ContainsFunc(p.samples, func(s clock.Sample) bool { return s.From == from }) {
			p.samples = append(p.samples, clock.Sample{From: from, T1: p.round, T2: m.T2, T3: m.T3, T4: ctx.Now()})
		}
	case Adjust:
		if from == p.leader {
			p.adjust(ctx, fmt.Sprintf("%d@%d", from, m.Round), m.Delta, m.Err)
		}
	}
}

func (p *node) Timer(ctx proc.Context, tag string) {
	if p.Done(tag) {
		p.claim.Set(ctx, ctx.Get(clock.KeyRef).(string), p.settle)
		return
	}
	switch tag {
	case timerRound:
		// The master polls every other process at once: the round is named
		// by its clock at the poll, which every request carries.
		if round, ok := p.Poll(ctx, ctx.Peers(), p.period, p.timeout, timerRound, timerGather); ok {
			p.round, p.samples = round, p.samples[:0]
		}
	case timerGather:
		p.average(ctx)
	}
}

// Estimate is the master's estimate of one clock: its offset from the
// master's and the error of the estimate.
type Estimate struct {
	ID     proc.NodeID
	Offset int
	Err    int
}

// average ends the master's round: it averages the clocks that agree and
// sends each process its adjustment.
func (p *node) average(ctx proc.Context) {
	est := []Estimate{{ID: ctx.Self()}}
	now := ctx.Now()
	for _, s := range p.samples {
		// The clock read T3 about T_round/2 before the reply arrived at T4,
		// and has run on since, as has the master's.
		off := s.T3 + s.RTT()/2 - s.T4
		est = append(est, Estimate{ID: s.From, Offset: int(off), Err: s.Error(p.min, p.drift)})
	}
	adj, kept := Adjustments(est, p.cutoff)
	ctx.Log("round %d: average of %d of %d clocks", p.round, kept, len(est))
	// Each clock moves on from its estimate until the adjustment arrives,
	// at most timeout later: both clocks drift meanwhile.
	since := 2 * p.drift.Grow(int(now-p.round+p.timeout))
	for i, e := range est {
		if e.ID == ctx.Self() {
			p.adjust(ctx, fmt.Sprintf("%d@%d", e.ID, p.round), adj[i], 0)
		} else {
			ctx.Send(e.ID, Adjust{Round: int(p.round), Delta: adj[i], Err: e.Err + since})
		}
	}
}

// Adjustments is the fault-tolerant average (Coulouris): the largest
// subset of offsets within cutoff of one another (the earliest in offset
// order on a tie) is averaged, rounding down, and every estimate gets the
// average minus its offset. kept is the size of the subset.
func Adjustments(est []Estimate, cutoff int) (adj []int, kept int) {
	offs := make([]int, len(est))
	for i, e := range est {
		offs[i] = e.Offset
	}
	slices.Sort(offs)
	lo := 0
	for i, j := 0, 0; j < len(offs); j++ {
		for offs[j]-offs[i] > cutoff {
			i++
		}
		if j-i+1 > kept {
			lo, kept = i, j-i+1
		}
	}
	sum := 0
	for _, o := range offs[lo : lo+kept] {
		sum += o
	}
	avg := sum / kept
	if sum%kept != 0 && sum < 0 {
		avg-- // rounding down
	}
	adj = make([]int, len(est))
	for i, e := range est {
		adj[i] = avg - e.Offset
	}
	return adj, kept
}

// adjust slews the clock by delta, never backwards, and claims its
// distance from the round's average: err, plus the slew still to come
// until it is done.
func (p *node) adjust(ctx proc.Context, ref string, delta, err int) {
	over := p.Slew(ctx, proc.Duration(delta), p.slew)
	if over == 0 {
		return
	}
	p.claim.Set(ctx, ref, err+max(delta, -delta))
	p.settle = err + 2*p.drift.Grow(int(over))
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return clock.NoCommand(name)
}
