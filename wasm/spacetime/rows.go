package spacetime

// With hundreds of processes only a few rows fit, and most are idle in any
// window: Layout can fold away the rows of the processes with nothing in
// view, leaving a marker row where consecutive ones were.

// FoldMin is the number of processes up to which nothing folds: they fit.
const FoldMin = 20

// slot is one row on screen: a process's lifeline, or with p < 0 the
// marker of quiet folded processes.
type slot struct{ p, quiet int }

// Layout lays out v's rows for the time it shows. With Fold on and more
// than FoldMin processes, it keeps only the processes with an event in
// the window or an arrow across it, and those of the selected event (or
// -1) and its message; otherwise every process has its row.
func (d *Diagram) Layout(v *Viewport, selected int) {
	v.slots, v.slotOf = nil, nil
	n := len(d.R.Nodes)
	if !d.Fold || n <= FoldMin {
		return
	}
	keep := make([]bool, n)
	t0, t1 := v.T(v.Left), v.T(v.Left+v.Width)
	elo, ehi := d.events(t0-1, t1+1) // as Draw's marks
	for i := elo; i < ehi; i++ {
		if p := d.R.NodeOf(i); p >= 0 {
			keep[p] = true
		}
	}
	// an arrow in view keeps both its ends, so that none points at a fold
	lo, hi := d.visible(t0, t1)
	for i := lo; i < hi; i++ {
		if a := &d.arrows[i]; float64(a.t1) >= t0 {
			keep[a.from], keep[a.to] = true, true
		}
	}
	if selected >= 0 {
		if p := d.R.NodeOf(selected); p >= 0 {
			keep[p] = true
		}
		for _, f := range d.R.FlightsOf(selected) {
			keep[d.arrows[f].from], keep[d.arrows[f].to] = true, true
		}
	}
	v.slotOf = make([]int, n)
	for p, k := range keep {
		switch {
		case k:
			v.slotOf[p] = len(v.slots)
			v.slots = append(v.slots, slot{p: p})
		case len(v.slots) > 0 && v.slots[len(v.slots)-1].p < 0:
			v.slotOf[p] = -1
			v.slots[len(v.slots)-1].quiet++
		default:
			v.slotOf[p] = -1
			v.slots = append(v.slots, slot{p: -1, quiet: 1})
		}
	}
}

// rows is the number of rows on screen.
func (d *Diagram) rows(v *Viewport) int {
	if v.slotOf == nil {
		return len(d.R.Nodes)
	}
	return len(v.slots)
}

// at is the k-th row on screen.
func (v *Viewport) at(k int) slot {
	if v.slotOf == nil {
		return slot{p: k}
	}
	return v.slots[k]
}

// slotY is the y coordinate of the k-th row on screen.
func (v *Viewport) slotY(k int) float64 { return v.Top + (float64(k)+0.5)*v.RowH - v.Y0 }

// slot is the index of the row on screen of the process at position p:
// its own, or the marker it is folded into.
func (v *Viewport) slot(p int) int {
	if v.slotOf == nil {
		return p
	}
	q := p
	for q >= 0 && v.slotOf[q] < 0 {
		q--
	}
	switch {
	case q == p:
		return v.slotOf[p]
	case q < 0:
		return 0
	}
	return v.slotOf[q] + 1
}

// centre scrolls the k-th row on screen to the middle of the plot, or as
// near as the top row lets it.
func (v *Viewport) centre(k int) { v.Y0 = max(0, (float64(k)+0.5)*v.RowH-v.Height/2) }

// Centre scrolls v, laid out for its window, so that the process at
// position p is in the middle of the plot: its row, or the marker it is
// folded into.
func (d *Diagram) Centre(v *Viewport, p int) { v.centre(v.slot(p)) }

// Shown is the range [lo, hi) of process positions whose rows, or the
// markers they are folded into, have their middle in the plot; lo == hi
// when none has.
func (d *Diagram) Shown(v *Viewport) (lo, hi int) {
	lo, pos := -1, 0
	for k := range d.rows(v) {
		n := 1
		if s := v.at(k); s.p < 0 {
			n = s.quiet
		}
		if y := v.slotY(k); y >= v.Top && y <= v.Top+v.Height {
			if lo < 0 {
				lo = pos
			}
			hi = pos + n
		}
		pos += n
	}
	if lo < 0 {
		return 0, 0
	}
	return lo, hi
}
