// Package order holds what the ordered multicasts share: the properties
// they promise (FIFO, causal and total order), the state keys their
// checkers read, the hold-back queue, the application that consumes the
// delivered messages (a bulletin board or a replicated bank account) and
// the workload that multicasts: the multicast command, or random multicasts
// drawn from each process's own stream (the events configuration key). The
// orderings themselves live in the sub-packages fifo, causal and total.
//
// A process multicasts to the whole group, itself included; the network
// receives a message (a deliver event of the trace), and the ordering
// algorithm later delivers it to the application (the delivered state key),
// in the order it promises.
package order

import (
	"fmt"
	"strconv"
	"strings"

	"dsim/core/algo"
	"dsim/core/proc"
)

// The properties of ordered multicast (see init for what each holds), judged
// by core/check from the multicasts and deliveries the state keys below
// record, with happened-before computed from those events alone, not from
// the algorithms' timestamps.
const (
	FIFO   = "order.fifo"
	Causal = "order.causal"
	Total  = "order.total"
)

// State keys. A multicast message is named by its origin and its number
// among the origin's multicasts, from 1: "<origin>:<seq>" (Label).
const (
	// KeyMulticasts is how many messages the process has multicast: it
	// becomes s at the multicast of its s-th message, before any copy of
	// it leaves.
	KeyMulticasts = "multicasts"
	// KeyDelivered is the label of the message the process last delivered
	// to its application: it changes at every delivery, and the order of
	// its values is the process's delivery order.
	KeyDelivered = "delivered"
	// KeyHeld is how many received messages wait in the hold-back queue.
	KeyHeld = "held"
	// The applications' keys: the board's last post, the bank's balance.
	KeyPost    = "post"
	KeyBalance = "balance"
)

func init() {
	algo.DeclareFamily("order", "ordered multicast: FIFO, causal and total delivery order")
	algo.DeclareProperty(FIFO, "if a process multicasts m and then m', every process that delivers m' has delivered m before it (and delivers each message at most once); deliveries are the changes of the delivered key")
	algo.DeclareProperty(Causal, "if multicast(m) → multicast(m'), happened-before taken over the multicasts and deliveries (process order, and a message's multicast before its deliveries), every process that delivers m' has delivered m before it (and delivers each message at most once)")
	algo.DeclareProperty(Total, "any two processes that deliver both m and m' deliver them in the same order (and each message at most once)")
}

// Label names message seq of origin as the delivered key shows it.
func Label(origin proc.NodeID, seq int) string {
	return strconv.Itoa(int(origin)) + ":" + strconv.Itoa(seq)
}

// ParseLabel reads a Label back.
func ParseLabel(s string) (origin, seq int, ok bool) {
	a, b, found := strings.Cut(s, ":")
	o, err1 := strconv.Atoi(a)
	q, err2 := strconv.Atoi(b)
	return o, q, found && err1 == nil && err2 == nil
}

// Commands are the multicasts a scenario orders one by one.
var Commands = []algo.CommandSpec{
	{Name: "multicast", Args: "[payload=<text>]", Doc: "multicast a message to the group, the process itself included; the bank reads the payload as +N (deposit N), -N (withdraw N) or +N% (interest of N percent)"},
}

// TimerEvent is the tag of the random workload's timer.
const TimerEvent = "multicast"

// Params are the configuration keys every ordering shares: the
// application and the random workload.
func Params() []algo.Param {
	return []algo.Param{
		{Name: "app", Type: algo.Str, Default: "board", Doc: `the application the delivered messages go to: "board" (a bulletin board: each delivery posts the payload, if any) or "bank" (a replicated account: each delivery applies the payload to the balance)`},
		{Name: "balance", Type: algo.Int, Default: 1000, Doc: "the bank's opening balance, in whole units", Min: -1e12, Max: 1e12},
		{Name: "events", Type: algo.Int, Default: 0, Doc: "random multicasts each process makes by itself, one at a time from its boot (0: none, only the commands); the bank's are deposits of 1..100 or +1% interest, drawn at random", Min: 0, Max: 1e6},
		{Name: "rate", Type: algo.Float, Default: 0.1, Doc: "random multicasts per tick of local time at each process, on average: the gap before each is uniform in 1..2/rate-1 ticks", Min: 0.001, Max: 1},
	}
}

// State is what every ordering declares, the applications' keys included.
var State = []algo.StateKey{
	{Key: KeyMulticasts, Doc: "how many messages the process has multicast; s at the multicast of its s-th message"},
	{Key: KeyDelivered, Doc: `"<origin>:<seq>", the message last delivered to the application: seq-th multicast of process origin`},
	{Key: KeyHeld, Doc: "how many received messages wait in the hold-back queue"},
	{Key: KeyPost, Doc: `app="board": the payload of the last message delivered with one`},
	{Key: KeyBalance, Doc: `app="bank": the replica's balance after the updates delivered so far`, Chart: true},
}

// Process is the ordering side of a process: Multicast sends the message
// numbered seq (the multicasts key already counts it) to the group.
type Process interface {
	Multicast(ctx proc.Context, seq int, payload string)
}

// Group is the application and workload side of a process: it numbers the
// multicasts, turns commands and the workload's timer into them, and takes
// the deliveries to the application. The orderings embed it and route their
// Command and Timer calls through it.
type Group struct {
	app     string
	opening int // the bank's opening balance
	events  int // random multicasts per process
	gaps    int // the gap before each is uniform in 1..gaps ticks
	left    int // random multicasts still to make
	sent    int // multicasts made
	balance int
}

// NewGroup reads the configuration Params describes.
func NewGroup(v algo.Values) (Group, error) {
	app := v.String("app")
	if app != "board" && app != "bank" {
		return Group{}, fmt.Errorf(`config key "app": want "board" or "bank", got %q`, app)
	}
	// 2/rate is one IEEE division, the same on every platform.
	return Group{app: app, opening: v.Int("balance"), events: v.Int("events"), gaps: max(int(2/v.Float("rate"))-1, 1)}, nil
}

// Start sets the keys' first values and arms the first random multicast.
// Call it from the ordering's Start.
func (g *Group) Start(ctx proc.Context) {
	g.sent, g.left, g.balance = 0, g.events, g.opening
	ctx.Set(KeyMulticasts, 0)
	ctx.Set(KeyHeld, 0)
	if g.app == "bank" {
		ctx.Set(KeyBalance, g.balance)
	}
	g.next(ctx)
}

func (g *Group) next(ctx proc.Context) {
	if g.left > 0 {
		ctx.SetTimer(proc.Duration(1+ctx.Rand().IntN(g.gaps)), TimerEvent)
	}
}

func (g *Group) multicast(ctx proc.Context, p Process, payload string) {
	g.sent++
	ctx.Set(KeyMulticasts, g.sent)
	p.Multicast(ctx, g.sent, payload)
}

// Timer makes a random multicast when tag is the workload's, and reports
// whether it was.
func (g *Group) Timer(ctx proc.Context, p Process, tag string) bool {
	if tag != TimerEvent {
		return false
	}
	if g.left > 0 {
		g.left--
		payload := "" // the board's: the delivered key names the message
		if g.app == "bank" {
			payload = "+1%"
			if r := ctx.Rand(); r.IntN(2) == 0 {
				payload = "+" + strconv.Itoa(1+r.IntN(100))
			}
		}
		g.multicast(ctx, p, payload)
		g.next(ctx)
	}
	return true
}

// Command handles multicast.
func (g *Group) Command(ctx proc.Context, p Process, name string, args proc.Args) error {
	if name != "multicast" {
		return fmt.Errorf("unknown command %q (known: multicast)", name)
	}
	payload := ""
	for k, v := range args {
		s, ok := v.(string)
		if k != "payload" || !ok {
			return fmt.Errorf("command \"multicast\" takes only payload=<text>, got %s", args)
		}
		payload = s
	}
	if g.app == "bank" {
		if _, _, err := update(payload); err != nil {
			return fmt.Errorf("multicast: payload: %v", err)
		}
	}
	g.multicast(ctx, p, payload)
	return nil
}

// Deliver hands message seq of origin to the application: the delivered key
// names it, then the board posts it or the bank applies it.
func (g *Group) Deliver(ctx proc.Context, origin proc.NodeID, seq int, payload string) {
	label := Label(origin, seq)
	ctx.Set(KeyDelivered, label)
	switch {
	case g.app == "board" && payload == "": // the delivered key says it all
	case g.app == "board":
		ctx.Set(KeyPost, payload)
	default:
		n, percent, err := update(payload)
		if err != nil {
			ctx.Log("%s: %v: the balance stays %d", label, err, g.balance)
			return
		}
		g.balance = apply(g.balance, n, percent)
		ctx.Set(KeyBalance, g.balance)
	}
}

// The bounds of a bank update and of the balance, which stays at its bound
// rather than overflow: the balance times 100+N stays inside int64.
const (
	maxAmount  = 1_000_000_000
	maxPercent = 1000
	maxBalance = 1 << 50
)

// update reads a bank payload: +N or -N adds N, +N% or -N% adds N percent.
func update(s string) (n int, percent bool, err error) {
	body, percent := strings.CutSuffix(s, "%")
	n, err = strconv.Atoi(body)
	if err != nil || body[0] != '+' && body[0] != '-' || n < -maxAmount || n > maxAmount || percent && (n < -100 || n > maxPercent) {
		return 0, false, fmt.Errorf("%q is not +N, -N or +N%% (|N| at most %d, a percentage from -100 to %d)", s, maxAmount, maxPercent)
	}
	return n, percent, nil
}

// apply is the bank's update, in whole units: interest is rounded half away
// from zero (1000 at +1% is 1010, 1100 at +1% is 1111).
func apply(balance, n int, percent bool) int {
	if percent {
		v := balance * (100 + n)
		if v < 0 {
			balance = -((-v + 50) / 100)
		} else {
			balance = (v + 50) / 100
		}
	} else {
		balance += n
	}
	return min(max(balance, -maxBalance), maxBalance)
}

// Queue is the hold-back queue: messages received but not yet delivered,
// in the order they were held. The held key shows its length.
type Queue[T any] struct {
	held []T
}

// Hold adds m at the end of the queue, or before the first message it
// comes before when before is not nil (a queue sorted by timestamp).
func (q *Queue[T]) Hold(ctx proc.Context, m T, before func(a, b T) bool) {
	i := len(q.held)
	for before != nil && i > 0 && before(m, q.held[i-1]) {
		i--
	}
	q.held = append(q.held, m)
	copy(q.held[i+1:], q.held[i:])
	q.held[i] = m
	ctx.Set(KeyHeld, len(q.held))
}

// Receive delivers m at once if it is ready, then every held message that
// makes ready (see Drain); otherwise it holds m back at the end of the queue.
func (q *Queue[T]) Receive(ctx proc.Context, m T, ready func(i int, m T) bool, deliver func(m T)) {
	if !ready(len(q.held), m) {
		q.Hold(ctx, m, nil)
		return
	}
	deliver(m)
	q.Drain(ctx, ready, deliver)
}

// Drain delivers, as long as there is one, the first held message that is
// ready (i: its place in the queue), taking it out of the queue first.
func (q *Queue[T]) Drain(ctx proc.Context, ready func(i int, m T) bool, deliver func(m T)) {
	for i := 0; i < len(q.held); {
		if m := q.held[i]; ready(i, m) {
			q.held = append(q.held[:i], q.held[i+1:]...)
			ctx.Set(KeyHeld, len(q.held))
			deliver(m)
			i = 0
		} else {
			i++
		}
	}
}

// Index is the place of id in ring order (ctx.Index for the process
// itself), or -1 when id is no process: the vector timestamps' indexing.
func Index(ctx proc.Context, id proc.NodeID) int {
	if id == ctx.Self() {
		return ctx.Index()
	}
	for k, p := range ctx.Peers() {
		if p == id {
			return (ctx.Index() + 1 + k) % ctx.N()
		}
	}
	return -1
}
