package vector

import (
	"math"
	"slices"
	"testing"

	"dsim/core/algo/clock"
	"dsim/core/algo/internal/algotest"
	"dsim/core/check"
	"dsim/core/proc"
	"dsim/core/trace"
)

// TestRules drives process 2 of 1..3 through each kind of event from a
// given vector and reads its vector after each.
func TestRules(t *testing.T) {
	tests := []struct {
		name  string
		from  []int
		event func(n proc.Node, f *algotest.Fake) error
		want  []int
		sent  []algotest.Sent
		log   string
	}{
		{"VC1: every entry starts at 0", nil,
			func(proc.Node, *algotest.Fake) error { return nil }, []int{0, 0, 0}, nil, ""},
		{"VC2: an internal event counts in the process's own entry (its index in ring order)", []int{1, 4, 2},
			func(n proc.Node, f *algotest.Fake) error { return n.Command(f, "internal", nil) }, []int{1, 5, 2}, nil, ""},
		{"VC2 then VC3: a send counts, and the message carries the new vector", []int{1, 4, 2},
			func(n proc.Node, f *algotest.Fake) error { return n.Command(f, "send", proc.Args{"to": 1}) }, []int{1, 5, 2},
			[]algotest.Sent{{To: 1, Msg: Msg{V: []int{1, 5, 2}}}}, ""},
		{"VC4 then VC2: a receive merges entry by entry, then counts", []int{1, 4, 2},
			func(n proc.Node, f *algotest.Fake) error { n.Receive(f, 3, Msg{V: []int{3, 1, 5}}); return nil }, []int{3, 5, 5}, nil, ""},
		{"VC4: the own entry of a hand-made message above the process's is merged, then counted", []int{0, 1, 0},
			func(n proc.Node, f *algotest.Fake) error { n.Receive(f, 1, Msg{V: []int{0, 7, 0}}); return nil }, []int{0, 8, 0}, nil, ""},
		{"a vector of another length merges over the entries both have", []int{1, 1, 1},
			func(n proc.Node, f *algotest.Fake) error { n.Receive(f, 1, Msg{V: []int{4}}); return nil }, []int{4, 2, 1}, nil,
			"a vector of 1 entries from 1, not 3: merged over the entries both have"},
		{"an entry at the top of int's range stays there", []int{0, 0, 0},
			func(n proc.Node, f *algotest.Fake) error {
				n.Receive(f, 1, Msg{V: []int{0, math.MaxInt, 0}})
				return nil
			},
			[]int{0, math.MaxInt, 0}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, f := algotest.Booted(t, "clock.vector", nil, 2, 1, 2, 3)
			if tc.from != nil {
				n.(*node).v = slices.Clone(tc.from)
			}
			if err := tc.event(n, f); err != nil {
				t.Fatal(err)
			}
			if got, _ := f.State[clock.KeyVector].([]int); !slices.Equal(got, tc.want) {
				t.Errorf("vector %v, want %v", got, tc.want)
			}
			if got := f.Take(); !slices.EqualFunc(got, tc.sent, func(a, b algotest.Sent) bool {
				return a.To == b.To && slices.Equal(a.Msg.(Msg).V, b.Msg.(Msg).V)
			}) {
				t.Errorf("sent %v, want %v", got, tc.sent)
			}
			if tc.log != "" && !slices.Contains(f.Logs, tc.log) {
				t.Errorf("logged %q, want %q", f.Logs, tc.log)
			}
		})
	}
}

// TestSentVectorIsACopy: a message keeps the vector of its send when the
// sender's clock moves on.
func TestSentVectorIsACopy(t *testing.T) {
	n, f := algotest.Booted(t, "clock.vector", nil, 1, 1, 2)
	if err := n.Command(f, "send", proc.Args{"to": 2}); err != nil {
		t.Fatal(err)
	}
	if err := n.Command(f, "internal", nil); err != nil {
		t.Fatal(err)
	}
	if got := f.Take()[0].Msg.(Msg).V; !slices.Equal(got, []int{1, 0}) {
		t.Errorf("the message carries %v, want [1 0]", got)
	}
}

// TestCheckerCatchesAForgottenMerge: the trace of a correct run passes
// clock.vector; the same trace with one receive's vector as if VC4 had not
// merged fails it, naming that event.
func TestCheckerCatchesAForgottenMerge(t *testing.T) {
	w := algotest.New(t, algotest.Setup{Algo: "clock.vector", IDs: algotest.IDs(3)})
	w.Command(1, 1, "internal")
	w.CommandArgs(2, 1, "send", map[string]any{"to": 2}) // arrives at 3
	w.Command(4, 2, "internal")
	w.Run(0)
	if err := w.Judge(clock.Vector); err != nil {
		t.Fatal(err)
	}
	judge := func(evs []trace.Event) check.Verdict {
		m := check.New()
		for i := range evs {
			m.Observe(&evs[i])
		}
		v, err := m.Check(clock.Vector, 10)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	evs := slices.Clone(w.Rec.Events)
	var receive *trace.Event
	for i := range evs {
		if e := &evs[i]; e.Type == trace.State && e.Key == clock.KeyVector && e.Node == 2 && e.T == 3 {
			receive = e
		}
	}
	if receive == nil || !slices.Equal(receive.New.([]int), []int{2, 1, 0}) {
		t.Fatalf("no receive at 2 with [2 1 0] at t=3: %v", receive)
	}
	receive.New = []int{0, 1, 0}
	v := judge(evs)
	if want := "clock.vector: t=3 seq=9: process 2's event has V=[0,1,0], not above V=[2,0,0] of process 1's event at t=2 seq=6, which happened before it"; v.Pass || v.Text != want || v.At != receive.Seq {
		t.Errorf("got pass=%v at=%d %q\nwant %q at %d", v.Pass, v.At, v.Text, want, receive.Seq)
	}
}
