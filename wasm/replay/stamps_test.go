package replay

import (
	"testing"

	"dsim/wasm/internal/runs"
)

// On the shipped examples' worlds, the timestamps agree with Causal: an
// event in another's past has the smaller Lamport timestamp, and vector
// timestamps are ordered exactly when the events are.
func TestStampsAgreeWithCausal(t *testing.T) {
	worlds, err := runs.Examples()
	if err != nil {
		t.Fatal(err)
	}
	less := func(a, b []int32) bool { // a < b: a <= b entrywise, a != b
		strict := false
		for k := range a {
			if a[k] > b[k] {
				return false
			}
			strict = strict || a[k] < b[k]
		}
		return strict
	}
	checked := 0
	// the first worlds whose vector timestamps are drawn, as many as it
	// takes for a good sample
	for _, w := range worlds {
		if checked >= 20000 {
			break
		}
		r := New(&w, 0)
		lam := r.Lamport()
		vec, ok := r.Vector()
		if !ok {
			continue
		}
		for x := 0; x < len(r.Events); x += 3 {
			past, future := r.Causal(x)
			if past == nil || vec[x] == nil {
				continue
			}
			for i := range r.Events {
				if i == x || r.NodeOf(i) < 0 || vec[i] == nil {
					continue
				}
				switch {
				case past[i] && (lam[i] >= lam[x] || !less(vec[i], vec[x])):
					t.Fatalf("world %d: %d before %d, stamps %d %v and %d %v", w.Header.World, i, x, lam[i], vec[i], lam[x], vec[x])
				case future[i] && (lam[i] <= lam[x] || !less(vec[x], vec[i])):
					t.Fatalf("world %d: %d after %d, stamps %d %v and %d %v", w.Header.World, i, x, lam[i], vec[i], lam[x], vec[x])
				case !past[i] && !future[i] && (less(vec[i], vec[x]) || less(vec[x], vec[i])):
					t.Fatalf("world %d: %d concurrent with %d, vectors %v and %v ordered", w.Header.World, i, x, vec[i], vec[x])
				}
				checked++
			}
		}
	}
	if checked < 10000 {
		t.Errorf("only %d pairs checked", checked)
	}
}
