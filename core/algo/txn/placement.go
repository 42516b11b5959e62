package txn

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dsim/core/proc"
)

// Placement says where the data items live: each item has copies at its
// site and the next replicas-1 sites in ring order, the first being the
// primary copy.
type Placement struct {
	Ring   []proc.NodeID         // every site, in ring order from index 0
	items  []int                 // every item, in increasing code
	copies map[int][]proc.NodeID // item -> its sites, primary first
}

// Spot is an item named at a site by the items config key.
type Spot struct {
	Item int
	Site proc.NodeID
}

// ParseSpots reads the items config key: "A@1 B@2 Q@3" puts item A at the
// site whose id is 1. The error names the key and the bad token.
func ParseSpots(s string) ([]Spot, error) {
	var out []Spot
	for _, tok := range strings.Fields(s) {
		name, at, ok := strings.Cut(tok, "@")
		item, err := ParseItem(name)
		id, err2 := strconv.Atoi(at)
		if !ok || err != nil || err2 != nil || id < int(proc.MinID) || id > int(proc.MaxID) {
			return nil, fmt.Errorf("config key \"items\": %q is not <item>@<site id>, e.g. A@1", tok)
		}
		if slices.ContainsFunc(out, func(o Spot) bool { return o.Item == item }) {
			return nil, fmt.Errorf("config key \"items\": item %s is placed twice", name)
		}
		out = append(out, Spot{item, proc.NodeID(id)})
	}
	return out, nil
}

// RingOf lists every process of ctx's world in ring order from index 0.
func RingOf(ctx proc.Context) []proc.NodeID {
	n, i := ctx.N(), ctx.Index()
	ring := make([]proc.NodeID, n)
	ring[i] = ctx.Self()
	for k, id := range ctx.Peers() {
		ring[(i+k+1)%n] = id
	}
	return ring
}

// NewPlacement places the items on ring: spots, or by default the i-th
// letter (A, B, ..., Z, A1, B1, ...) at the site of ring index i; each
// item with replicas copies (at most one per site). The error names a
// site that is not a process.
func NewPlacement(ring []proc.NodeID, spots []Spot, replicas int) (*Placement, error) {
	p := &Placement{Ring: ring, copies: map[int][]proc.NodeID{}}
	if len(spots) == 0 {
		for i, id := range ring {
			spots = append(spots, Spot{i, id})
		}
	}
	replicas = min(replicas, len(ring))
	for _, s := range spots {
		at := slices.Index(ring, s.Site)
		if at < 0 {
			return nil, fmt.Errorf("config key \"items\": item %s is placed at %d, which is not a process", ItemName(s.Item), s.Site)
		}
		sites := make([]proc.NodeID, replicas)
		for k := range sites {
			sites[k] = ring[(at+k)%len(ring)]
		}
		p.copies[s.Item] = sites
		p.items = append(p.items, s.Item)
	}
	slices.Sort(p.items)
	return p, nil
}

// All lists every item, in increasing code. The slice is shared.
func (p *Placement) All() []int { return p.items }

// Sites lists the sites holding a copy of item, primary first; none for
// an unknown item. The slice is shared.
func (p *Placement) Sites(item int) []proc.NodeID { return p.copies[item] }

// Primary is the site of the item's primary copy.
func (p *Placement) Primary(item int) proc.NodeID { return p.copies[item][0] }

// Has reports whether site holds a copy of item.
func (p *Placement) Has(site proc.NodeID, item int) bool {
	return slices.Contains(p.copies[item], site)
}

// Items lists the items of which site holds a copy, in increasing code.
func (p *Placement) Items(site proc.NodeID) []int {
	var out []int
	for _, it := range p.items {
		if p.Has(site, it) {
			out = append(out, it)
		}
	}
	return out
}

// From lists the item's copies nearest first as seen from site: its own
// copy, if any, then the next sites in ring order.
func (p *Placement) From(site proc.NodeID, item int) []proc.NodeID {
	at, n := slices.Index(p.Ring, site), len(p.Ring)
	out := slices.Clone(p.copies[item])
	dist := func(id proc.NodeID) int { return (slices.Index(p.Ring, id) - at + n) % n }
	slices.SortStableFunc(out, func(a, b proc.NodeID) int { return dist(a) - dist(b) })
	return out
}

// Check reports an operation on an item that has no site.
func (p *Placement) Check(ops []Op) error {
	for _, o := range ops {
		if !o.Abort && p.copies[o.Item] == nil {
			return fmt.Errorf("item %s is at no site (config key \"items\")", ItemName(o.Item))
		}
	}
	return nil
}
