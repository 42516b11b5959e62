package txn

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dsim/core/algo"
	"dsim/core/proc"
)

// Request asks a site's lock manager for a lock on Item in Mode (1 S, 2
// X) for transaction T, and carries its access: the site performs it on
// its copy when it grants the lock. Try numbers T's runs (it restarts
// after an abort), so that a late answer to an earlier run is ignored; TS
// is its timestamp.
type Request struct {
	T    int `json:"t"`
	Try  int `json:"try"`
	Item int `json:"item"`
	Mode int `json:"mode"`
	TS   int `json:"ts"`
}

func (Request) Kind() string { return "REQUEST" }

// Grant tells T's home site that its lock on Item is granted; Done says
// the granting site performed the access on its copy.
type Grant struct {
	T    int  `json:"t"`
	Try  int  `json:"try"`
	Item int  `json:"item"`
	Done bool `json:"done"`
}

func (Grant) Kind() string { return "GRANT" }

// Unlock releases T's lock on Item, or withdraws its request (one message
// per lock, as the text counts them).
type Unlock struct {
	T    int `json:"t"`
	Item int `json:"item"`
}

func (Unlock) Kind() string { return "UNLOCK" }

// Abort tells T's home site to roll T back: a deadlock-prevention
// scheme's die or wound, a detector's victim, a timestamp rule's
// rejection. TS, when set, is a timestamp the home's logical clock moves
// past (the item's timestamp that rejected T: its new one will be later).
type Abort struct {
	T   int `json:"t"`
	Try int `json:"try"`
	TS  int `json:"ts"`
}

func (Abort) Kind() string { return "ABORT" }

// Access performs T's access to Item at a site holding a copy, when the
// site that granted the lock holds none (the single lock manager).
type Access struct {
	T     int  `json:"t"`
	Try   int  `json:"try"`
	Item  int  `json:"item"`
	Write bool `json:"write"`
}

func (Access) Kind() string { return "ACCESS" }

// Done answers an Access, or a timestamp-ordering site's accepted access.
type Done struct {
	T    int `json:"t"`
	Try  int `json:"try"`
	Item int `json:"item"`
}

func (Done) Kind() string { return "DONE" }

// Messages are the sites' messages, for the specs.
var Messages = []proc.Message{Request{}, Grant{}, Unlock{}, Abort{}, Access{}, Done{}}

// Params are the configuration keys of the model: placement, replication,
// the random workload and the restart delay.
func Params() []algo.Param {
	return []algo.Param{
		{Name: "items", Type: algo.Str, Default: "", Doc: `where the data items live, "A@1 B@2 Q@3" (item A at the site whose id is 1); "" puts one item per site, the i-th letter at the site of ring index i (A at the first, B at the second, ...; past Z: A1, B1, ...)`},
		{Name: "replicas", Type: algo.Int, Default: 1, Min: 1, Max: 64, Doc: "copies of each item: at its site and the next replicas-1 sites in ring order, the first being the primary copy (at most one per site)"},
		{Name: "txns", Type: algo.Int, Default: 0, Min: 0, Max: 1e5, Doc: "random transactions each site begins by itself (0: none, only the begin commands)"},
		{Name: "ops", Type: algo.Int, Default: 2, Min: 1, Max: 100, Doc: "operations per random transaction, each on an item drawn over all items"},
		{Name: "writes", Type: algo.Float, Default: 0.5, Min: 0, Max: 1, Doc: "the share of writes among the random operations"},
		{Name: "rate", Type: algo.Float, Default: 0.05, Min: 0.001, Max: 1, Doc: "random transactions begun per tick at each site, on average: the gap before each is uniform in 1..2/rate-1 ticks"},
		{Name: "restart", Type: algo.Int, Default: 10, Min: 1, Max: 1e6, Doc: "an aborted transaction restarts after a random delay: uniform in 1..restart ticks after its first run, doubling its range at each further rollback (binary exponential backoff, up to 1024 times restart)"},
	}
}

// Commands are the sites' commands.
var Commands = []algo.CommandSpec{
	{Name: "begin", Args: "ops=<operations> [t=<id>]", Doc: `begin a transaction here, its home site: ops in the text's notation, "read(A) write(B)" or "r(A) w(B)", with "abort" to abort itself there; t its id (default: this site's k-th transaction is k*n + its ring index + 1, so the first ones are T1, T2, ... at the sites in ring order). It commits after its last operation`},
	{Name: "abort", Args: "t=<id>", Doc: "roll transaction t back (at its home site, or at a site where it holds or waits for a lock: it is told); it restarts, keeping its timestamp"},
}

// Config is the model's configuration, read from Params' keys. The sites
// made from one Config (one world's) share one placement.
type Config struct {
	Spots     []Spot
	Replicas  int
	shared    *Placement
	txns, ops int
	writes    float64
	gaps      int
	restart   int
}

// NewConfig reads the keys Params describes; the error names a bad key.
func NewConfig(v algo.Values) (Config, error) {
	spots, err := ParseSpots(v.String("items"))
	return Config{Spots: spots, Replicas: v.Int("replicas"), shared: &Placement{}, txns: v.Int("txns"), ops: v.Int("ops"),
		writes: v.Float("writes"), gaps: max(int(2/v.Float("rate"))-1, 1), restart: v.Int("restart")}, err
}

// Check rejects a configuration whose items are placed at a site that is
// no process of the world, before the world is built (algo.Spec.Check).
func Check(v algo.Values, ids []proc.NodeID) error {
	c, err := NewConfig(v)
	if err == nil {
		_, err = NewPlacement(ids, c.Spots, c.Replicas)
	}
	return err
}

// Scheme is a concurrency-control scheme's choice of lock managers: the
// sites whose grants make up a lock on item, asked by a transaction homed
// at home (one site for a single manager or the item's own site, a
// majority of the copies, all of them...). Each is sent one REQUEST and
// answers with one GRANT.
type Scheme func(p *Placement, home proc.NodeID, item int, write bool) []proc.NodeID

// Nonreplicated is the chapter's nonreplicated scheme (multiple
// coordinators): each site's lock manager handles the items stored there,
// so a lock request goes to the item's site (its primary copy's, which is
// also the primary-copy protocol).
func Nonreplicated(p *Placement, _ proc.NodeID, item int, _ bool) []proc.NodeID {
	return []proc.NodeID{p.Primary(item)}
}

// Hooks let a family compose the site: a deadlock-prevention policy, and
// observers of waits and lock-table changes for the detectors.
type Hooks struct {
	// OnConflict is the lock tables' conflict policy (nil: wait).
	OnConflict Policy
	// OnWait runs at a lock site when a request is queued.
	OnWait func(ctx proc.Context, item int, l Lock)
	// OnLocks runs at a lock site after its table changed and the locks
	// key was set.
	OnLocks func(ctx proc.Context)
}

// Txn is a transaction at its home site.
type Txn struct {
	ID     int
	Stamp  Stamp
	Try    int // runs so far: 1 at the first
	Ops    []Op
	Next   int // the operation under way, or next
	Status int
	asked  []Spot // the (item, site) pairs it sent requests to, for the unlocks
	grants int    // grants of the current operation so far
	need   int    // grants the current operation needs
	done   bool   // a granting site performed the current access on its copy
}

// Site is a site of the transaction model: the transaction manager of the
// transactions homed here, and the lock manager of the locks it is asked
// for. Families configure it (Scheme, Hooks) or embed it and handle more
// messages first.
type Site struct {
	Config
	Scheme Scheme
	Hooks
	// NewStamp gives a restarted transaction a new timestamp (timestamp
	// ordering) instead of keeping it (wait-die, wound-wait).
	NewStamp bool
	// ClockStamps makes timestamps from the local clock rather than a
	// logical counter (the chapter allows either): the clock's reading,
	// or one more than the last when the clock has not moved past it.
	ClockStamps bool
	// Serve, when set, is the item side of an access instead of the lock
	// table: it answers the request, and no lock is released at the end
	// (timestamp ordering).
	Serve func(ctx proc.Context, from proc.NodeID, r Request)

	Place *Placement
	Err   error // the placement's error: every begin reports it
	Table *LockTable
	Txns  []*Txn         // transactions homed here, in the order begun
	clock int            // the Lamport-style counter of the timestamps
	begun int            // transactions begun here
	left  int            // random transactions still to begin
	k     int            // accesses made here
	homes map[int]home   // at a lock site: where each transaction it heard of runs
	local []proc.Message // messages to this site itself, delivered once the handler is done
	busy  bool
}

// home is a transaction's home site and the run a lock site last heard of.
type home struct {
	site proc.NodeID
	try  int
}

// Timer tags.
const (
	TimerBegin   = "begin"
	timerRestart = "restart-"
)

// Start places the items and arms the workload.
func (s *Site) Start(ctx proc.Context) {
	s.Place, s.Err = s.placement(ctx)
	if s.Err != nil {
		ctx.Log("%v", s.Err)
	}
	s.Table, s.Txns, s.clock, s.begun, s.k, s.homes, s.local = nil, nil, 0, 0, 0, nil, nil
	s.left = s.txns
	s.nextBegin(ctx)
}

// placement is the world's placement: the one the world's first site
// made, when this site sees the same ring, so that a world keeps one.
func (s *Site) placement(ctx proc.Context) (*Placement, error) {
	ring := RingOf(ctx)
	if p := s.shared; p != nil && slices.Equal(p.Ring, ring) {
		return p, nil
	}
	p, err := NewPlacement(ring, s.Spots, s.Replicas)
	if err != nil || s.shared == nil || s.shared.Ring != nil {
		return p, err
	}
	*s.shared = *p // the first
	return s.shared, nil
}

func (s *Site) nextBegin(ctx proc.Context) {
	if s.left > 0 && s.Err == nil {
		ctx.SetTimer(proc.Duration(1+ctx.Rand().IntN(s.gaps)), TimerBegin)
	}
}

// Find is the transaction t homed here, or nil.
func (s *Site) Find(t int) *Txn {
	for _, x := range s.Txns {
		if x.ID == t {
			return x
		}
	}
	return nil
}

// Command handles begin and abort.
func (s *Site) Command(ctx proc.Context, name string, args proc.Args) error {
	defer s.drain(ctx)
	switch name {
	case "begin":
		for k := range args {
			if k != "ops" && k != "t" {
				return fmt.Errorf("command \"begin\" takes only ops= and t=, got %s", args)
			}
		}
		text, ok := args["ops"].(string)
		if !ok {
			return fmt.Errorf("command \"begin\" needs ops=<operations>, e.g. ops=\"read(A) write(B)\"")
		}
		ops, err := ParseOps(text)
		if err != nil {
			return fmt.Errorf("begin: %v", err)
		}
		if s.Err != nil {
			return s.Err
		}
		if err := s.Place.Check(ops); err != nil {
			return fmt.Errorf("begin: %v", err)
		}
		t, err := args.Int("t", s.begun*ctx.N()+ctx.Index()+1)
		if err != nil {
			return err
		}
		if t < 1 || s.Find(t) != nil {
			return fmt.Errorf("begin: t=%d is not a new transaction id (want a positive id not used here)", t)
		}
		s.Begin(ctx, t, ops)
		return nil
	case "abort":
		for k := range args {
			if k != "t" {
				return fmt.Errorf("command \"abort\" takes only t=, got %s", args)
			}
		}
		t, err := args.Int("t", 0)
		if err != nil {
			return err
		}
		if x := s.Find(t); (x == nil || x.Status == Committed || x.Status == Aborted) && s.homes[t] == (home{}) {
			return fmt.Errorf("abort: T%d is neither running here nor holding or waiting for a lock here", t)
		}
		s.Abort(ctx, t)
		return nil
	}
	return fmt.Errorf("unknown command %q (known: begin, abort)", name)
}

// Begin starts transaction t at this, its home site, with a new timestamp.
func (s *Site) Begin(ctx proc.Context, t int, ops []Op) *Txn {
	s.begun++
	x := &Txn{ID: t, Ops: ops, Stamp: s.stamp(ctx)}
	s.Txns = append(s.Txns, x)
	s.run(ctx, x)
	return x
}

// stamp is a new timestamp: the local counter, advanced, with the site's id.
func (s *Site) stamp(ctx proc.Context) Stamp {
	s.clock++
	if s.ClockStamps {
		s.clock = max(s.clock, int(ctx.Now()))
	}
	return Stamp{C: s.clock, Site: ctx.Self()}
}

// run (re)starts x from its first operation.
func (s *Site) run(ctx proc.Context, x *Txn) {
	x.Try++
	x.Next, x.asked = 0, nil
	s.status(ctx, x, Running)
	s.step(ctx, x)
}

func (s *Site) status(ctx proc.Context, x *Txn, st int) {
	x.Status = st
	ctx.Set(KeyTxn, []int{x.ID, st, x.Stamp.Int()})
}

// step performs x's next operation: it asks the scheme's lock managers
// for the lock, the request carrying the access; after the last, x
// commits (strict two-phase locking: its locks are released only then).
func (s *Site) step(ctx proc.Context, x *Txn) {
	if x.Next == len(x.Ops) {
		s.finish(ctx, x, Committed)
		return
	}
	op := x.Ops[x.Next]
	if op.Abort {
		s.finish(ctx, x, Aborted)
		return
	}
	sites := s.Scheme(s.Place, ctx.Self(), op.Item, op.Write)
	x.grants, x.need, x.done = 0, len(sites), false
	mode := S
	if op.Write {
		mode = X
	}
	for _, to := range sites {
		if sp := (Spot{op.Item, to}); !slices.Contains(x.asked, sp) {
			x.asked = append(x.asked, sp)
		}
		s.Send(ctx, to, Request{T: x.ID, Try: x.Try, Item: op.Item, Mode: int(mode), TS: x.Stamp.Int()})
	}
	if slices.ContainsFunc(sites, func(id proc.NodeID) bool { return id != ctx.Self() }) {
		s.status(ctx, x, Waiting) // until the grants come back
	}
}

// finish commits or aborts x and releases its locks everywhere.
func (s *Site) finish(ctx proc.Context, x *Txn, st int) {
	s.status(ctx, x, st)
	if s.Serve != nil {
		return // no locks to release
	}
	for _, sp := range x.asked {
		s.Send(ctx, sp.Site, Unlock{T: x.ID, Item: sp.Item})
	}
	x.asked = nil
}

// Abort rolls transaction t back wherever it is asked: at its home site
// it cancels its waits and releases its locks everywhere (the unlocks),
// marks it aborted and restarts it after a random delay (growing with its
// rollbacks), keeping its timestamp unless NewStamp; at a site where it
// holds or waits for a lock, the home site is told (ABORT). A transaction
// already ended is left alone.
func (s *Site) Abort(ctx proc.Context, t int) {
	defer s.drain(ctx)
	if x := s.Find(t); x != nil {
		if x.Status == Committed || x.Status == Aborted {
			return
		}
		s.finish(ctx, x, Aborted)
		// Binary exponential backoff: transactions that keep rolling each
		// other back (timestamp ordering's cyclic restarts) draw ever
		// longer delays, until one runs alone.
		ctx.SetTimer(proc.Duration(1+ctx.Rand().IntN(s.restart<<min(x.Try-1, 10))), timerRestart+strconv.Itoa(t))
		return
	}
	if h, ok := s.homes[t]; ok {
		s.Send(ctx, h.site, Abort{T: t, Try: h.try})
	}
}

// Timer begins a random transaction or restarts an aborted one.
func (s *Site) Timer(ctx proc.Context, tag string) {
	defer s.drain(ctx)
	if tag == TimerBegin {
		s.left--
		ops := make([]Op, s.ops)
		all := s.Place.All()
		for i := range ops {
			ops[i] = Op{Item: all[ctx.Rand().IntN(len(all))], Write: ctx.Rand().Float64() < s.writes}
		}
		t := s.begun*ctx.N() + ctx.Index() + 1
		for s.Find(t) != nil { // a begin command took it
			s.begun++
			t = s.begun*ctx.N() + ctx.Index() + 1
		}
		s.Begin(ctx, t, ops)
		s.nextBegin(ctx)
		return
	}
	if t, err := strconv.Atoi(strings.TrimPrefix(tag, timerRestart)); err == nil && strings.HasPrefix(tag, timerRestart) {
		if x := s.Find(t); x != nil && x.Status == Aborted {
			if s.NewStamp {
				x.Stamp = s.stamp(ctx)
			}
			s.run(ctx, x)
		}
	}
}

// Send delivers m: by the network, or to this site itself once the
// handler running is done (a local lock manager costs no message).
func (s *Site) Send(ctx proc.Context, to proc.NodeID, m proc.Message) {
	if to == ctx.Self() {
		s.local = append(s.local, m)
		return
	}
	ctx.Send(to, m)
}

func (s *Site) drain(ctx proc.Context) {
	if s.busy {
		return
	}
	s.busy = true
	for len(s.local) > 0 {
		m := s.local[0]
		s.local = s.local[1:]
		s.handle(ctx, ctx.Self(), m)
	}
	s.busy = false
}

// Receive handles the model's messages.
func (s *Site) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	s.handle(ctx, from, m)
	s.drain(ctx)
}

func (s *Site) handle(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Request:
		// The chapter's logical clocks: a site seeing a later timestamp
		// advances its counter past it, so its own stay close.
		s.clock = max(s.clock, StampOf(msg.TS).C)
		if s.homes == nil {
			s.homes = map[int]home{}
		}
		s.homes[msg.T] = home{from, msg.Try}
		if s.Serve != nil {
			s.Serve(ctx, from, msg)
			return
		}
		s.lock(ctx, from, msg)
	case Unlock:
		if s.Table != nil {
			s.granted(ctx, s.Table.Unlock(msg.T, msg.Item))
			if len(s.Table.itemsOf(msg.T, true)) == 0 {
				delete(s.homes, msg.T)
			}
		}
	case Grant:
		if x := s.current(msg.T, msg.Try); x != nil {
			s.grant(ctx, x, msg.Done)
		}
	case Access:
		s.Access(ctx, msg.T, msg.Try, msg.Item, msg.Write)
		s.Send(ctx, from, Done{T: msg.T, Try: msg.Try, Item: msg.Item})
	case Done:
		if x := s.current(msg.T, msg.Try); x != nil {
			x.Next++
			s.step(ctx, x)
		}
	case Abort:
		s.clock = max(s.clock, StampOf(msg.TS).C)
		if x := s.current(msg.T, msg.Try); x != nil {
			s.Abort(ctx, x.ID)
		}
	default:
		ctx.Log("unexpected message %s ignored", m.Kind())
	}
}

// current is transaction t homed here if try is its run in progress.
func (s *Site) current(t, try int) *Txn {
	if x := s.Find(t); x != nil && x.Try == try && (x.Status == Running || x.Status == Waiting) {
		return x
	}
	return nil
}

// lock is the lock manager's side of a request: granted at once, or
// queued, or refused by the conflict policy (the requester dies); a
// wounded holder is rolled back.
func (s *Site) lock(ctx proc.Context, from proc.NodeID, r Request) {
	if s.Table == nil {
		s.Table = &LockTable{}
	}
	s.Table.Policy = s.OnConflict
	l := Lock{T: r.T, TS: r.TS, Mode: Mode(r.Mode)}
	out := s.Table.Request(r.Item, l)
	switch {
	case out.Die:
		s.Send(ctx, from, Abort{T: r.T, Try: r.Try})
		return
	case out.Granted:
		s.publish(ctx)
		s.Send(ctx, from, Grant{T: r.T, Try: r.Try, Item: r.Item, Done: s.accessed(ctx, r.T, r.Try, r.Item, l.Mode)})
	default:
		s.publish(ctx)
		if x := s.current(r.T, r.Try); x != nil && from == ctx.Self() {
			s.status(ctx, x, Waiting)
		}
		if s.OnWait != nil {
			s.OnWait(ctx, r.Item, l)
		}
	}
	for _, t := range out.Wound {
		s.Abort(ctx, t)
	}
}

// granted sends the grants a release let through.
func (s *Site) granted(ctx proc.Context, gs []Granted) {
	s.publish(ctx)
	for _, g := range gs {
		h := s.homes[g.Lock.T]
		s.Send(ctx, h.site, Grant{T: g.Lock.T, Try: h.try, Item: g.Item, Done: s.accessed(ctx, g.Lock.T, h.try, g.Item, g.Lock.Mode)})
	}
}

func (s *Site) publish(ctx proc.Context) {
	ctx.Set(KeyLocks, s.Table.State())
	if s.OnLocks != nil {
		s.OnLocks(ctx)
	}
}

// accessed performs the access a granted request carries, if this site
// holds a copy of the item, and reports whether it did.
func (s *Site) accessed(ctx proc.Context, t, try, item int, m Mode) bool {
	if !s.Place.Has(ctx.Self(), item) {
		return false
	}
	s.Access(ctx, t, try, item, m == X)
	return true
}

// Access performs the read or write of item by run try of transaction t
// on this site's copy: the op key.
func (s *Site) Access(ctx proc.Context, t, try, item int, write bool) {
	s.k++
	w := 0
	if write {
		w = 1
	}
	ctx.Set(KeyOp, []int{s.k, t, item, w, try})
}

// grant counts a grant of x's current operation; once it has them all,
// the access is done (by a granting site holding a copy, or else at the
// primary copy by ACCESS) and x goes on.
func (s *Site) grant(ctx proc.Context, x *Txn, done bool) {
	x.grants++
	x.done = x.done || done
	if x.grants < x.need {
		return
	}
	if x.Status == Waiting {
		s.status(ctx, x, Running)
	}
	op := x.Ops[x.Next]
	if !x.done {
		s.Send(ctx, s.Place.Primary(op.Item), Access{T: x.ID, Try: x.Try, Item: op.Item, Write: op.Write})
		return
	}
	x.Next++
	s.step(ctx, x)
}
