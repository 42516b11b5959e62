package spacetime

import (
	"math"
	"slices"
	"sort"
	"strconv"

	"dsim/core/trace"
)

// Long idle stretches, such as a wait for a timeout, would take most of the
// plot and show nothing; Fit can collapse them. A collapsed gap is a
// stretch between consecutive events longer than GapMin ticks and than
// GapFrac of the run, drawn GapW pixels wide (or less, when it is narrower
// than that at the zoom) with a break mark, so that time is linear between
// gaps and piecewise linear across them.
const (
	GapMin  = 20
	GapFrac = 0.1
	GapW    = 28.0
)

// Gap is an idle stretch between two consecutive event times.
type Gap struct{ T0, T1 int64 }

// gaps is the pass over events [lo, hi) that lists the stretches of the
// run, up to EndT, that collapse: the times between the events drawn,
// those at a process and partitions and heals; the scenario's checks and
// logs are not drawn.
func (b *Builder) gaps(lo, hi int) {
	d := b.d
	for i := lo; i < hi; i++ {
		t, typ := d.evTimes[i], d.R.Events[i].Type
		drawn := d.R.NodeOf(i) >= 0 || typ == trace.Partition || typ == trace.Heal
		if !drawn || t > d.EndT {
			continue
		}
		if t-b.last > b.long {
			d.gaps = append(d.gaps, Gap{b.last, t})
		}
		b.last = t
	}
}

// Gaps are the stretches a collapsed viewport draws narrow, in time order.
func (d *Diagram) Gaps() []Gap { return d.gaps }

// w is gap k's width on screen.
func (v *Viewport) w(k int) float64 {
	return math.Min(GapW, float64(v.gaps[k].T1-v.gaps[k].T0)*v.Scale)
}

// prep computes cut[k], the pixels the gaps before gap k take off the
// linear scale, when the scale changed since: X and T are called for
// every arrow of a frame.
func (v *Viewport) prep() {
	if v.cutScale == v.Scale && len(v.cut) == len(v.gaps)+1 {
		return
	}
	// a new slice: copies of the viewport share the old one
	v.cutScale = v.Scale
	v.cut = make([]float64, 1, len(v.gaps)+1)
	for k, g := range v.gaps {
		v.cut = append(v.cut, v.cut[k]+float64(g.T1-g.T0)*v.Scale-v.w(k))
	}
}

// gapAt is the index of the gap that collapses on screen and holds time t
// strictly inside, or -1.
func (v *Viewport) gapAt(t float64) int {
	k := sort.Search(len(v.gaps), func(k int) bool { return float64(v.gaps[k].T1) > t })
	if k < len(v.gaps) && t > float64(v.gaps[k].T0) && v.w(k) == GapW {
		return k
	}
	return -1
}

// p is the pixel offset of time t from time 0.
func (v *Viewport) p(t float64) float64 {
	v.prep()
	k := sort.Search(len(v.gaps), func(k int) bool { return float64(v.gaps[k].T1) > t })
	x := t*v.Scale - v.cut[k]
	if k < len(v.gaps) && t > float64(v.gaps[k].T0) {
		g := v.gaps[k]
		l := float64(g.T1 - g.T0)
		x -= (t - float64(g.T0)) * (v.Scale - v.w(k)/l)
	}
	return x
}

// pInv is the time at pixel offset x from time 0, the inverse of p.
func (v *Viewport) pInv(x float64) float64 {
	v.prep()
	start := func(k int) float64 { return float64(v.gaps[k].T0)*v.Scale - v.cut[k] }
	k := sort.Search(len(v.gaps), func(k int) bool { return start(k)+v.w(k) > x })
	if k < len(v.gaps) && x > start(k) {
		g := v.gaps[k]
		return float64(g.T0) + (x-start(k))/v.w(k)*float64(g.T1-g.T0)
	}
	return (x + v.cut[k]) / v.Scale
}

// X is the x coordinate of time t.
func (v *Viewport) X(t float64) float64 { return v.Left + v.p(t) - v.p(v.T0) }

// T is the time at x.
func (v *Viewport) T(x float64) float64 { return v.pInv(x - v.Left + v.p(v.T0)) }

// Place scrolls the viewport, keeping the zoom, so that time t is at x.
func (v *Viewport) Place(t, x float64) { v.T0 = v.pInv(v.p(t) - (x - v.Left)) }

// Pan scrolls the viewport by dx pixels, to the right for dx > 0.
func (v *Viewport) Pan(dx float64) { v.T0 = v.T(v.Left + dx) }

// Collapsed reports whether the viewport collapses idle stretches.
func (v *Viewport) Collapsed() bool { return v.gaps != nil }

// breaks appends a zig-zag across the plot, from top to bottom, in the
// middle of every collapsed gap in view, and labels the gaps with their
// length on the axis, in place of the time labels too close to them.
func (v *Viewport) breaks(b []byte, ticks []Tick, bottom float64) ([]byte, []Tick) {
	var labels []Tick
	for k, g := range v.gaps {
		x0, x1 := v.X(float64(g.T0)), v.X(float64(g.T1))
		if v.w(k) < GapW || x1 < v.Left || x0 > v.Left+v.Width {
			continue
		}
		x := (x0 + x1) / 2
		b = moveTo(b, x-2, v.Top)
		for y, s := v.Top+4, 1.0; y <= bottom; y, s = y+4, -s {
			b = lineTo(b, x+2*s, y)
		}
		labels = append(labels, Tick{X: x, Label: "≈" + strconv.FormatInt(g.T1-g.T0, 10), Gap: true})
	}
	ticks = slices.DeleteFunc(ticks, func(tk Tick) bool {
		for _, l := range labels {
			if math.Abs(tk.X-l.X) < gapLabelRoom {
				return true
			}
		}
		return false
	})
	return b, append(ticks, labels...)
}

// gapLabelRoom is the distance, in pixels, between the centres of a gap's
// label and a time label that keeps two six-digit labels of the axis's
// font (site/style.css) apart.
const gapLabelRoom = 40.0
