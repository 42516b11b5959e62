// Package centralized is the centralized deadlock detection of Silberschatz
// et al.: a coordinator builds the global wait-for graph from the sites'
// reports and declares a deadlock on a cycle, with the false-cycle problem
// and the text's fix.
package centralized

import (
	"fmt"
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

// Report is a site's local wait-for graph, sent to the coordinator:
// triples [from, to, label, ...], the label numbering the change of the
// site's lock table at which the edge appeared (the text's unique
// identifiers). Round answers the coordinator's Confirm of that round (0:
// a report of the site's own).
type Report struct {
	Edges []int `json:"edges"`
	Round int   `json:"round"`
}

func (Report) Kind() string { return "REPORT" }

// Confirm asks a site for its local graph now (the fix).
type Confirm struct {
	Round int `json:"round"`
}

func (Confirm) Kind() string { return "CONFIRM" }

// Victim tells a site where transaction T waits to roll it back.
type Victim struct {
	T int `json:"t"`
}

func (Victim) Kind() string { return "VICTIM" }

// Site is a site of the transaction model; the first site in ring order
// is also the coordinator.
type Site struct {
	txn.Site
	periodic, fix bool
	period, bound int
	coord         proc.NodeID
	local         []deadlock.Edge
	labels        []int // the label of each local edge
	changes       int   // changes of the lock table, the labels' source
	// At the coordinator.
	graphs   []graph
	cands    []*candidate
	round    int
	declared []labelled // the victims' edges, while reported
}

// labelled is an edge of a site's graph with its label.
type labelled struct {
	site  proc.NodeID
	e     deadlock.Edge
	label int
}

type graph struct {
	site  proc.NodeID
	edges []labelled
}

// candidate is a cycle the coordinator found and asked its sites to
// confirm (the fix): declared if every edge is reported again, with its
// label, by sites asked after it was found.
type candidate struct {
	cycle   []int
	edges   []labelled
	round   int
	waiting []proc.NodeID
}

// TimerReport is the periodic report's timer.
const TimerReport = "report"

func init() {
	deadlock.Scheme{
		Name:    "deadlock.centralized",
		Summary: "centralized deadlock detection: the sites report their local wait-for graphs to a coordinator (the first site), which declares a deadlock on a cycle of their union and rolls a victim back; the false cycles and the text's fix",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Deadlock Handling", "Deadlock Detection", "Centralized Approach": "a global wait-for graph is constructed as the union of all the local graphs. It is maintained in a single process: the deadlock-detection coordinator." The graph is built "whenever a new edge is inserted or removed in one of the local wait-for graphs" (config report = "change", the default: a REPORT of the site's whole local graph at each change of its edges) or "periodically, when a number of changes have occurred" (report = "periodic": every period ticks). "When the coordinator finds a cycle, it selects a victim and notifies all the processes. The processes, in turn, roll back the victim": here the victim is the transaction of the cycle with the largest id (the youngest by the default ids), and the coordinator sends VICTIM to a site where it waits, which rolls it back through the model's ABORT; the coordinator sets the deadlock key to the cycle.
False cycles: the reports of different sites travel separately, so the coordinator may join an edge already removed to one just inserted: "the insert message arrives before the delete message", "the coordinator can discover a false cycle" and roll back a transaction for nothing (scenario deadlock/phantom; deadlock.sound names the phantom). The fix (config fix, the default): the text requires "that requests from different sites be appended with unique identifiers (or timestamps)" and has the coordinator send "an initiating message to each site", build the graph from their replies, and declare only a cycle it can be sure of. Here every reported edge carries a unique label (the number of the site's lock-table change at which it appeared), and a cycle found in the reports is only a candidate: the coordinator asks each site with an edge of it for its graph now (CONFIRM, answered by a REPORT of that round) and declares the cycle only if every edge comes back with the same label. An edge reported twice with one label existed throughout between the two reports, and the second reports all leave after the cycle was found, so every edge existed at that moment together: the cycle was real, and it lasts until a victim is rolled back. Without the fix (fix = false) the coordinator declares at once and may roll back for a phantom: it does not keep deadlock.sound.
Bound (deadlock.complete, the bound key): a cycle is broken within (the period, with periodic reports) + 4 crossings (report, VICTIM, ABORT, UNLOCK) + 2 more with the fix (CONFIRM and its REPORT), a crossing being config latency.`,
		Params: []algo.Param{
			{Name: "report", Type: algo.Str, Default: "change", Doc: `when a site reports its local graph to the coordinator: "change" (at each change of its edges) or "periodic" (every period ticks)`},
			{Name: "period", Type: algo.Int, Default: 20, Min: 1, Max: 1e6, Doc: "the reporting period, in ticks, with report = \"periodic\""},
			{Name: "fix", Type: algo.Bool, Default: true, Doc: "the text's fix for false cycles: labelled edges, and a cycle declared only once its sites confirm every edge with its label (false: declared at once, phantoms possible)"},
			{Name: "latency", Type: algo.Int, Default: 10, Min: 1, Max: 1e6, Doc: "the latency bound of the links, in ticks, for the bound of deadlock.complete"},
		},
		State: []algo.StateKey{
			{Key: deadlock.KeyDeadlock, Doc: "at the coordinator: a declared cycle's transaction ids, in cycle order from the smallest"},
			{Key: deadlock.KeyBound, Doc: "the ticks within which a deadlock is broken: the period (periodic reports) + 4 latencies, + 2 with the fix"},
		},
		Messages:    []proc.Message{Report{}, Confirm{}, Victim{}},
		Properties:  []algo.Property{deadlock.Sound, deadlock.Complete},
		Assumptions: algo.Assumptions{FIFO: true, Latency: algo.LatencyBound{Key: "latency", Trips: 1}},
		Node: func(v algo.Values, s txn.Site) proc.Node {
			p := &Site{Site: s, periodic: v.String("report") == "periodic", fix: v.Bool("fix"), period: v.Int("period"), bound: 4 * v.Int("latency")}
			if p.periodic {
				p.bound += p.period
			}
			if p.fix {
				p.bound += 2 * v.Int("latency")
			}
			p.OnLocks = p.changed
			return p
		},
		Check: func(v algo.Values) error {
			if r := v.String("report"); r != "change" && r != "periodic" {
				return fmt.Errorf("config key \"report\": %q is neither \"change\" nor \"periodic\"", r)
			}
			return nil
		},
		Memory: deadlock.DetectorMemory(90),
	}.Register()
}

// Start starts the model's site, finds the coordinator (the first site in
// ring order) and arms the periodic report.
func (p *Site) Start(ctx proc.Context) {
	p.local, p.labels, p.changes, p.graphs, p.cands, p.round, p.declared = nil, nil, 0, nil, nil, 0, nil
	p.Site.Start(ctx)
	p.coord = txn.RingOf(ctx)[0]
	ctx.Set(deadlock.KeyBound, p.bound)
	if p.periodic {
		ctx.SetTimer(proc.Duration(p.period), TimerReport)
	}
}

// Timer sends the periodic report.
func (p *Site) Timer(ctx proc.Context, tag string) {
	if tag == TimerReport {
		p.report(ctx, 0)
		ctx.SetTimer(proc.Duration(p.period), TimerReport)
		return
	}
	p.Site.Timer(ctx, tag)
}

// changed labels the new edges of the local graph and, with reports on
// change, reports it.
func (p *Site) changed(ctx proc.Context) {
	p.changes++
	local := deadlock.Edges(p.Table.State())
	if slices.Equal(local, p.local) {
		return
	}
	labels := make([]int, len(local))
	for i, e := range local {
		labels[i] = p.changes
		if k := slices.Index(p.local, e); k >= 0 {
			labels[i] = p.labels[k]
		}
	}
	p.local, p.labels = local, labels
	if !p.periodic {
		p.report(ctx, 0)
	}
}

// report sends the local graph to the coordinator (itself: at once).
func (p *Site) report(ctx proc.Context, round int) {
	r := Report{Edges: []int{}, Round: round}
	for i, e := range p.local {
		r.Edges = append(r.Edges, e.From, e.To, p.labels[i])
	}
	if p.coord == ctx.Self() {
		p.collect(ctx, ctx.Self(), r)
		return
	}
	ctx.Send(p.coord, r)
}

// Receive handles the detection's messages and passes the model's on.
func (p *Site) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Report:
		if ctx.Self() == p.coord {
			p.collect(ctx, from, msg)
		}
	case Confirm:
		p.report(ctx, msg.Round)
	case Victim:
		p.Abort(ctx, msg.T)
	default:
		p.Site.Receive(ctx, from, m)
	}
}

// collect is the coordinator's: it keeps each site's last report, judges
// the candidates that report answers, and searches the global graph.
func (p *Site) collect(ctx proc.Context, from proc.NodeID, r Report) {
	g := graph{site: from}
	for i := 0; i+2 < len(r.Edges); i += 3 {
		g.edges = append(g.edges, labelled{from, deadlock.Edge{From: r.Edges[i], To: r.Edges[i+1]}, r.Edges[i+2]})
	}
	if k := slices.IndexFunc(p.graphs, func(x graph) bool { return x.site == from }); k >= 0 {
		p.graphs[k] = g
	} else {
		p.graphs = append(p.graphs, g)
	}
	var judged []*candidate
	p.cands = slices.DeleteFunc(p.cands, func(c *candidate) bool {
		if r.Round == c.round {
			c.waiting = slices.DeleteFunc(c.waiting, func(s proc.NodeID) bool { return s == from })
		}
		if len(c.waiting) == 0 {
			judged = append(judged, c)
		}
		return len(c.waiting) == 0
	})
	for _, c := range judged {
		if !slices.ContainsFunc(c.edges, func(l labelled) bool { return !slices.Contains(p.all(), l) }) {
			p.declare(ctx, c.cycle, c.edges)
		}
	}
	p.search(ctx)
}

// all is the union of the reported graphs.
func (p *Site) all() []labelled {
	var out []labelled
	for _, g := range p.graphs {
		out = append(out, g.edges...)
	}
	return out
}

// search looks for cycles in the union of the reports, leaving out the
// edges of the victims declared and the edge leaving the victim of each
// cycle being confirmed: each one found is declared
// (or, with the fix, becomes a candidate and its sites are asked).
func (p *Site) search(ctx proc.Context) {
	all := p.all()
	p.declared = slices.DeleteFunc(p.declared, func(l labelled) bool { return !slices.Contains(all, l) })
	busy := slices.Clone(p.declared)
	for _, c := range p.cands {
		busy = append(busy, out(c.cycle, c.edges))
	}
	for {
		var g []deadlock.Edge
		var ls []labelled
		for _, l := range all {
			if !slices.Contains(busy, l) {
				g, ls = append(g, l.e), append(ls, l)
			}
		}
		c := deadlock.Cycle(g, nil)
		if c == nil {
			return
		}
		var edges []labelled
		for i, u := range c {
			e := deadlock.Edge{From: u, To: c[(i+1)%len(c)]}
			edges = append(edges, ls[slices.Index(g, e)])
		}
		busy = append(busy, out(c, edges))
		if !p.fix {
			p.declare(ctx, c, edges)
			continue
		}
		p.round++
		cand := &candidate{cycle: c, edges: edges, round: p.round}
		for _, l := range edges {
			if !slices.Contains(cand.waiting, l.site) {
				cand.waiting = append(cand.waiting, l.site)
			}
		}
		p.cands = append(p.cands, cand)
		for _, s := range slices.Clone(cand.waiting) {
			if s == ctx.Self() {
				p.report(ctx, cand.round)
			} else {
				ctx.Send(s, Confirm{Round: cand.round})
			}
		}
	}
}

// out is the edge of the cycle c leaving its victim, the largest id: the
// cycles through it are being broken, the others are looked for at once.
func out(c []int, edges []labelled) labelled {
	v := slices.Max(c)
	return edges[slices.IndexFunc(edges, func(l labelled) bool { return l.e.From == v })]
}

// declare sets the deadlock key and has the victim, the cycle's largest
// id, rolled back by a site where it waits. Until the victim's edges are
// gone from the reports, no cycle through them is looked for.
func (p *Site) declare(ctx proc.Context, c []int, edges []labelled) {
	ctx.Set(deadlock.KeyDeadlock, c)
	v := slices.Max(c)
	for _, l := range p.all() {
		if l.e.From == v || l.e.To == v {
			p.declared = append(p.declared, l)
		}
	}
	at := out(c, edges).site
	if at == ctx.Self() {
		p.Abort(ctx, v)
		return
	}
	ctx.Send(at, Victim{T: v})
}
