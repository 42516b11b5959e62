package central

import (
	"fmt"
	"math"
	"slices"

	"dsim/core/algo"
	"dsim/core/algo/compose"
	"dsim/core/algo/election"
	_ "dsim/core/algo/election/bully" // the election layer
	"dsim/core/algo/mutex"
	"dsim/core/proc"
)

// Request asks the coordinator for the critical section. Seq numbers the
// requests of one process, so that a grant or a release names the request
// it belongs to.
type Request struct {
	Seq int `json:"seq"`
}

func (Request) Kind() string { return "REQUEST" }

// Granted is the coordinator's permission to enter. Grant numbers the
// coordinator's grants, so that a RELEASE names the one it ends even when
// a request was granted twice (its GRANTED seemed lost).
type Granted struct {
	Seq   int `json:"seq"`
	Grant int `json:"grant"`
}

func (Granted) Kind() string { return "GRANTED" }

// Denied tells a requester that the critical section is busy and its
// request is queued: the coordinator is alive (the lecture notes on
// synchronization, "Central Coordinator Based Algorithm": without it a
// client "cannot distinguish permission denied from a dead coordinator").
type Denied struct {
	Seq int `json:"seq"`
}

func (Denied) Kind() string { return "DENIED" }

// Release tells the coordinator the requester has left the critical
// section it entered by grant Grant, or hands back a grant it has no use
// for.
type Release struct {
	Seq   int `json:"seq"`
	Grant int `json:"grant"`
}

func (Release) Kind() string { return "RELEASE" }

// Held is a process's report to a newly announced coordinator that it is in
// its critical section, by grant Grant of its request Seq.
type Held struct {
	Seq   int `json:"seq"`
	Grant int `json:"grant"`
}

func (Held) Kind() string { return "HELD" }

// Idle is a process's report to a newly announced coordinator that it
// neither holds nor wants the critical section.
type Idle struct{}

func (Idle) Kind() string { return "IDLE" }

// Query asks a process the coordinator's detector suspects for its report
// (REQUEST, HELD or IDLE), as an announcement does: an answer says it is
// up, only slow to be trusted again.
type Query struct{}

func (Query) Kind() string { return "QUERY" }

// State keys of the coordinator's side.
const (
	keyQueue      = "queue"      // ids of the queued requests, first served first
	keyRecovering = "recovering" // a new coordinator waiting for every report
)

// Timer tags: elect defers an election the main layer decides on while the
// election layer is running; probe checks, while it lasts, that a
// coordinator announced while its detector suspected it is alive; check is
// the coordinator's look, while it lasts, at the suspected processes it
// has queued or takes for the holder.
const (
	timerElect = "elect"
	timerProbe = "probe"
	timerCheck = "check"
)

// layerName is the election layer's name: its configuration keys read
// "election_T", its timers "election/T".
const layerName = "election"

func init() {
	bully, err := algo.Lookup("election.bully")
	if err != nil {
		panic(err)
	}
	var lower []algo.Param
	for _, p := range compose.Params(layerName, bully, nil) {
		if p.Name != layerName+"_leader" { // the coordinator key sets it
			lower = append(lower, p)
		}
	}
	algo.Register(algo.Spec{
		Name:    "mutex.central",
		Summary: "central coordinator: REQUEST, GRANTED (or DENIED and a FIFO queue), RELEASE: 3 messages per entry, 4 when a DENIED is sent; a crashed coordinator is replaced by a bully election",
		Description: `Text: the lecture notes "Synchronization, Coordination and Agreement", "Central Coordinator Based Algorithm": its prose and its pseudo code with the "modified algo" line (config denied picks which); the coordinator is "one of the processes competing for access", and a crashed one is replaced by "an election algorithm", here election.bully as a second layer (its keys read election_*).
Rules: a process sends REQUEST to the coordinator and waits for GRANTED; after its critical section it sends RELEASE. The coordinator answers a REQUEST with GRANTED when nobody is in the critical section, otherwise queues it; on RELEASE it sends GRANTED to the first queued request, so requests are served first come, first served. Its own requests join the same queue but cost no message. With denied=true (the default: the notes' pseudo code, "queue the REQ; reply DENIED") a queued request is answered DENIED, so that the client can tell a busy coordinator from a dead one; an entry then costs 3 messages uncontended (REQUEST, GRANTED, RELEASE) but 4 when its request had to wait (REQUEST, DENIED, GRANTED, RELEASE). With denied=false (the notes' prose, "only three messages per use of a CS (request, OK, release)", GRANTED being the OK) a queued request gets no answer until its turn, and every entry costs 3 messages, contended or not.
Where the text is silent: the coordinator at boot is config coordinator (default the highest id; when every id is negative, which the election layer cannot be told, the processes elect one at boot). A process whose detector suspects the coordinator calls an election; every process reports to the announced coordinator (REQUEST again, HELD from the critical section, IDLE otherwise), and a new coordinator grants nothing until every process it does not suspect has reported (state recovering), so a holder is never overlooked. A suspected client leaves the queue, and a critical section it held is freed; the coordinator grants nothing to a suspected process and checks one it has queued, or takes for the holder, every election_T ticks with QUERY. Messages carry request and grant numbers (seq) so that stale ones are ignored; a message from the process itself (only a hand-made one can be) is ignored.
Failures: tolerates crashes and recoveries of the coordinator and of clients. Needs reliable FIFO links (a report must not overtake an earlier REQUEST or RELEASE), a perfect failure detector, the bully's synchrony (election_T at least a round trip) and at most one request per tick per process (request numbers follow the local clock).`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			FIFO: true, Crashes: algo.CrashRecovery, Latency: algo.LatencyBound{Key: "election_T", Trips: 2, Timeout: true},
		},
		Config: append([]algo.Param{
			{Name: "coordinator", Type: algo.Int, Default: -1, Min: -1, Max: math.MaxInt32, Doc: "the coordinator at boot, known to every process (-1: the highest id)", Process: true},
			{Name: "denied", Type: algo.Bool, Default: true, Doc: `answer a request that has to wait with DENIED, as the notes' pseudo code does: 4 messages for a contended entry (false: the notes' prose, "request, OK, release", no DENIED: 3 messages for every entry)`},
		}, lower...),
		Commands: append(slices.Clone(mutex.Commands), bully.Commands...),
		State: append(append(slices.Clone(mutex.StateKeys),
			algo.StateKey{Key: keyQueue, Doc: "at the coordinator: the ids of the queued requests, first served first (set when it changes)"},
			algo.StateKey{Key: keyRecovering, Doc: "at a new coordinator: true until every process it does not suspect has reported"},
		), election.StateKeys...),
		Messages:   append([]proc.Message{Request{}, Granted{}, Denied{}, Release{}, Held{}, Idle{}, Query{}}, bully.Messages...),
		Properties: mutex.Properties,
		New:        newFactory,
		// The bully layer's figures and the coordinator's: an election (a crashed
		// coordinator) puts n² messages in flight.
		Memory: algo.Memory{Boot: algo.Bytes(640), Load: algo.PerPeer(1536, 120), BootEvents: 3},
	})
}

func newFactory(v algo.Values) (proc.Factory, error) {
	coord := v.ID("coordinator")
	lower, err := electionLayer(v, coord)
	if err != nil {
		return nil, err
	}
	probe, denied := v.Time(layerName+"_T"), v.Bool("denied")
	return compose.Factory(
		compose.Part{
			New:      func(proc.NodeID) proc.Node { return &node{probe: probe, denied: denied} },
			Messages: []proc.Message{Request{}, Granted{}, Denied{}, Release{}, Held{}, Idle{}, Query{}},
			Commands: []string{"request", "release"},
		},
		lower,
	)
}

// electionLayer is the bully layer told the boot coordinator. The default,
// the highest id, is only known once a process sees its peers, so its
// layer is then made when the process starts.
func electionLayer(v algo.Values, coord proc.NodeID) (compose.Part, error) {
	withLeader := func(id proc.NodeID) algo.Values {
		w := algo.Values{}
		for k, x := range v {
			w[k] = x
		}
		w[layerName+"_leader"] = int(id)
		return w
	}
	part, err := compose.Layer(layerName, "election.bully", withLeader(coord))
	if err != nil || coord != election.None {
		return part, err
	}
	byTop := map[proc.NodeID]proc.Factory{} // one per set of ids the factory serves
	none := part.New
	part.New = func(proc.NodeID) proc.Node {
		return &startLate{make: func(ctx proc.Context) proc.Node {
			top := slices.Max(append([]proc.NodeID{ctx.Self()}, ctx.Peers()...))
			if top <= election.None {
				// Every id is negative: the layer's leader key cannot
				// name the highest (-1 means none). The layer starts
				// knowing no coordinator, and Start calls an election.
				return none(ctx.Self())
			}
			f, ok := byTop[top]
			if !ok {
				p, err := compose.Layer(layerName, "election.bully", withLeader(top))
				if err != nil {
					panic(fmt.Sprintf("mutex.central: the election layer accepted leader -1 but not %d: %v", top, err))
				}
				f = p.New
				byTop[top] = f
			}
			return f(ctx.Self())
		}}
	}
	return part, nil
}

// startLate is a layer whose node is made when its process starts, the
// first call any node gets.
type startLate struct {
	proc.Node
	make func(ctx proc.Context) proc.Node
}

func (s *startLate) Start(ctx proc.Context) {
	s.Node = s.make(ctx)
	s.Node.Start(ctx)
}

// ticket is a request known to the coordinator.
type ticket struct {
	id  proc.NodeID
	seq int
}

var nobody = ticket{id: election.None}

type node struct {
	layers compose.Layers // the election layer's commands
	mutex.CS
	probe   proc.Duration // the election layer's T: how often to probe a suspected coordinator, or check on suspected clients
	denied  bool          // the pseudo code's DENIED to a queued request (false: the prose's request, OK, release)
	started bool
	coord   proc.NodeID // the coordinator this process follows
	known   bool
	seq     int // the number of this process's latest request
	granted int // the grant it entered its critical section by

	// electing: the election layer is in an election; reelect: a report
	// arrived meanwhile from a process that takes this one for its
	// coordinator, so another election is due once this one ends.
	electing, reelect bool

	// The coordinator's side, while serving.
	serving bool
	grants  int      // grants made so far
	holder  ticket   // the request in the critical section, or nobody
	holding int      // the grant it holds it by
	queue   []ticket // waiting requests, first come first served
	await   []proc.NodeID

	// checking: the check timer is set; asked: the suspected processes
	// sent QUERY at the last check that have sent nothing since.
	checking bool
	asked    []proc.NodeID

	// When this process's detector last suspected each process: a request
	// numbered no higher was made before that process crashed.
	suspectedAt map[proc.NodeID]proc.Time
}

// Observe follows the coordinator the election layer announces. It runs
// inside the election layer's Set, so it must not call that layer back.
func (p *node) Observe(ctx proc.Context, layer, key string, v any) {
	if key == election.KeyRole {
		p.electing = v == election.Candidate
		if !p.electing && p.reelect {
			p.reelect = false
			if v != election.Leader { // a leader has announced itself to all
				ctx.SetTimer(0, timerElect)
			}
		}
		return
	}
	if key != election.KeyLeader {
		return
	}
	id, ok := v.(proc.NodeID)
	if !ok {
		return
	}
	p.coord, p.known = id, true
	if !p.started { // at boot every process knows the coordinator: nothing to report
		return
	}
	p.announced(ctx)
	if id != ctx.Self() && ctx.Suspected(id) {
		// It recovered less than the detector's delay ago, or crashed
		// again since: then the detector, which never trusted it again,
		// will not report the new crash. The election layer's probe (no
		// REPLY within T: an election) tells which, not from inside its Set.
		ctx.SetTimer(0, timerProbe)
	}
}

// UseLayers keeps the commands of the process's other layers.
func (p *node) UseLayers(ls compose.Layers) { p.layers = ls }

func (p *node) Start(ctx proc.Context) {
	p.started = true
	p.holder = nobody
	// Requests are numbered on from the local clock, so that a recovered
	// process's are not taken for those of its earlier life.
	p.seq = int(ctx.Now())
	p.CS.Start(ctx)
	switch {
	case !p.known && !ctx.Recovered(): // every id is negative: see electionLayer
		ctx.Log("no coordinator known at boot: starting an election")
		p.elect(ctx)
	case !p.known: // recovered: the election layer is electing
	case ctx.Recovered(): // the election layer won at once: nobody higher is up
		p.announced(ctx)
	case p.coord == ctx.Self(): // at boot nobody is in the CS: no recovery phase
		p.serving = true
	case !slices.Contains(ctx.Peers(), p.coord):
		ctx.Log("coordinator %d is not a process: starting an election", p.coord)
		p.elect(ctx)
	}
}

func (p *node) elect(ctx proc.Context) {
	if err := p.layers.Call(layerName, "elect", nil); err != nil {
		ctx.Log("elect: %v", err)
	}
}

// announced runs when a coordinator is announced: the new coordinator
// starts its recovery phase, every other process reports to it.
func (p *node) announced(ctx proc.Context) {
	self := ctx.Self()
	if p.coord == self {
		if !p.serving {
			p.recover(ctx)
		}
		return
	}
	if p.serving {
		if p.holder.id != self && p.holder != nobody || slices.ContainsFunc(p.queue, func(t ticket) bool { return t.id != self }) {
			// Whoever reported to this deposed coordinator may have heard
			// its announcement after the new one's (the bully sends both
			// when their elections overlap) and follow it still: an
			// election makes the highest live process announce itself to
			// all again. Not from here, inside the election layer's Set.
			ctx.SetTimer(0, timerElect)
		}
		p.serving, p.holder, p.queue, p.await, p.asked = false, nobody, nil, nil, nil
		ctx.Set(keyQueue, []proc.NodeID{})
		ctx.Set(keyRecovering, false)
	}
	p.report(ctx)
}

// report tells the coordinator this process follows its state: waiting,
// in its critical section, or neither.
func (p *node) report(ctx proc.Context) {
	switch p.State() {
	case mutex.Wanted:
		ctx.Send(p.coord, Request{Seq: p.seq})
	case mutex.Held:
		ctx.Send(p.coord, Held{Seq: p.seq, Grant: p.granted})
	default:
		ctx.Send(p.coord, Idle{})
	}
}

// recover starts serving as a new coordinator: it knows nothing of the
// others until they report.
func (p *node) recover(ctx proc.Context) {
	self := ctx.Self()
	// await is non-nil for the whole phase, even with nobody to hear from
	// (every other process is suspected): heard then ends it at once.
	p.serving, p.holder, p.queue, p.await, p.asked = true, nobody, nil, []proc.NodeID{}, nil
	switch p.State() {
	case mutex.Held:
		p.holder, p.holding = ticket{self, p.seq}, p.granted
	case mutex.Wanted:
		p.queue = []ticket{{self, p.seq}}
	}
	for _, id := range ctx.Peers() {
		if !ctx.Suspected(id) {
			p.await = append(p.await, id)
		}
	}
	ctx.Set(keyRecovering, true)
	p.setQueue(ctx)
	p.heard(ctx, election.None)
}

// heard notes a report from id (None: none) and ends the recovery phase
// when nobody is left to hear from.
func (p *node) heard(ctx proc.Context, id proc.NodeID) {
	if p.await == nil {
		return
	}
	p.await = slices.DeleteFunc(p.await, func(x proc.NodeID) bool { return x == id })
	if len(p.await) > 0 {
		return
	}
	p.await = nil
	ctx.Set(keyRecovering, false)
	p.grantNext(ctx)
}

func (p *node) Want(ctx proc.Context) {
	p.seq++
	switch {
	case p.serving:
		p.request(ctx, ticket{ctx.Self(), p.seq})
	case p.known:
		ctx.Send(p.coord, Request{Seq: p.seq})
	default:
		ctx.Log("no coordinator known: the request waits for the election")
	}
}

func (p *node) Exit(ctx proc.Context) {
	switch {
	case p.serving:
		p.release(ctx, ticket{ctx.Self(), p.seq}, p.granted)
	case p.known:
		ctx.Send(p.coord, Release{Seq: p.seq, Grant: p.granted})
	}
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	if from == ctx.Self() {
		// The coordinator's own requests and releases cost no message,
		// and no process reports to itself: a message from itself is
		// hand-made. Served, it would queue a request this process never
		// made, or take it for the holder, and the grant would enter a
		// process that does not want the critical section.
		ctx.Log("%s from itself ignored: a process sends itself nothing", m.Kind())
		return
	}
	switch msg := m.(type) {
	case Granted:
		switch {
		case msg.Seq != p.seq:
		case p.Held(): // a duplicate
			return
		case p.Wanted() && from == p.coord:
			p.granted = msg.Grant
			p.Enter(ctx)
			return
		}
		// A grant for a request this process no longer waits for (made
		// before a crash, or by a coordinator it no longer follows) is
		// handed back, so that no coordinator takes it for the holder.
		ctx.Log("GRANTED %d from %d is not for a waiting request: released", msg.Seq, from)
		ctx.Send(from, Release{Seq: msg.Seq, Grant: msg.Grant})
	case Denied:
		// The request is queued at a live coordinator: keep waiting.
	case Query:
		if p.known && from == p.coord && !p.serving {
			p.report(ctx)
		}
	case Release:
		if p.serving {
			p.serve(ctx, from, m)
		}
	case Request, Held, Idle:
		if p.stale(from, m) {
			// Sent before its sender crashed, delivered after the crash
			// was noticed: granting it, or taking the sender for the
			// holder, would wait for a process that is gone.
			ctx.Log("%s from %d predates its crash: ignored", m.Kind(), from)
			return
		}
		if p.serving {
			p.serve(ctx, from, m)
			return
		}
		// The sender follows a coordinator that is not one (a late
		// announcement of an older election, or this process was deposed
		// meanwhile): an election makes the highest live process announce
		// itself to all again, and the sender reports to it.
		if p.electing {
			// The election under way may have ended, for the sender,
			// before the announcement that misled it arrived.
			ctx.Log("%s from %d, which takes this process for the coordinator: another election after this one", m.Kind(), from)
			p.reelect = true
			return
		}
		ctx.Log("%s from %d, which takes this process for the coordinator: starting an election", m.Kind(), from)
		p.elect(ctx)
	}
}

// stale says whether a REQUEST or HELD from id was made in a life of id
// that ended before this process suspected it.
func (p *node) stale(id proc.NodeID, m proc.Message) bool {
	at, ok := p.suspectedAt[id]
	if !ok {
		return false
	}
	switch msg := m.(type) {
	case Request:
		return proc.Time(msg.Seq) <= at
	case Held:
		return proc.Time(msg.Seq) <= at
	}
	return false
}

// serve is the coordinator's loop body.
func (p *node) serve(ctx proc.Context, from proc.NodeID, m proc.Message) {
	p.asked = slices.DeleteFunc(p.asked, func(x proc.NodeID) bool { return x == from })
	switch msg := m.(type) {
	case Request:
		p.request(ctx, ticket{from, msg.Seq})
	case Release:
		p.release(ctx, ticket{from, msg.Seq}, msg.Grant)
	case Held:
		p.forget(ctx, from, msg.Seq)
		switch p.holder {
		case nobody, ticket{from, msg.Seq}:
			p.holder, p.holding = ticket{from, msg.Seq}, msg.Grant
		default:
			ctx.Log("HELD from %d while %d holds the critical section", from, p.holder.id)
		}
	case Idle:
		p.forget(ctx, from, 0)
	}
	if _, report := m.(Release); !report {
		p.heard(ctx, from)
	}
	p.grantNext(ctx)
}

// forget drops what the coordinator knows of id's requests other than seq:
// a process with a new request or report has left the older ones behind
// (under FIFO links, its RELEASE came first, or it crashed and recovered).
func (p *node) forget(ctx proc.Context, id proc.NodeID, seq int) {
	if p.holder.id == id && p.holder.seq != seq {
		p.holder = nobody
	}
	n := len(p.queue)
	p.queue = slices.DeleteFunc(p.queue, func(t ticket) bool { return t.id == id && t.seq != seq })
	if len(p.queue) != n {
		p.setQueue(ctx)
	}
}

// request is the pseudo code's REQUEST: GRANTED when nobody is in the
// critical section, else queue it and reply DENIED (with denied=false, the
// prose's variant, queue it silently). A request the
// coordinator already has (re-sent on an announcement) changes nothing.
// A suspected requester is not granted: its request is queued.
func (p *node) request(ctx proc.Context, t ticket) {
	p.forget(ctx, t.id, t.seq)
	if p.holder == t || slices.Contains(p.queue, t) {
		return
	}
	if p.holder == nobody && p.await == nil && p.next(ctx) < 0 && !ctx.Suspected(t.id) {
		p.grant(ctx, t)
		return
	}
	p.queue = append(p.queue, t)
	p.setQueue(ctx)
	if t.id != ctx.Self() && p.denied {
		ctx.Send(t.id, Denied{Seq: t.seq})
	}
	p.watch(ctx)
}

// release is the pseudo code's RELEASE; a release of another request or
// grant than the holder's is stale and ignored.
func (p *node) release(ctx proc.Context, t ticket, grant int) {
	if p.holder != t || p.holding != grant {
		ctx.Log("RELEASE %d (grant %d) from %d does not match the holder: ignored", t.seq, grant, t.id)
		return
	}
	p.holder = nobody
	p.grantNext(ctx)
}

// grantNext removes the first queued request of a trusted process and
// grants it, once the critical section is free and the recovery phase is
// over.
func (p *node) grantNext(ctx proc.Context) {
	if i := p.next(ctx); i >= 0 && p.holder == nobody && p.await == nil {
		t := p.queue[i]
		p.queue = slices.Delete(p.queue, i, i+1)
		p.setQueue(ctx)
		p.grant(ctx, t)
	}
	p.watch(ctx)
}

// next is the index of the first queued request of a process the detector
// does not suspect, or -1.
func (p *node) next(ctx proc.Context) int {
	return slices.IndexFunc(p.queue, func(t ticket) bool { return !ctx.Suspected(t.id) })
}

// doubted lists the processes the coordinator has queued or takes for the
// holder that its detector suspects, the holder first. It is never sure
// they are up; itself, holding, it is.
func (p *node) doubted(ctx proc.Context) []proc.NodeID {
	var ids []proc.NodeID
	if p.holder != nobody && p.holder.id != ctx.Self() && ctx.Suspected(p.holder.id) {
		ids = append(ids, p.holder.id)
	}
	for _, t := range p.queue {
		if ctx.Suspected(t.id) && !slices.Contains(ids, t.id) {
			ids = append(ids, t.id)
		}
	}
	return ids
}

// watch sets the check timer while there are suspected processes to check
// on: the detector does not call back when it trusts a process again, nor
// when one it never trusted again crashes.
func (p *node) watch(ctx proc.Context) {
	if !p.checking && len(p.doubted(ctx)) > 0 {
		p.checking = true
		ctx.SetTimer(p.probe, timerCheck)
	}
}

// check drops the suspected processes that did not answer the last check's
// QUERY, serves a process trusted since, and queries the still suspected.
func (p *node) check(ctx proc.Context) {
	for _, id := range p.asked {
		if ctx.Suspected(id) {
			ctx.Log("%d, suspected, did not answer QUERY: crashed again, dropped", id)
			p.forget(ctx, id, 0)
		}
	}
	p.asked = nil
	for _, id := range p.doubted(ctx) {
		if id != ctx.Self() {
			ctx.Send(id, Query{})
			p.asked = append(p.asked, id)
		}
	}
	p.grantNext(ctx)
}

func (p *node) grant(ctx proc.Context, t ticket) {
	p.grants++
	p.holder, p.holding = t, p.grants
	if t.id == ctx.Self() {
		p.granted = p.grants
		p.Enter(ctx)
		return
	}
	ctx.Send(t.id, Granted{Seq: t.seq, Grant: p.grants})
}

func (p *node) setQueue(ctx proc.Context) {
	ids := make([]proc.NodeID, len(p.queue))
	for i, t := range p.queue {
		ids[i] = t.id
	}
	ctx.Set(keyQueue, ids)
}

// Suspect: a process suspecting its coordinator starts an election; the
// coordinator drops a suspected process's request, and the critical
// section it held.
func (p *node) Suspect(ctx proc.Context, id proc.NodeID) {
	if p.suspectedAt == nil {
		p.suspectedAt = map[proc.NodeID]proc.Time{}
	}
	p.suspectedAt[id] = ctx.Now()
	if !p.serving {
		if p.known && id == p.coord {
			ctx.Log("coordinator %d suspected: starting an election", id)
			p.elect(ctx)
		}
		return
	}
	p.forget(ctx, id, 0)
	p.heard(ctx, id)
	p.grantNext(ctx)
}

func (p *node) Timer(ctx proc.Context, tag string) {
	if p.CS.Timer(ctx, p, tag) {
		return
	}
	switch tag {
	case timerElect:
		p.elect(ctx)
	case timerCheck:
		p.checking = false
		if p.serving {
			p.check(ctx)
		}
	case timerProbe:
		// Until the detector trusts the coordinator again, which ends the
		// doubt, or the election the probe starts replaces it.
		if p.serving || !ctx.Suspected(p.coord) {
			return
		}
		if err := p.layers.Call(layerName, "probe", nil); err != nil {
			ctx.Log("probe: %v", err)
		}
		ctx.SetTimer(p.probe, timerProbe)
	}
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.CS.Command(ctx, p, name, args)
}
