// Package passes runs work made of passes over items, such as indexing a
// trace in a few passes over its events, a bounded number of items at a
// time: a page does a slice of it per task and keeps responding.
package passes

// Pass is one pass over items.
type Pass struct {
	Len  func() int       // how many items; asked once the passes before are done
	Run  func(lo, hi int) // does items [lo, hi), after those before lo
	Done func()           // after the last item; nil: nothing to do
}

// Runner runs passes in order.
type Runner struct {
	passes []Pass
	pass   int // passes done
	i      int // items of the current pass done
}

// New returns a runner of the passes, none of them started.
func New(passes ...Pass) *Runner { return &Runner{passes: passes} }

// Step does up to n more items (n > 0), going on to the next pass when one
// ends, and reports whether every pass is done.
func (r *Runner) Step(n int) bool {
	for r.pass < len(r.passes) {
		p := &r.passes[r.pass]
		left := p.Len() - r.i
		if left > 0 && n <= 0 {
			return false
		}
		k := min(n, left)
		if k > 0 {
			p.Run(r.i, r.i+k)
		}
		r.i += k
		n -= k
		if k == left {
			if p.Done != nil {
				p.Done()
			}
			r.pass++
			r.i = 0
		}
	}
	return true
}

// Done reports whether every pass is done.
func (r *Runner) Done() bool { return r.pass == len(r.passes) }
