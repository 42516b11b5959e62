package sm

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo/agreement"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

func start(t *testing.T, config map[string]any, self proc.NodeID, ids ...proc.NodeID) (proc.Node, *algotest.Fake) {
	t.Helper()
	return algotest.Booted(t, "agreement.sm", config, self, ids...)
}

// msgs renders what was sent as "to:value:signers".
func msgs(f *algotest.Fake) []string {
	var out []string
	for _, s := range f.Take() {
		m := s.Msg.(Signed)
		str := fmt.Sprintf("%d:%d", s.To, m.Value)
		for _, id := range m.Signers {
			str += fmt.Sprintf(":%d", id)
		}
		out = append(out, str)
	}
	return out
}

func want(t *testing.T, f *algotest.Fake, w ...string) {
	t.Helper()
	if got := msgs(f); !slices.Equal(got, w) {
		t.Errorf("sent %q, want %q", got, w)
	}
}

// TestRules: (1) the commander signs and sends; (2) a lieutenant adds a new
// order to V and passes it on with its signature at the end of the round,
// while it bears fewer than m+1 signatures; (3) it obeys choice(V).
func TestRules(t *testing.T) {
	_, c := start(t, nil, 1, 1, 2, 3, 4)
	want(t, c, "2:1:1", "3:1:1", "4:1:1")

	n, f := start(t, nil, 2, 1, 2, 3, 4)
	n.Receive(f, 1, Signed{Value: 1, Signers: []int{1}})
	n.Receive(f, 3, Signed{Value: 1, Signers: []int{1, 3}}) // in V already: nothing
	want(t, f)
	n.Timer(f, timerRound)
	want(t, f, "3:1:1:2", "4:1:1:2")
	n.Receive(f, 4, Signed{Value: 0, Signers: []int{1, 4}}) // new, but m+1 signatures: kept, not passed on
	n.Receive(f, 4, Signed{Value: 1, Signers: []int{1, 2}}) // not from its last signer, and through 2
	n.Receive(f, 3, Signed{Value: 0, Signers: []int{3}})    // not signed by the commander
	delete(f.Timers, timerRound)
	n.Timer(f, timerRound)
	want(t, f)
	if !slices.Equal(f.State[KeyV].([]int), []int{0, 1}) || f.State[agreement.KeyDecision] != agreement.Retreat || len(f.Timers) != 0 {
		t.Errorf("V %v decision %v timers %v", f.State[KeyV], f.State[agreement.KeyDecision], f.Timers)
	}
	if len(f.Logs) != 2 || f.Logs[1] != "a SIGNED order signed [3] from 3 ignored: not a chain to here" {
		t.Errorf("logs %q", f.Logs)
	}
}

func TestChoice(t *testing.T) {
	for _, tc := range []struct {
		v    []int
		want int
	}{{nil, 0}, {[]int{1}, 1}, {[]int{0}, 0}, {[]int{0, 1}, 0}} {
		if got := Choice(tc.v); got != tc.want {
			t.Errorf("choice(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// TestNoForgery: a traitor cannot alter an order a loyal commander signed:
// where its lie would, it sends nothing; when the commander is a fellow
// traitor it can.
func TestNoForgery(t *testing.T) {
	for _, tc := range []struct {
		traitors string
		want     []string
	}{
		{"3", nil},
		{"1,3", []string{"2:0:1:3", "4:0:1:3"}},
	} {
		n, f := start(t, map[string]any{"traitors": tc.traitors, "lie": "flip"}, 3, 1, 2, 3, 4)
		n.Receive(f, 1, Signed{Value: 1, Signers: []int{1}})
		n.Timer(f, timerRound)
		want(t, f, tc.want...)
	}
	// A truthful bit of the mask goes out, a false one does not.
	n, f := start(t, map[string]any{"traitors": "3", "lie": "mask", "lies": 0b01}, 3, 1, 2, 3, 4)
	n.Receive(f, 1, Signed{Value: 1, Signers: []int{1}})
	n.Timer(f, timerRound)
	want(t, f, "2:1:1:3")
}
