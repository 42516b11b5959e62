package centralized_test

import (
	"slices"

	"dsim/core/algo"
	"testing"

	_ "dsim/core/algo/all"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/deadlock/centralized"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

// The coordinator (site 1 of 1, 2, 3) hears site 2's edge T1 -> T2
// (label 5) and site 3's T2 -> T1 (label 7): the cycle T1 -> T2 -> T1.
func reports(t *testing.T, fix bool) (proc.Node, *algotest.Fake) {
	n, f := algotest.Booted(t, "deadlock.centralized", map[string]any{"fix": fix}, 1, 1, 2, 3)
	n.Receive(f, 2, centralized.Report{Edges: []int{1, 2, 5}})
	n.Receive(f, 3, centralized.Report{Edges: []int{2, 1, 7}})
	return n, f
}

func TestCoordinator(t *testing.T) {
	// Without the fix: declared at once; the victim T2 (the largest id)
	// is rolled back by site 3, where it waits.
	n, f := reports(t, false)
	if got := f.State[deadlock.KeyDeadlock]; !slices.Equal(got.([]int), []int{1, 2}) {
		t.Errorf("deadlock %v, want [1 2]", got)
	}
	if got, want := f.Take(), []algotest.Sent{{To: 3, Msg: centralized.Victim{T: 2}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}

	// With the fix: a candidate; both sites are asked to confirm.
	n, f = reports(t, true)
	if f.State[deadlock.KeyDeadlock] != nil {
		t.Errorf("declared %v before the sites confirmed", f.State[deadlock.KeyDeadlock])
	}
	if got, want := f.Take(), []algotest.Sent{{To: 2, Msg: centralized.Confirm{Round: 1}}, {To: 3, Msg: centralized.Confirm{Round: 1}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	// Site 3 confirms; site 2's edge now has another label: it was removed
	// and inserted again, so the coordinator cannot be sure: nothing.
	n.Receive(f, 3, centralized.Report{Edges: []int{2, 1, 7}, Round: 1})
	n.Receive(f, 2, centralized.Report{Edges: []int{1, 2, 9}, Round: 1})
	if f.State[deadlock.KeyDeadlock] != nil {
		t.Errorf("declared %v with an edge relabelled", f.State[deadlock.KeyDeadlock])
	}
	// The new label makes a new candidate, round 2; confirmed as reported.
	if got, want := f.Take(), []algotest.Sent{{To: 2, Msg: centralized.Confirm{Round: 2}}, {To: 3, Msg: centralized.Confirm{Round: 2}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	n.Receive(f, 2, centralized.Report{Edges: []int{1, 2, 9}, Round: 2})
	n.Receive(f, 3, centralized.Report{Edges: []int{2, 1, 7}, Round: 2})
	if got := f.State[deadlock.KeyDeadlock]; got == nil || !slices.Equal(got.([]int), []int{1, 2}) {
		t.Errorf("deadlock %v, want [1 2] once confirmed", got)
	}
	if got, want := f.Take(), []algotest.Sent{{To: 3, Msg: centralized.Victim{T: 2}}}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
}

func TestBadReportKey(t *testing.T) {
	spec, err := algo.Lookup("deadlock.centralized")
	if err != nil {
		t.Fatal(err)
	}
	v, err := spec.Resolve(map[string]any{"report": "sometimes"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spec.New(v); err == nil || err.Error() != `config key "report": "sometimes" is neither "change" nor "periodic"` {
		t.Errorf("got %v", err)
	}
}
