// Package ntp is the Network Time Protocol's synchronization subnet: the
// reference servers (stratum 1) read true time, and every other process
// synchronizes to a neighbour one stratum lower, estimating its offset θ
// and the round-trip delay δ from four timestamps and keeping, of the last
// eight samples, the one of least delay (Coulouris et al., "Distributed
// Systems: Concepts and Design", section 14.3.4 "The Network Time
// Protocol"; Tanenbaum and van Steen, "Distributed Systems: Principles and
// Paradigms", section 6.1.3 "Clock Synchronization Algorithms", "Network
// Time Protocol").
package ntp

import (
	"math"
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/clock"
	"dsim/core/proc"
)

// Timer tags: poll starts a round, gather ends it.
const (
	timerPoll   = "poll"
	timerGather = "gather"
)

// filterSize is the clock filter's window: the last eight samples of a peer.
const filterSize = 8

func init() {
	algo.Register(algo.Spec{
		Name:    "clock.ntp",
		Summary: "NTP's synchronization subnet: stratum-1 references read true time, each other process syncs to its neighbour of lowest stratum with θ = ((T2−T1)+(T3−T4))/2, δ = (T4−T1)−(T3−T2), filtering the last 8 samples for the least δ",
		Description: `Text: Coulouris et al., "Distributed Systems: Concepts and Design", section 14.3.4 "The Network Time Protocol"; Tanenbaum and van Steen, "Distributed Systems: Principles and Paradigms", section 6.1.3 "Clock Synchronization Algorithms" (the lecture notes' section 3.1 names only the heading).
Rules: the reference process (config reference) is a primary server, stratum 1: its clock reads true time (the scenario leaves it exact) and it never corrects it. Every period ticks each other process polls its neighbours in the topology (the default is a tree rooted at the reference); each reply carries T2 (when the request arrived), T3 (when the reply left) and the replier's stratum (0: not synchronized yet). With T1 and T4, the asker's clock when the request left and the reply arrived, the offset of the replier's clock is θ = ((T2−T1)+(T3−T4))/2 and the delay δ = (T4−T1)−(T3−T2); the true offset lies within θ ± δ/2. Each peer's last 8 samples form its clock filter, and the sample of least δ is the peer's estimate. The process synchronizes to the synchronized neighbour of lowest stratum (then least filtered δ, then lowest id) and becomes one stratum higher: over a tree the strata follow the depth, and errors accumulate down it.
Correction: an offset beyond step ticks is stepped, a smaller one slewed over period − timeout ticks, done by the next poll (NTP steps large offsets, slews the rest); no poll starts while a slew is in progress, which would time a round trip on a clock that gains or loses as it goes. The samples in the filter are relative to the asker's clock, so a correction is taken off them.
Claims: a reference claims 0 against true time; a process claims, at its correction, ceil(δ/2) − min of the sample used, plus the server's own claim at T3, plus the drift over δ and over the sample's age (ρ from drift_ppm, twice), plus what a slew has still to gain.
Runs: the rounds go on every period ticks, so a run never becomes quiescent: scenarios end it with w:run{until_time = T} (a bare w:run() stops at the event limit or the memory budget).
Assumptions: no message arrives in less than min ticks, every reply within timeout (a later one is not used), clocks drift by at most drift_ppm, the reference reads true time. Loss and crashes only delay synchronization.`,
		Topology:    "tree",
		Assumptions: clock.External("reference"),
		Config: append([]algo.Param{
			{Name: "reference", Type: algo.Int, Default: -1, Min: -1, Max: math.MaxInt32, Doc: "the stratum-1 server, which reads true time (-1: the first process in ring order)", Process: true},
			{Name: "step", Type: algo.Int, Default: 128, Min: 0, Max: 1e9, Doc: "offsets beyond this many ticks are stepped, smaller ones slewed"},
		}, clock.PhysicalParams(100)...),
		State: append(clock.UTCClaims("the accuracy claimed at the latest correction (0 at a reference)"),
			algo.StateKey{Key: keyStratum, Doc: "the process's stratum: 1 at a reference, one more than its synchronization source's once synchronized"}),
		Messages:   []proc.Message{clock.Request{}, clock.Reply{}},
		Properties: []algo.Property{clock.Accuracy, clock.Skew},
		New: func(v algo.Values) (proc.Factory, error) {
			cfg := config{reference: v.ID("reference"), step: proc.Time(v.Int("step")), period: v.Time("period"),
				min: v.Int("min"), timeout: v.Time("timeout"), drift: clock.Drift(v.Int("drift_ppm"))}
			return func(proc.NodeID) proc.Node { return &node{config: cfg} }, nil
		},
		// Each process keeps up to 8 samples of each neighbour; it corrects
		// its clock rarely once synchronized (θ is then 0).
		Memory: algo.Memory{Boot: algo.Bytes(1400), Load: algo.Bytes(2800), BootEvents: 10},
	})
}

// keyStratum is the stratum state key.
const keyStratum = "stratum"

type config struct {
	reference proc.NodeID
	step      proc.Time
	period    proc.Duration
	min       int
	timeout   proc.Duration
	drift     clock.Drift
}

type node struct {
	config
	clock.Slewer
	claim   clock.Claim
	stratum int // 0: not synchronized
	round   proc.Time
	replies []clock.Sample                 // this round's
	filters map[proc.NodeID][]clock.Sample // each peer's last 8 samples, oldest first
}

func (p *node) Start(ctx proc.Context) {
	ref := p.reference
	if ref == -1 {
		ref = ctx.Neighbor(-ctx.Index())
		if ctx.Index() == 0 {
			ref = ctx.Self()
		}
	}
	p.Slewer.Start(ctx)
	p.claim.Drift = p.drift
	p.stratum, p.filters = 0, map[proc.NodeID][]clock.Sample{}
	if !ctx.IsProcess(ref) {
		ctx.Log("config reference: %d is not a process: no stratum-1 server", ref)
	}
	if ctx.Self() == ref {
		p.stratum = 1
		ctx.Set(keyStratum, 1)
	}
	p.claim.Start(ctx, clock.RefUTC, 0, p.stratum == 1)
	if p.stratum != 1 {
		ctx.SetTimer(0, timerPoll)
	}
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch m := m.(type) {
	case clock.Request:
		b, _ := p.claim.Now(ctx)
		clock.Answer(ctx, from, m, b, p.stratum)
	case clock.Reply:
		if m.Seq == int(p.round) && m.Stratum > 0 && !slices.ContainsFunc(p.replies, func(s clock.Sample) bool { return s.From == from }) {
			p.replies = append(p.replies, clock.Sample{From: from, T1: p.round, T2: m.T2, T3: m.T3, T4: ctx.Now(), Bound: m.Bound, Stratum: m.Stratum})
		}
	}
}

func (p *node) Timer(ctx proc.Context, tag string) {
	if p.Done(tag) {
		return
	}
	switch tag {
	case timerPoll:
		if round, ok := p.Poll(ctx, ctx.Neighbors(), p.period, p.timeout, timerPoll, timerGather); ok {
			p.round, p.replies = round, p.replies[:0]
		}
	case timerGather:
		for _, s := range p.replies {
			f := append(p.filters[s.From], s)
			p.filters[s.From] = f[max(len(f)-filterSize, 0):]
		}
		p.sync(ctx)
	}
}

// Filter is the clock filter: of a peer's last samples, the one of least
// delay δ (the latest of equals), whose θ is the most trustworthy.
func Filter(samples []clock.Sample) clock.Sample {
	best := samples[0]
	for _, s := range samples[1:] {
		if s.Delay() <= best.Delay() {
			best = s
		}
	}
	return best
}

// sync picks the synchronization source, the peer of lowest stratum (then
// least filtered delay, then lowest id) that answered this round, and
// corrects the clock by its filtered offset.
func (p *node) sync(ctx proc.Context) {
	var src clock.Sample
	found := false
	for _, s := range p.replies {
		f := Filter(p.filters[s.From])
		if !found || s.Stratum < src.Stratum || s.Stratum == src.Stratum && (f.Delay() < src.Delay() || f.Delay() == src.Delay() && s.From < src.From) {
			src, found = f, true
			src.Stratum = s.Stratum
		}
	}
	if !found {
		return
	}
	now := ctx.Now()
	theta := src.Offset()
	b := src.Error(p.min, p.drift) + 2*p.drift.Grow(int(now-src.T4))
	if p.stratum != src.Stratum+1 {
		p.stratum = src.Stratum + 1
		ctx.Set(keyStratum, p.stratum)
	}
	ctx.Log("source %d (stratum %d): θ=%d δ=%d (±%d)", src.From, src.Stratum, theta, src.Delay(), b)
	if theta > p.step || theta < -p.step {
		ctx.StepClock(now + theta)
	} else if p.Slew(ctx, theta, max(p.period-p.timeout, 1)) > 0 {
		// The slew ends by the next poll (unless the clock has to lose
		// more than that: then polls wait for its end).
		b += int(max(theta, -theta))
	} else {
		return
	}
	// The filtered samples were taken against the clock as it was: the
	// correction is taken off their offsets (T1 and T4 move with it).
	for id, f := range p.filters {
		for i := range f {
			f[i].T1 += theta
			f[i].T4 += theta
		}
		p.filters[id] = f
	}
	p.claim.Set(ctx, clock.RefUTC, b)
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return clock.NoCommand(name)
}
