package spacetime

import "math"

// RowAt is the position of the process whose row is at y, when a process
// (not a marker of folded rows) has its row there.
func (d *Diagram) RowAt(v *Viewport, y float64) (int, bool) {
	k := int(math.Floor((y - v.Top + v.Y0) / v.RowH))
	if k < 0 || k >= d.rows(v) {
		return 0, false
	}
	s := v.at(k)
	return s.p, s.p >= 0
}

// CutPath draws a cut across the rows on screen: at[p] is the index of the
// last event of the process at position p that the cut holds (-1: none),
// and the line crosses that row just after it, or at the plot's left edge;
// but where upon (nil: nowhere) holds an index for p, just before that
// event, the one the cut was taken upon (a snapshot recorded as a marker
// arrived), which may come much later.
func (d *Diagram) CutPath(v *Viewport, at, upon []int) string {
	var b []byte
	for k := range d.rows(v) {
		s := v.at(k)
		if s.p < 0 || s.p >= len(at) {
			continue
		}
		y := v.slotY(k)
		if y < v.Top-v.RowH || y > v.Top+v.Height+v.RowH {
			continue
		}
		x := v.Left
		switch {
		case s.p < len(upon) && upon[s.p] >= 0:
			x = clip(v.X(float64(d.R.Events[upon[s.p]].T))-4, v.Left, v.Left+v.Width)
		case at[s.p] >= 0:
			x = clip(v.X(float64(d.R.Events[at[s.p]].T))+4, v.Left, v.Left+v.Width)
		}
		if b == nil {
			b = moveTo(b, x, y-v.RowH/2)
		} else {
			b = lineTo(b, x, y-v.RowH/2)
		}
		b = lineTo(b, x, y+v.RowH/2)
	}
	return string(b)
}

// FlightPath draws the arrows of flights fs (indexes into the replay's
// Flights) as plain segments, for a highlight over the diagram; a flight
// that never arrived runs to the plot's right edge at its sender's row.
func (d *Diagram) FlightPath(v *Viewport, fs []int) string {
	var b []byte
	for _, f := range fs {
		fl := &d.R.Flights[f]
		x0, y0 := v.X(float64(d.R.Events[fl.Send].T)), v.Y(d.R.NodeOf(fl.Send))
		x1, y1 := v.Left+v.Width, y0
		if fl.End >= 0 {
			x1, y1 = v.X(float64(d.R.Events[fl.End].T)), v.Y(d.R.NodeOf(fl.End))
		}
		if x1 < v.Left || x0 > v.Left+v.Width || max(y0, y1) < v.Top || min(y0, y1) > v.Top+v.Height {
			continue
		}
		x0, y0, x1, y1 = clipSegment(x0, y0, x1, y1, v.Left, v.Left+v.Width)
		b = lineTo(moveTo(b, x0, y0), x1, y1)
	}
	return string(b)
}
