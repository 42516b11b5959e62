package passes

import (
	"fmt"
	"reflect"
	"testing"
)

// Every item of every pass is done once, in order, each pass's Done after
// its last item, whatever the step; and no step does more than asked.
func TestStepsCoverEveryItemInOrder(t *testing.T) {
	sizes := []int{5, 0, 3, 12}
	var want []string
	for p, n := range sizes {
		for i := range n {
			want = append(want, fmt.Sprint(p, ":", i))
		}
		want = append(want, fmt.Sprint(p, " done"))
	}
	for _, step := range []int{1, 2, 5, 7, 100} {
		var got []string
		var ps []Pass
		done := 0
		for p, n := range sizes {
			ps = append(ps, Pass{
				Len: func() int { return n },
				Run: func(lo, hi int) {
					done += hi - lo
					for i := lo; i < hi; i++ {
						got = append(got, fmt.Sprint(p, ":", i))
					}
				},
				Done: func() { got = append(got, fmt.Sprint(p, " done")) },
			})
		}
		r := New(ps...)
		for steps := 0; ; steps++ {
			if steps > 100 {
				t.Fatalf("step %d: no end", step)
			}
			done = 0
			finished := r.Step(step)
			if done > step {
				t.Fatalf("step %d: a step did %d items", step, done)
			}
			if finished != r.Done() {
				t.Fatalf("step %d: Step reported %v, Done %v", step, finished, r.Done())
			}
			if finished {
				break
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("step %d:\ngot  %v\nwant %v", step, got, want)
		}
	}
}
