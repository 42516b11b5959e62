// Package omtree draws up the Byzantine generals' view of the playground:
// for one lieutenant, the tree of the orders it received under OM(m) by
// the cursor (Lamport, Shostak and Pease, "The Byzantine Generals
// Problem", section 3), each a path of relays from the commander, and how
// the tree folds into majorities level by level into its decision. It
// reads the messages alone: each carries its path (commander first, its
// sender last) and its value.
package omtree

import (
	"slices"
	"strconv"

	"dsim/core/algo/agreement"
	"dsim/core/algo/agreement/om"
	"dsim/core/trace"
	"dsim/wasm/replay"
)

// Node is one order the lieutenant received, or would have: a path and
// the sub-tree of its relays.
type Node struct {
	Path     []int // commander first, the sender last
	Received int   // the value received; the default (retreat) if none came
	Arrived  bool  // it came by the cursor
	Result   int   // the majority this node folds into (Received at a leaf)
	Children []*Node
}

// Tree is a lieutenant's tree.
type Tree struct {
	Lieutenant int
	M          int // the depth of the run's orders, OM(M)
	Root       *Node
}

// Retreat is the default value: what a missing order counts as, and the
// majority of a tie (the paper's majority function).
const Retreat = agreement.Retreat

// order is a delivered order.
type order struct {
	at, to int // event index, receiver id
	path   []int
	value  int
}

// Orders are a run's delivered orders, read once per world.
type Orders struct {
	list  []order
	m     int
	procs []int // the processes that take part, commander first
}

// Read finds the orders of world r: the deliveries of messages with a path
// and a value. ok is false when there are none (not a generals world).
func Read(r *replay.Replay) (*Orders, bool) {
	o := &Orders{}
	for i := range r.Events {
		e := &r.Events[i]
		if e.Type != trace.Deliver {
			continue
		}
		p, ok1 := trace.FieldOf(e.Msg, "path")
		v, ok2 := trace.FieldOf(e.Msg, "value")
		path, ok3 := trace.IntsOf(p)
		value, err := strconv.Atoi(string(v))
		if !ok1 || !ok2 || !ok3 || err != nil || len(path) == 0 {
			continue
		}
		o.list = append(o.list, order{i, e.To, path, value})
		o.m = max(o.m, len(path)-1)
		if len(o.procs) == 0 {
			o.procs = []int{path[0]}
		}
		for _, id := range append(path, e.To) {
			if !slices.Contains(o.procs, id) {
				o.procs = append(o.procs, id)
			}
		}
	}
	slices.Sort(o.procs[min(1, len(o.procs)):])
	return o, len(o.list) > 0
}

// Lieutenants are the processes that received orders, in id order.
func (o *Orders) Lieutenants() []int { return o.procs[1:] }

// At is lieutenant l's tree after the first n events.
func (o *Orders) At(l, n int) Tree {
	got := map[string]int{}
	for _, x := range o.list {
		if x.at < n && x.to == l {
			got[key(x.path)] = x.value
		}
	}
	var build func(path []int) *Node
	build = func(path []int) *Node {
		v, ok := got[key(path)]
		if !ok {
			v = Retreat
		}
		nd := &Node{Path: path, Received: v, Arrived: ok, Result: v}
		if len(path) > o.m {
			return nd
		}
		values := []int{v}
		for _, k := range o.procs[1:] {
			if k == l || slices.Contains(path, k) {
				continue
			}
			c := build(append(slices.Clip(path), k))
			nd.Children = append(nd.Children, c)
			values = append(values, c.Result)
		}
		if len(nd.Children) > 0 {
			nd.Result = om.Majority(values)
		}
		return nd
	}
	return Tree{Lieutenant: l, M: o.m, Root: build([]int{o.procs[0]})}
}

func key(path []int) string {
	b := make([]byte, 0, 4*len(path))
	for _, id := range path {
		b = strconv.AppendInt(append(b, ','), int64(id), 10)
	}
	return string(b)
}
