// Package om is Lamport, Shostak and Pease's oral-messages algorithm OM(m)
// for the Byzantine generals problem ("The Byzantine Generals Problem",
// 1982, section 3 "A Solution with Oral Messages"): the commander sends
// its value to every lieutenant; each lieutenant acts as the commander of
// OM(m-1) to pass the value it received on to the others; each decides by
// majority, folding its tree of received values level by level.
package om

import (
	"fmt"

	"slices"

	"dsim/core/algo"
	"dsim/core/algo/agreement"
	"dsim/core/proc"
)

// Order is a value relayed along Path: the commander first, then each
// lieutenant that passed it on. The sender is the last of the path.
type Order struct {
	Path  []int `json:"path"`
	Value int   `json:"value"`
}

func (Order) Kind() string { return "ORDER" }

// MaxValues bounds the values a lieutenant's tree holds, O(n^m), so that
// the world stays small: m = 1 up to 1001 generals, m = 2 up to 33, m = 3
// up to 12.
const MaxValues = 1000

// Values is the number of values a lieutenant's tree holds in OM(m) among
// n generals, 1 + (n-2) + (n-2)(n-3) + ... + (n-2)...(n-m-1): one per path
// from the commander that does not pass through it; past max, any number
// above max.
func Values(n, m, max int) int {
	total, level := 1, 1
	for k := 2; k <= m+1 && k < n && total <= max; k++ {
		level *= n - k
		total += level
	}
	return total
}

const timerRound = "round"

func init() {
	algo.Register(algo.Spec{
		Name:    "agreement.om",
		Summary: "Lamport, Shostak and Pease's oral messages OM(m): the commander's value relayed m more times, each lieutenant deciding by majority level by level; IC1 and IC2 hold for n > 3m",
		Description: `Lamport, Shostak and Pease, "The Byzantine Generals Problem" (1982), section 3 "A Solution with Oral Messages"; Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Reaching Agreement" (faulty processes).
Algorithm OM(0): (1) the commander sends his value to every lieutenant; (2) each lieutenant uses the value he receives from the commander, or RETREAT if he receives no value. Algorithm OM(m), m > 0: (1) the commander sends his value to every lieutenant; (2) for each i, let v_i be the value lieutenant i receives from the commander, or RETREAT if he receives no value; lieutenant i acts as the commander in OM(m-1) to send v_i to each of the n-2 other lieutenants; (3) for each i and each j != i, let v_j be the value lieutenant i received from lieutenant j in step (2) (using OM(m-1)), or RETREAT if he received no such value; lieutenant i uses majority(v_1, ..., v_{n-1}). Majority is the value held by more than half, else RETREAT.
Each message is an ORDER carrying its path (the commander first, then every lieutenant that relayed it: the recursion's stack) and its value, so its message tree can be drawn from the trace; OM(m) sends (n-1) + (n-1)(n-2) + ... + (n-1)(n-2)...(n-m-1) of them. Each lieutenant keeps its tree of received values, one per path not through itself, and folds it from the leaves: the value of a path is the majority of the value received on it and the values folded at its children; the root's is the decision. It publishes each majority it computes (key majority, [value, path...]) and the decision.
Rounds are synchronous, as the paper assumes (A1 every message is delivered correctly, A2 the receiver knows who sent it, A3 the absence of a message can be detected): round k lasts config round ticks; at its end a lieutenant takes RETREAT for every message of the round that has not come (A3) and relays the round's values; a message arriving after its round is ignored. The decision is taken at the end of round m+1.
Traitors (config traitors) lie by config lie (see the family's keys): flip, split, a mask whose bits are the values of the traitor's successive messages (so a loop over every mask tries every strategy), or silence. IC1 and IC2 hold with at most m traitors and n > 3m (the paper's theorem 1); with n = 3m they can fail (section 2: no solution with fewer than 3m+1 generals).
Where the text is silent: the commander is the first process unless config commander names another; a message whose path does not start with the commander, repeats a process, passes through the receiver or is too long is ignored, as is a second message on the same path; nothing runs (a log line says why) when a lieutenant's tree would hold more than 1000 values, which keeps the world small: m = 1 up to 1001 generals, m = 2 up to 33, m = 3 up to 12.`,
		Topology:    "complete",
		Config:      agreement.Params(3),
		State:       append(agreement.State[:len(agreement.State):len(agreement.State)], algo.StateKey{Key: KeyMajority, Doc: "[value, path...]: a majority a lieutenant computed folding its tree, at the node of that path (deepest first; the root's, [decision, commander], last)"}),
		Messages:    []proc.Message{Order{}},
		Assumptions: agreement.Tolerating("at most m traitors among more than 3m generals", 3, 0),
		Properties:  []algo.Property{agreement.IC1, agreement.IC2},
		Check: func(v algo.Values, ids []proc.NodeID) error {
			if n := len(ids); Values(n, v.Int("m"), MaxValues) > MaxValues {
				return fmt.Errorf("OM(%d) among %d generals: each lieutenant would hold more than %d values (m = 1 admits up to 1001 generals, m = 2 up to 33, m = 3 up to 12)", v.Int("m"), n, MaxValues)
			}
			return agreement.Check(3)(v, ids)
		},
		New: agreement.Factory(func(g agreement.General) proc.Node { return &node{General: g} }),
		// Measured with m = 1 and the default round: the boot is the
		// commander's first messages; then every lieutenant keeps a tree
		// of n-1 values and relays n-2 messages.
		Memory: algo.Memory{Boot: algo.Bytes(500), Load: algo.PerPeer(0, 200), BootEvents: 3},
	})
}

// KeyMajority is the key of each majority a lieutenant folds.
const KeyMajority = "majority"

// vertex is a node of a lieutenant's tree: the path a value came along,
// the value (RETREAT until it comes), and the paths that extend it.
type vertex struct {
	path  []int
	value int
	got   bool
	kids  []*vertex
}

type node struct {
	agreement.General
	root  *vertex   // the commander's value
	level []*vertex // the vertices of the current round
	round int       // rounds over
}

func (p *node) Start(ctx proc.Context) {
	p.root, p.level, p.round = nil, nil, 0
	if !p.General.Start(ctx) {
		return
	}
	if v := Values(ctx.N(), p.M, MaxValues); v > MaxValues {
		if ctx.Self() == p.Commander { // one line for the world
			ctx.Log("OM(%d) among %d generals: each lieutenant would hold more than %d values: nothing runs", p.M, ctx.N(), MaxValues)
		}
		return
	}
	if ctx.Self() == p.Commander {
		// Step (1): the commander sends his value to every lieutenant.
		p.send(ctx, []int{int(ctx.Self())}, p.Order, p.Others(ctx, nil))
		return
	}
	p.root = &vertex{path: []int{int(p.Commander)}}
	p.level = []*vertex{p.root}
	ctx.SetTimer(p.Round, timerRound)
}

// send sends value along path to each receiver, as a traitor lies.
func (p *node) send(ctx proc.Context, path []int, value int, to []proc.NodeID) {
	for i, id := range to {
		if v, ok := p.Lie(value, i, len(to)); ok {
			ctx.Send(id, Order{Path: path, Value: v})
		}
	}
}

// Receive files a value at its path's vertex, if it comes in its round.
func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	o, ok := m.(Order)
	if !ok || p.root == nil {
		return
	}
	if !p.ValidPath(ctx, o.Path) || int(from) != o.Path[len(o.Path)-1] {
		ctx.Log("an ORDER along %v from %d ignored: not a path to here", o.Path, from)
		return
	}
	if len(o.Path) != p.round+1 {
		ctx.Log("an ORDER along %v ignored: it belongs to round %d, this is round %d", o.Path, len(o.Path), p.round+1)
		return
	}
	for _, v := range p.level {
		if slices.Equal(v.path, o.Path) {
			if v.got {
				ctx.Log("a second ORDER along %v ignored", o.Path)
				return
			}
			v.value, v.got = o.Value, true
			return
		}
	}
}

// Timer ends a round: the values that have not come are RETREAT (A3);
// in rounds 1..m the lieutenant relays each, as the commander of
// OM(m-k); after round m+1 it folds its tree and decides.
func (p *node) Timer(ctx proc.Context, tag string) {
	if tag != timerRound || p.root == nil {
		return
	}
	p.round++
	if p.round > p.M {
		p.decide(ctx)
		return
	}
	self := ctx.Self()
	var next []*vertex
	for _, v := range p.level {
		if !v.got {
			ctx.Log("no ORDER along %v: RETREAT", v.path)
		}
		to := p.Others(ctx, v.path)
		relay := append(v.path[:len(v.path):len(v.path)], int(self))
		p.send(ctx, relay, v.value, to)
		for _, id := range to {
			kid := &vertex{path: append(v.path[:len(v.path):len(v.path)], int(id))}
			v.kids = append(v.kids, kid)
			next = append(next, kid)
		}
	}
	p.level = next
	ctx.SetTimer(p.Round, timerRound)
}

// decide folds the tree from the leaves: step (3), majority at every
// level.
func (p *node) decide(ctx proc.Context) {
	for _, v := range p.level {
		if !v.got {
			ctx.Log("no ORDER along %v: RETREAT", v.path)
		}
	}
	p.level = nil
	ctx.Set(agreement.KeyDecision, p.fold(ctx, p.root))
}

func (p *node) fold(ctx proc.Context, v *vertex) int {
	if len(v.kids) == 0 {
		return v.value
	}
	vals := []int{v.value}
	for _, k := range v.kids {
		vals = append(vals, p.fold(ctx, k))
	}
	maj := Majority(vals)
	ctx.Set(KeyMajority, append([]int{maj}, v.path...))
	return maj
}

// Majority is the value held by more than half of vals, else RETREAT.
func Majority(vals []int) int {
	for _, v := range vals {
		count := 0
		for _, w := range vals {
			if w == v {
				count++
			}
		}
		if 2*count > len(vals) {
			return v
		}
	}
	return agreement.Retreat
}

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return agreement.NoCommand(name)
}
