// Package pex is the fully distributed deadlock detection of Silberschatz
// et al.: each site keeps its local wait-for graph augmented with the node
// P_ex, and a cycle through P_ex makes the site send a detection message,
// only when the id rule says so.
package pex

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/txn"
	"dsim/core/proc"
)

// Status tells the other sites which transactions wait at this site
// (Waiting) and which are waited for here (Waited): what their augmented
// graphs need to draw their P_ex edges.
type Status struct {
	Waiting []int `json:"waiting"`
	Waited  []int `json:"waited"`
}

func (Status) Kind() string { return "STATUS" }

// Detect is the deadlock-detection message: the path P_K1 → ... → P_Kn of
// the sender's cycle P_ex → P_K1 → ... → P_Kn → P_ex, sent to the site
// where P_Kn waits. Starts lists the first process of each site's part
// of the path (P_K1 first): the processes where it crossed from a site to
// the next. Runs gives the run of each process of the path (1 at its
// begin, one more at each restart), so that a receiver drops a path a
// rollback made stale.
type Detect struct {
	Path   []int `json:"path"`
	Runs   []int `json:"runs"`
	Starts []int `json:"starts"`
}

func (Detect) Kind() string { return "DETECT" }

// Site is a site of the transaction model that detects deadlocks.
type Site struct {
	txn.Site
	idrule           bool
	bound            int
	local            []deadlock.Edge // the local wait-for graph
	mine             Status          // what this site last told the others
	others           []known         // what the others last said, by site
	aug              []deadlock.Edge // the augmented graph
	sent             [][]int         // paths sent, while their cycle lasts
	held             []Detect        // paths received that could not go on yet, while their last process waits here
	victims          [][2]int        // victims chosen here and their runs, until their locks here are gone
	searching, again bool
	runs             map[int]int // the run of each transaction whose requests came here
}

type known struct {
	site proc.NodeID
	Status
}

func init() {
	deadlock.Scheme{
		Name:    "deadlock.pex",
		Summary: "fully distributed deadlock detection: each site's augmented wait-for graph with P_ex; a cycle P_ex → P_K1 → ... → P_Kn → P_ex sends a detection message only if ID(P_Kn) < ID(P_K1)",
		Description: `Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Deadlock Handling", "Deadlock Detection", "Fully Distributed Approach": every site keeps its local wait-for graph (from its lock table) augmented with a node P_ex: an arc Pi → P_ex when Pi waits for a data item at another site, and P_ex → Pj when a process at another site waits for Pj. "If a local wait-for graph contains a cycle that does not involve node P_ex, then the system is in a deadlocked state." A cycle P_ex → P_K1 → ... → P_Kn → P_ex means a deadlock is possible: the site sends a deadlock-detection message, carrying the path, to the site where P_Kn waits, but "only if ID(P_Kn) < ID(P_K1)" (config idrule; false: always), "otherwise, site Si continues its normal execution, leaving the burden of initiating the deadlock-detection algorithm to some other site". The receiver adds the path's edges to its graph and searches again: a cycle without P_ex is a deadlock, detected there; a cycle through P_ex that extends the path is forwarded the same way (to where its last process waits, whatever the ids: the rule only chooses who starts).
Where the text is silent: a site learns what its P_ex edges need from the others' STATUS messages (the transactions waiting at the sender, and those waited for there), sent to every other site whenever its local graph changes: Pi → P_ex when Pi is in its local graph and waits at another site; P_ex → Pj when Pj waits here and is waited for at another site (so a cycle across sites is cut at each site into a path between P_ex's, each next path starting with the process the previous one ends with). A site declares a deadlock by setting the deadlock key to the cycle and rolls back the transaction with the largest id among those of the cycle in its own lock table (the victim: it is told through the model's ABORT, and restarts keeping its timestamp); it declares every cycle it finds, each with its victim, and no cycle through a victim of its own (in the run it rolled back) until the victim's locks here are gone. It searches, and sends the paths its id rule allows, whenever what it knows changes (its local graph, or a STATUS): a path already sent is sent again only then, since its part of the cycle may now join another. A path received that cannot go on yet (the STATUS it needs is still on its way) is kept and tried again while its last process waits here. When several sites of one cycle send, only the message started by the largest of the processes where the cycle crosses sites declares it, so a deadlock is declared once: that site's part always ends with a smaller id, so it always sends. Its augmented graph is the augmented key (pairs, 0 for P_ex).
Not promised: deadlock.sound. The local graphs the paths are cut from are not a consistent snapshot: a path whose process was rolled back meanwhile (another detection's victim, or a rolled-back run whose late request still waits in a queue) can close a cycle the global graph never had. Each path carries its processes' runs and a site drops a path that disagrees with what it knows, which removes most of them: the sweep's thousand worlds of moderate contention show none, but worlds where many deadlocks overlap still do (6 of 300 with every site beginning up to 6 transactions of up to 4 operations at once: the known weakness of the path-pushing algorithms this one belongs to).
Bound (deadlock.complete, the bound key): a cycle is broken within (n+2) times the latency bound (config latency): its sites hear the STATUS of the last wait within one crossing, a detection message crosses at most n-1 sites, and the victim's ABORT and UNLOCKs take two.`,
		Params: []algo.Param{
			{Name: "idrule", Type: algo.Bool, Default: true, Doc: "send a detection message for the cycle P_ex → P_K1 → ... → P_Kn → P_ex only if ID(P_Kn) < ID(P_K1) (false: always, and more messages)"},
			{Name: "latency", Type: algo.Int, Default: 10, Min: 1, Max: 1e6, Doc: "the latency bound of the links, in ticks: the bound of deadlock.complete is (n+2) times it"},
		},
		State: []algo.StateKey{
			{Key: deadlock.KeyDeadlock, Doc: "at the site that detects a deadlock: the cycle's transaction ids, in cycle order from the smallest"},
			{Key: deadlock.KeyAugmented, Doc: "the site's augmented local wait-for graph: pairs [from, to, ...] of transaction ids, 0 for P_ex"},
			{Key: deadlock.KeyBound, Doc: "the ticks within which a deadlock is broken: (n+2) times config latency"},
		},
		Messages:    []proc.Message{Status{}, Detect{}},
		Properties:  []algo.Property{deadlock.Complete},
		Assumptions: algo.Assumptions{FIFO: true, Latency: algo.LatencyBound{Key: "latency", Trips: 1}},
		Node: func(v algo.Values, s txn.Site) proc.Node {
			p := &Site{Site: s, idrule: v.Bool("idrule"), bound: v.Int("latency")}
			p.OnLocks = p.changed
			return p
		},
		Memory: deadlock.DetectorMemory(120),
	}.Register()
}

// Start starts the model's site and states the bound.
func (p *Site) Start(ctx proc.Context) {
	p.local, p.others, p.aug, p.sent, p.held, p.victims, p.runs = nil, nil, nil, nil, nil, nil, nil
	p.Site.Start(ctx)
	ctx.Set(deadlock.KeyBound, (ctx.N()+2)*p.bound)
}

// Receive handles the detection's messages and passes the model's on.
func (p *Site) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Status:
		k := slices.IndexFunc(p.others, func(o known) bool { return o.site == from })
		if k < 0 {
			p.others = append(p.others, known{site: from})
			k = len(p.others) - 1
		}
		p.others[k].Status = msg
		p.sent = nil
		p.search(ctx)
	case Detect:
		if len(msg.Path) > 0 && len(msg.Starts) > 0 && !p.try(ctx, msg) {
			p.held = append(p.held, msg)
		}
	case txn.Request:
		if p.runs == nil {
			p.runs = map[int]int{}
		}
		p.runs[msg.T] = msg.Try
		p.Site.Receive(ctx, from, m)
	default:
		p.Site.Receive(ctx, from, m)
	}
}

// run is transaction t's run as this site knows it (0: unknown): from its
// record if it is homed here, else from its last request here.
func (p *Site) run(t int) int {
	if x := p.Find(t); x != nil {
		return x.Try
	}
	return p.runs[t]
}

// stale reports whether a process of the path is known here in another
// run than the path's: a rollback broke the path.
func (p *Site) stale(d Detect) bool {
	for i, t := range d.Path {
		if x := p.Find(t); x != nil && x.Status == txn.Aborted {
			return true
		}
		if r := p.run(t); (p.Find(t) != nil || p.holds(t)) && i < len(d.Runs) && r != 0 && d.Runs[i] != 0 && r != d.Runs[i] {
			return true
		}
	}
	return false
}

// changed runs after the lock table changed: the local graph, the STATUS
// to the others if what they need changed, and a search.
func (p *Site) changed(ctx proc.Context) {
	p.victims = slices.DeleteFunc(p.victims, func(v [2]int) bool { return !p.holds(v[0]) || p.run(v[0]) != v[1] })
	local := deadlock.Edges(p.Table.State())
	if slices.Equal(local, p.local) {
		return
	}
	p.local = local
	var st Status
	for _, e := range p.local {
		if !slices.Contains(st.Waiting, e.From) {
			st.Waiting = append(st.Waiting, e.From)
		}
		if !slices.Contains(st.Waited, e.To) {
			st.Waited = append(st.Waited, e.To)
		}
	}
	slices.Sort(st.Waiting)
	slices.Sort(st.Waited)
	for _, to := range ctx.Peers() {
		ctx.Send(to, st)
	}
	p.sent = nil
	p.search(ctx)
}

// holds reports whether t holds or waits for a lock here.
func (p *Site) holds(t int) bool {
	if p.Table == nil {
		return false
	}
	locks := p.Table.State()
	for i := 1; i < len(locks); i += 3 {
		if locks[i] == t {
			return true
		}
	}
	return false
}

// waitsAt is the other site where t waits, if any.
func (p *Site) waitsAt(t int) (proc.NodeID, bool) {
	for _, o := range p.others {
		if slices.Contains(o.Waiting, t) {
			return o.site, true
		}
	}
	return 0, false
}

// search builds the augmented graph and looks for cycles in it: a cycle
// without P_ex is a deadlock; a cycle through P_ex sends a detection
// message if the id rule says so. Then it tries again the paths received
// that could not go on yet, and forgets those whose last process no
// longer waits here.
func (p *Site) search(ctx proc.Context) {
	// A victim rolled back here changes the lock table at once: that
	// search waits for this one to end.
	if p.searching {
		p.again = true
		return
	}
	p.searching = true
	for p.again = true; p.again; {
		p.again = false
		p.searchOnce(ctx)
	}
	p.searching = false
}

func (p *Site) searchOnce(ctx proc.Context) {
	p.aug = deadlock.Augmented(p.local,
		func(t int) bool { _, ok := p.waitsAt(t); return ok },
		func(t int) bool {
			return slices.ContainsFunc(p.others, func(o known) bool { return slices.Contains(o.Waited, t) })
		})
	ctx.Set(deadlock.KeyAugmented, deadlock.Pairs(p.aug))
	// Every local cycle is declared, each with its victim: the next
	// search leaves the victims out.
	if c := deadlock.Cycle(p.aug, p.skip); c != nil {
		for ; c != nil && p.declare(ctx, c); c = deadlock.Cycle(p.aug, p.skip) {
		}
		return
	}
	found := deadlock.ExCycles(p.aug, []int{deadlock.Ex})
	p.sent = slices.DeleteFunc(p.sent, func(s []int) bool {
		return !slices.ContainsFunc(found, func(c []int) bool { return slices.Equal(c[1:], s) })
	})
	for _, c := range found {
		if deadlock.Sends(c, p.idrule) && !slices.ContainsFunc(p.sent, func(s []int) bool { return slices.Equal(s, c[1:]) }) && p.send(ctx, c, nil, c[1:2]) {
			p.sent = append(p.sent, c[1:])
		}
	}
	held := p.held
	p.held = nil
	for _, d := range held {
		last := d.Path[len(d.Path)-1]
		if slices.ContainsFunc(p.local, func(e deadlock.Edge) bool { return e.From == last }) && !p.try(ctx, d) {
			p.held = append(p.held, d)
		}
	}
}

// try adds a received path's edges to the augmented graph (P_ex → P_K1
// → ... → P_Kn) and searches again: a cycle without P_ex is a deadlock,
// detected here; each cycle through P_ex that extends the path goes on.
// It reports whether the path came to either.
//
// Where the text is silent: when several sites of one cycle send (with
// the id rule, each site whose part ends with a smaller id than it starts
// with), the cycle closes once per message. Only the message started by
// the largest of the processes where the cycle crosses from a site to the
// next declares it, so that a deadlock is declared once: that site always
// sends, its next crossing being smaller.
func (p *Site) try(ctx proc.Context, d Detect) bool {
	path := d.Path
	if p.stale(d) {
		return true
	}
	g := append(slices.Clone(p.aug), deadlock.Edge{From: deadlock.Ex, To: path[0]})
	for i := 0; i+1 < len(path); i++ {
		g = append(g, deadlock.Edge{From: path[i], To: path[i+1]})
	}
	if c := deadlock.Cycle(g, p.skip); c != nil {
		for ; c != nil && (!slices.Contains(c, path[0]) || slices.Max(append(d.Starts, path[len(path)-1])) == d.Starts[0]); c = deadlock.Cycle(g, p.skip) {
			if !p.declare(ctx, c) {
				break
			}
		}
		return true
	}
	done := false
	for _, c := range deadlock.ExCycles(g, append([]int{deadlock.Ex}, path...)) {
		done = p.send(ctx, c, d.Runs, append(slices.Clone(d.Starts), path[len(path)-1])) || done
	}
	return done
}

// send sends the path of the cycle c, [Ex, K1, ..., Kn], to the site
// where Kn waits, unless the cycle goes through a victim of this site's:
// the runs of a received path's processes as it came, of the others as
// this site knows them.
func (p *Site) send(ctx proc.Context, c, known, starts []int) bool {
	to, ok := p.waitsAt(c[len(c)-1])
	if !ok || slices.ContainsFunc(c, p.victim) {
		return false
	}
	path, runs := slices.Clone(c[1:]), make([]int, len(c)-1)
	for i, t := range path {
		if runs[i] = p.run(t); i < len(known) {
			runs[i] = known[i]
		}
	}
	ctx.Send(to, Detect{Path: path, Runs: runs, Starts: starts})
	return true
}

// skip leaves P_ex and this site's victims out of the search for a
// deadlock: a cycle through a victim is being broken.
func (p *Site) skip(t int) bool { return t == deadlock.Ex || p.victim(t) }

func (p *Site) victim(t int) bool { return slices.Contains(p.victims, [2]int{t, p.run(t)}) }

// declare sets the deadlock key to the cycle and rolls back the victim:
// the largest id among the cycle's transactions in this site's table; it
// reports whether there was one.
func (p *Site) declare(ctx proc.Context, c []int) bool {
	ctx.Set(deadlock.KeyDeadlock, c)
	v := -1
	for _, t := range c {
		if p.holds(t) && t > v {
			v = t
		}
	}
	if v < 0 {
		return false
	}
	p.victims = append(p.victims, [2]int{v, p.run(v)})
	p.Abort(ctx, v)
	return true
}
