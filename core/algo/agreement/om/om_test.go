package om

import (
	"slices"
	"testing"

	"dsim/core/algo"
	"dsim/core/algo/agreement"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

// start makes general self of ids (the first commands), booted.
func start(t *testing.T, config map[string]any, self proc.NodeID, ids ...proc.NodeID) (proc.Node, *algotest.Fake) {
	t.Helper()
	return algotest.Booted(t, "agreement.om", config, self, ids...)
}

func orders(path []int, to []proc.NodeID, values ...int) []algotest.Sent {
	var out []algotest.Sent
	for i, id := range to {
		out = append(out, algotest.Sent{To: id, Msg: Order{Path: path, Value: values[i]}})
	}
	return out
}

func sent(t *testing.T, f *algotest.Fake, want []algotest.Sent) {
	t.Helper()
	if got := f.Take(); !slices.EqualFunc(got, want, func(a, b algotest.Sent) bool {
		x, y := a.Msg.(Order), b.Msg.(Order)
		return a.To == b.To && x.Value == y.Value && slices.Equal(x.Path, y.Path)
	}) {
		t.Errorf("sent %v, want %v", got, want)
	}
}

// TestCommander: step (1), the commander sends its value to every
// lieutenant, and publishes its order and loyalty.
func TestCommander(t *testing.T) {
	_, f := start(t, nil, 1, 1, 2, 3, 4)
	sent(t, f, orders([]int{1}, []proc.NodeID{2, 3, 4}, 1, 1, 1))
	if f.State[agreement.KeyOrder] != 1 || f.State[agreement.KeyTraitor] != false || len(f.Timers) != 0 {
		t.Errorf("state %v, timers %v", f.State, f.Timers)
	}
}

// TestRelayAndMajority: OM(1) at lieutenant 2 of Fig. 3: it relays the
// commander's value as the commander of OM(0) at the end of round 1, and
// decides majority(1, 1, 0) = 1 at the end of round 2.
func TestRelayAndMajority(t *testing.T) {
	n, f := start(t, nil, 2, 1, 2, 3, 4)
	if f.Timers[timerRound] != 50 || f.State[agreement.KeyTraitor] != false {
		t.Fatalf("timers %v state %v", f.Timers, f.State)
	}
	n.Receive(f, 1, Order{Path: []int{1}, Value: 1})
	n.Receive(f, 3, Order{Path: []int{1, 3}, Value: 1}) // a round early: ignored
	n.Timer(f, timerRound)
	sent(t, f, orders([]int{1, 2}, []proc.NodeID{3, 4}, 1, 1))
	n.Receive(f, 3, Order{Path: []int{1, 3}, Value: 1})
	n.Receive(f, 3, Order{Path: []int{1, 4}, Value: 1}) // not from the path's last
	n.Receive(f, 4, Order{Path: []int{1, 4}, Value: 0})
	n.Receive(f, 4, Order{Path: []int{1, 4}, Value: 1}) // a second on the same path
	n.Timer(f, timerRound)
	if f.State[agreement.KeyDecision] != 1 || !slices.Equal(f.State[KeyMajority].([]int), []int{1, 1}) {
		t.Errorf("decision %v majority %v, want 1 and [1 1]", f.State[agreement.KeyDecision], f.State[KeyMajority])
	}
	if want := []string{
		"an ORDER along [1 3] ignored: it belongs to round 2, this is round 1",
		"an ORDER along [1 4] from 3 ignored: not a path to here",
		"a second ORDER along [1 4] ignored",
	}; !slices.Equal(f.Logs, want) {
		t.Errorf("logs %q, want %q", f.Logs, want)
	}
}

// TestMissingIsRetreat: assumption A3, a value that does not come in its
// round is RETREAT, relayed as such; a tie folds to RETREAT too.
func TestMissingIsRetreat(t *testing.T) {
	n, f := start(t, nil, 2, 1, 2, 3)
	n.Timer(f, timerRound)
	sent(t, f, orders([]int{1, 2}, []proc.NodeID{3}, 0))
	n.Receive(f, 3, Order{Path: []int{1, 3}, Value: 1})
	n.Timer(f, timerRound)
	if f.State[agreement.KeyDecision] != 0 || f.Logs[0] != "no ORDER along [1]: RETREAT" {
		t.Errorf("decision %v logs %q", f.State[agreement.KeyDecision], f.Logs)
	}
}

// TestFoldTwoLevels: OM(2) at lieutenant 2 of five. Its tree: the
// commander's 1; then [1 3]=1, [1 4]=1, [1 5]=0; then the six values of
// round 3. Folding from the leaves, deepest first: [1 3] is majority(1,
// 1, 0)=1, [1 4] majority(1, 0, 0)=0, [1 5] majority(0, 1, 1)=1 (the
// value 5 sent is outvoted by what 3 and 4 say 5 told them), and the root
// majority(1, 1, 0, 1) = 1.
func TestFoldTwoLevels(t *testing.T) {
	n, f := start(t, map[string]any{"m": 2}, 2, 1, 2, 3, 4, 5)
	n.Receive(f, 1, Order{Path: []int{1}, Value: 1})
	n.Timer(f, timerRound)
	sent(t, f, orders([]int{1, 2}, []proc.NodeID{3, 4, 5}, 1, 1, 1))
	for id, v := range map[int]int{3: 1, 4: 1, 5: 0} {
		n.Receive(f, proc.NodeID(id), Order{Path: []int{1, id}, Value: v})
	}
	n.Timer(f, timerRound)
	// Each value of round 2 goes on to the lieutenants not on its path.
	sent(t, f, append(append(orders([]int{1, 3, 2}, []proc.NodeID{4, 5}, 1, 1),
		orders([]int{1, 4, 2}, []proc.NodeID{3, 5}, 1, 1)...), orders([]int{1, 5, 2}, []proc.NodeID{3, 4}, 0, 0)...))
	for _, o := range []Order{
		{[]int{1, 3, 4}, 1}, {[]int{1, 3, 5}, 0},
		{[]int{1, 4, 3}, 0}, {[]int{1, 4, 5}, 0},
		{[]int{1, 5, 3}, 1}, {[]int{1, 5, 4}, 1},
	} {
		n.Receive(f, proc.NodeID(o.Path[2]), o)
	}
	delete(f.Timers, timerRound) // fired: the last round arms no other
	n.Timer(f, timerRound)
	want := [][]int{{1, 1, 3}, {0, 1, 4}, {1, 1, 5}, {1, 1}}
	if got := f.Trail[KeyMajority]; !slices.EqualFunc(got, want, func(a any, b []int) bool { return slices.Equal(a.([]int), b) }) {
		t.Errorf("majorities %v, want %v", got, want)
	}
	if f.State[agreement.KeyDecision] != 1 || len(f.Timers) != 0 {
		t.Errorf("decision %v timers %v", f.State[agreement.KeyDecision], f.Timers)
	}
}

// TestLies: the traitors' strategies, at a traitorous commander of four
// (three receivers) and a traitorous lieutenant (two).
func TestLies(t *testing.T) {
	for _, tc := range []struct {
		lie   string
		lies  int
		want  []int // the commander's three messages, then the lieutenant's two
		count int
	}{
		{agreement.Flip, 0, []int{0, 0, 0, 0, 0}, 5},
		{agreement.Split, 0, []int{1, 1, 0, 1, 0}, 5},
		{agreement.Mask, 0b101, []int{1, 0, 1, 1, 0}, 5},
		{agreement.Mask, 0b010, []int{0, 1, 0, 0, 1}, 5},
		{agreement.Silent, 0, nil, 0},
	} {
		cfg := map[string]any{"traitors": "1,4", "lie": tc.lie, "lies": tc.lies}
		_, c := start(t, cfg, 1, 1, 2, 3, 4)
		l, f := start(t, cfg, 4, 1, 2, 3, 4)
		l.Receive(f, 1, Order{Path: []int{1}, Value: 1})
		l.Timer(f, timerRound)
		var got []int
		for _, s := range append(c.Take(), f.Take()...) {
			got = append(got, s.Msg.(Order).Value)
		}
		if !slices.Equal(got, tc.want) || c.State[agreement.KeyTraitor] != true {
			t.Errorf("%s %b: sent %v, want %v", tc.lie, tc.lies, got, tc.want)
		}
	}
}

func TestMajority(t *testing.T) {
	for _, tc := range []struct {
		vals []int
		want int
	}{
		{[]int{1}, 1}, {[]int{1, 0}, 0}, {[]int{0, 1, 1}, 1}, {[]int{1, 1, 0, 0}, 0}, {[]int{1, 0, 1, 1}, 1}, {nil, 0},
	} {
		if got := Majority(tc.vals); got != tc.want {
			t.Errorf("majority%v = %d, want %d", tc.vals, got, tc.want)
		}
	}
}

// TestValues: a lieutenant's tree holds 1 + (n-2) + ... + (n-2)...(n-m-1)
// values; beyond MaxValues nothing runs.
func TestValues(t *testing.T) {
	for _, tc := range [][3]int{{4, 1, 3}, {4, 0, 1}, {7, 2, 26}, {12, 3, 821}, {13, 3, 1112}, {4, 3, 5}} {
		if got := Values(tc[0], tc[1], 2000); got != tc[2] {
			t.Errorf("Values(%d, %d) = %d, want %d", tc[0], tc[1], got, tc[2])
		}
	}
	ids := make([]proc.NodeID, 13)
	for i := range ids {
		ids[i] = proc.NodeID(i + 1)
	}
	if _, f := start(t, map[string]any{"m": 3}, 1, ids[:12]...); len(f.Sent) != 11 {
		t.Errorf("OM(3) among 12: the commander sent %d, want 11", len(f.Sent))
	}
	_, f := start(t, map[string]any{"m": 3}, 1, ids...)
	if len(f.Sent) != 0 || len(f.Logs) != 1 || f.Logs[0] != "OM(3) among 13 generals: each lieutenant would hold more than 1000 values: nothing runs" {
		t.Errorf("sent %d, logs %q", len(f.Sent), f.Logs)
	}
	if _, f := start(t, map[string]any{"m": 3}, 2, ids...); len(f.Timers) != 0 || len(f.Logs) != 0 {
		t.Errorf("a lieutenant: timers %v logs %q", f.Timers, f.Logs)
	}
}

func TestConfigErrors(t *testing.T) {
	spec, err := algo.Lookup("agreement.om")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  map[string]any
		want string
	}{
		{map[string]any{"traitors": "3;x"}, `config key "traitors": "3;x" is not a list of process ids such as "1,3"`},
		{map[string]any{"lie": "bluff"}, `config key "lie": "bluff" is not one of flip, split, mask, silent`},
		{map[string]any{"m": 4}, `config key "m": 4 is outside [0, 3]`},
	} {
		vals, err := spec.Resolve(tc.cfg)
		if err == nil {
			_, err = spec.New(vals)
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v: got %v, want %q", tc.cfg, err, tc.want)
		}
	}
	_, f := start(t, map[string]any{"commander": 9}, 2, 1, 2, 3)
	if len(f.Timers) != 0 || f.Logs[0] != "commander 9 is no process: nothing to do" {
		t.Errorf("timers %v logs %q", f.Timers, f.Logs)
	}
	n, f := start(t, nil, 2, 1, 2, 3)
	if err := n.Command(f, "attack", nil); err == nil || err.Error() != `unknown command "attack" (the generals take none: configure the run)` {
		t.Errorf("command: %v", err)
	}
}
