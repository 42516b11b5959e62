// Package cristian is Cristian's algorithm: a client asks a time server,
// whose clock is the reference, for the time, and sets its clock to the
// server's reading plus half the round trip (Coulouris et al.,
// "Distributed Systems: Concepts and Design", section 14.3.2 "Cristian's
// method for synchronizing clocks").
package cristian

import (
	"math"

	"dsim/core/algo"
	"dsim/core/algo/clock"
	"dsim/core/proc"
)

const timerRound = "round"

func init() {
	algo.Register(algo.Spec{
		Name:    "clock.cristian",
		Summary: "Cristian's method: every period each client asks the time server k times, keeps the reply with the smallest round trip and sets its clock to t + T_round/2, accurate to ±(T_round/2 − min)",
		Description: `Text: Coulouris et al., "Distributed Systems: Concepts and Design", section 14.3.2 "Cristian's method for synchronizing clocks"; Tanenbaum and van Steen, "Distributed Systems: Principles and Paradigms", section 6.1.3 "Clock Synchronization Algorithms" (the lecture notes' section 3.1 names only the heading).
Rules: a process p sends a request m_r to the time server S, whose clock is the reference (config server), and S replies at once with m_t holding its clock's reading t. p measures the round trip T_round on its own clock and sets its clock to t + T_round/2 (rounded down). Since each crossing takes at least min ticks, S read t between min after m_r left and min before m_t arrived: the clock is accurate to ±(T_round/2 − min). Each round p makes k requests one after another and uses the one with the smallest T_round, "the most accurate" (Coulouris); rounds start every period ticks of p's clock.
Correction: step (the default, Coulouris's "sets its clock to") jumps the clock, back when it was fast; step=false slews it over period ticks instead (a round due meanwhile is skipped: its round trips would be timed on a clock that gains or loses as it goes), as Tanenbaum's "time must never run backward": the change is spread so the clock never goes back.
Claims: the server claims bound 0 against true time at boot (it is a UTC receiver); a client, once corrected, claims ceil(T_round/2) − min, plus the server's own claim and ceil(ρ·T_round) + 1 for its own clock's drift over the round trip when drift_ppm > 0; with step=false it claims that plus the size of the slew while slewing. clock.accuracy and clock.skew judge these claims.
Runs: the rounds go on every period ticks, so a run never becomes quiescent: scenarios end it with w:run{until_time = T} (a bare w:run() stops at the event limit or the memory budget).
Assumptions: no message arrives in less than min ticks (a shorter crossing makes the claimed bound too small: the run leaves the model and clock.accuracy can fail), clocks drift by at most drift_ppm, a reply within timeout (a later one is ignored; a lost request is retried at the next request or round). Crashes and recoveries of clients are harmless (a recovered client claims nothing until its next correction); a crashed server leaves its clients uncorrected.`,
		Topology:    "complete",
		Assumptions: clock.External("server"),
		Config: append([]algo.Param{
			{Name: "server", Type: algo.Int, Default: -1, Min: -1, Max: math.MaxInt32, Doc: "the time server's id (-1: the first process in ring order)", Process: true},
			{Name: "k", Type: algo.Int, Default: 3, Min: 1, Max: 100, Doc: "requests per round; the reply with the smallest round trip is used"},
			{Name: "step", Type: algo.Bool, Default: true, Doc: "step the clock to t + T_round/2 (Coulouris); false: slew it there over period ticks so that it never runs backwards (Tanenbaum)"},
		}, clock.PhysicalParams(500)...),
		State:      clock.UTCClaims("the accuracy claimed at the latest correction: ceil(T_round/2) − min plus drift and the server's claim (0 at the server)"),
		Messages:   []proc.Message{clock.Request{}, clock.Reply{}},
		Properties: []algo.Property{clock.Accuracy, clock.Skew},
		New: func(v algo.Values) (proc.Factory, error) {
			cfg := config{server: v.ID("server"), k: v.Int("k"), step: v.Bool("step"), period: v.Time("period"),
				min: v.Int("min"), timeout: v.Time("timeout"), drift: clock.Drift(v.Int("drift_ppm"))}
			return func(proc.NodeID) proc.Node { return &node{config: cfg} }, nil
		},
		Memory: clock.Memory(1300, 18, 500, 0),
	})
}

type config struct {
	server  proc.NodeID
	k       int
	step    bool
	period  proc.Duration
	min     int
	timeout proc.Duration
	drift   clock.Drift
}

type node struct {
	config
	clock.Asker
	clock.Slewer
	claim  clock.Claim
	server proc.NodeID
	asked  int          // requests made this round
	best   clock.Sample // the sample with the smallest round trip so far
	have   bool
}

func (p *node) Start(ctx proc.Context) {
	p.server = p.config.server
	if p.server == -1 {
		p.server = ctx.Self()
		if ctx.Index() != 0 {
			p.server = ctx.Neighbor(-ctx.Index())
		}
	}
	p.Slewer.Start(ctx)
	p.claim.Drift = p.drift
	p.claim.Start(ctx, clock.RefUTC, 0, ctx.Self() == p.server)
	switch {
	case !ctx.IsProcess(p.server):
		ctx.Log("config server: %d is not a process: no time server to ask", p.server)
	case ctx.Self() != p.server:
		ctx.SetTimer(0, timerRound)
	}
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch m := m.(type) {
	case clock.Request:
		// Only the server answers: its clock is the reference.
		if b, ok := p.claim.Now(ctx); ok && ctx.Self() == p.server {
			clock.Answer(ctx, from, m, b, 0)
		}
	case clock.Reply:
		if s, ok := p.Take(ctx, from, m); ok {
			if !p.have || s.RTT() < p.best.RTT() {
				p.best, p.have = s, true
			}
			p.next(ctx)
		}
	}
}

func (p *node) Timer(ctx proc.Context, tag string) {
	switch {
	case p.TimedOut(tag):
		p.next(ctx)
	case p.Done(tag):
	case tag == timerRound:
		ctx.SetTimer(p.period, timerRound)
		if p.Busy() {
			ctx.Log("slewing: no requests this round")
			return
		}
		p.asked, p.have = 0, false
		p.next(ctx)
	}
}

// next makes the round's next request, or ends the round with the best
// sample.
func (p *node) next(ctx proc.Context) {
	if p.asked < p.k {
		p.asked++
		p.Ask(ctx, p.server, p.timeout)
		return
	}
	if p.have {
		p.set(ctx, p.best)
	}
}

// set is Cristian's rule: the clock becomes t + T_round/2, accurate to
// ±(T_round/2 − min).
func (p *node) set(ctx proc.Context, s clock.Sample) {
	// The best reply may be an earlier one of the round: the clock has
	// run on since it arrived at T4, and may have drifted meanwhile.
	now := ctx.Now()
	since := now - s.T4
	to := s.T3 + s.RTT()/2 + since
	b := s.Error(p.min, p.drift) + p.drift.Grow(int(since))
	ctx.Log("t=%d, T_round=%d: the clock becomes %d (±%d)", s.T3, s.RTT(), to, b)
	if p.step {
		ctx.StepClock(to)
	} else if d := to - now; p.Slew(ctx, d, p.period) > 0 {
		b += int(max(d, -d)) // the slew moves the clock toward to, from at most |d| away
	} else {
		return
	}
	p.claim.Set(ctx, clock.RefUTC, b)
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return clock.NoCommand(name)
}
