package singhal

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

func world(t *testing.T, ids []sim.NodeID) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "mutex.singhal", IDs: ids})
}

// sends renders every send as "t KIND from->to".
func sends(w *algotest.World) []string {
	var out []string
	for _, m := range w.Sends("") {
		out = append(out, fmt.Sprintf("%d %s %d->%d", m.T, m.Msg.(sim.Message).Kind(), m.From, m.To))
	}
	return out
}

func checkSends(t *testing.T, w *algotest.World, want ...string) {
	t.Helper()
	if got := sends(w); !slices.Equal(got, want) {
		t.Errorf("sends:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

func set(w *algotest.World, id sim.NodeID, key string) []sim.NodeID {
	return w.Get(id, key).([]sim.NodeID)
}

// checkSets compares every process's request set with want (ring order).
func checkSets(t *testing.T, w *algotest.World, when string, want map[sim.NodeID][]sim.NodeID) {
	t.Helper()
	for _, id := range w.IDs() {
		if got := set(w, id, keyRequestSet); !slices.Equal(got, want[id]) {
			t.Errorf("%s: R_%d = %v, want %v", when, id, got, want[id])
		}
	}
}

// TestStaircase: initially process i asks the processes before it in ring
// order, whatever their ids.
func TestStaircase(t *testing.T) {
	w := world(t, []sim.NodeID{7, 3, 9, 1})
	w.Run(0)
	checkSets(t, w, "at start", map[sim.NodeID][]sim.NodeID{7: {}, 3: {7}, 9: {7, 3}, 1: {7, 3, 9}})
	for _, id := range w.IDs() {
		if got := set(w, id, keyInformSet); len(got) != 0 {
			t.Errorf("I_%d = %v, want empty", id, got)
		}
	}
}

// TestUncontendedCost: from the staircase, the k-th process's first
// request, alone, costs 2(k-1) messages: k-1 REQUESTs and k-1 REPLYs, so 0
// for the first process and 2(n-1) for the last.
func TestUncontendedCost(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8, 13} {
		for k := 1; k <= n; k++ {
			w := world(t, algotest.IDs(n))
			w.CommandArgs(0, sim.NodeID(k), "request", sim.Args{"duration": 2})
			w.Run(0)
			if req, rep := w.Count("REQUEST"), w.Count("REPLY"); req != k-1 || rep != k-1 || !slices.Equal(w.Entries(), []sim.NodeID{sim.NodeID(k)}) {
				t.Errorf("n=%d, process %d alone: %d REQUEST, %d REPLY, entries %v; want %d of each (2(k-1) = %d)", n, k, req, rep, w.Entries(), k-1, 2*(k-1))
			}
		}
	}
}

// TestEvolvingCost is a hand-worked sequence of requests one at a time on
// four processes. 4 asks 1, 2, 3 (6 messages) and ends at the top of the
// staircase, R_4 = {}, each of the others now asking 4. 1 then asks only 4
// (2 messages), 4 asks only 1 (2), 2 asks 1 and 4 (4), 2 again asks
// nobody (0), and 4 asks only 2 (2).
func TestEvolvingCost(t *testing.T) {
	w := world(t, algotest.IDs(4))
	steps := []struct {
		id   sim.NodeID
		cost int
		sets map[sim.NodeID][]sim.NodeID
	}{
		{4, 6, map[sim.NodeID][]sim.NodeID{1: {4}, 2: {1, 4}, 3: {1, 2, 4}, 4: {}}},
		{1, 2, map[sim.NodeID][]sim.NodeID{1: {}, 2: {1, 4}, 3: {1, 2, 4}, 4: {1}}},
		{4, 2, map[sim.NodeID][]sim.NodeID{1: {4}, 2: {1, 4}, 3: {1, 2, 4}, 4: {}}},
		{2, 4, map[sim.NodeID][]sim.NodeID{1: {2, 4}, 2: {}, 3: {1, 2, 4}, 4: {2}}},
		{2, 0, map[sim.NodeID][]sim.NodeID{1: {2, 4}, 2: {}, 3: {1, 2, 4}, 4: {2}}},
		{4, 2, map[sim.NodeID][]sim.NodeID{1: {2, 4}, 2: {4}, 3: {1, 2, 4}, 4: {}}},
	}
	before := 0
	for i, s := range steps {
		at := sim.Time(20 * i)
		w.CommandArgs(at, s.id, "request", sim.Args{"duration": 2})
		w.Run(at + 19)
		total := w.Count("")
		if total-before != s.cost {
			t.Errorf("step %d (process %d): %d messages, want %d", i+1, s.id, total-before, s.cost)
		}
		before = total
		checkSets(t, w, fmt.Sprintf("after step %d", i+1), s.sets)
	}
}

// TestExecutingDefers: a REQUEST reaching a process in the critical section
// goes into its inform set; the REPLY comes on release, and the requester
// moves into the releaser's request set.
func TestExecutingDefers(t *testing.T) {
	w := world(t, algotest.IDs(2))
	w.CommandArgs(0, 1, "request", sim.Args{"duration": 5}) // R_1 = {}: enters at once
	w.CommandArgs(0, 2, "request", sim.Args{"duration": 1})
	w.Run(3)
	if got := set(w, 1, keyInformSet); !slices.Equal(got, []sim.NodeID{2}) {
		t.Errorf("I_1 = %v while 1 is in the critical section, want [2]", got)
	}
	w.Run(0)
	checkSends(t, w, "0 REQUEST 2->1", "5 REPLY 1->2")
	checkSets(t, w, "at the end", map[sim.NodeID][]sim.NodeID{1: {2}, 2: {}})
	if got := w.Entries(); !slices.Equal(got, []sim.NodeID{1, 2}) {
		t.Errorf("entries %v", got)
	}
}

// TestRequestingPriority: 4 asks 1, 2 and 3 (ts 1); its REQUEST to 3 is
// slow. 2 sees it and replies (4 joins R_2 = {1,4}), then asks with ts 3.
// 3 asks 1 and 2 with ts 1 before seeing 4's request. At 2, 3's (1,3) is
// earlier than (3,2): 2 replies at once and, 3 not being in R_2, sends 3 a
// REQUEST and adds it. At 3, 2's request is the later one: it waits in
// I_3 until 3 leaves. 2's request waits in I_4 too ((1,4) is earlier). 4's
// slow REQUEST reaches 3 after it has left: REPLY at once. 4 enters, then
// 2.
func TestRequestingPriority(t *testing.T) {
	w := world(t, algotest.IDs(4))
	if err := w.SetLink(4, 3, sim.Link{Latency: sim.Dist{Kind: sim.Constant, A: 10}, FIFO: true}); err != nil {
		t.Fatal(err)
	}
	w.CommandArgs(0, 4, "request", sim.Args{"duration": 1})
	w.CommandArgs(2, 3, "request", sim.Args{"duration": 1})
	w.CommandArgs(2, 2, "request", sim.Args{"duration": 1})
	w.Run(4)
	if got := set(w, 3, keyInformSet); !slices.Equal(got, []sim.NodeID{2}) {
		t.Errorf("I_3 = %v in the critical section, want [2]", got)
	}
	if got := set(w, 2, keyRequestSet); !slices.Equal(got, []sim.NodeID{3, 4}) {
		t.Errorf("R_2 = %v, want [3 4]: 3 added with the REPLY, 1 answered", got)
	}
	w.Run(0)
	checkSends(t, w,
		"0 REQUEST 4->1", "0 REQUEST 4->2", "0 REQUEST 4->3",
		"1 REPLY 1->4", "1 REPLY 2->4",
		"2 REQUEST 3->1", "2 REQUEST 3->2", "2 REQUEST 2->1", "2 REQUEST 2->4",
		"3 REPLY 1->3", "3 REPLY 2->3", "3 REQUEST 2->3", "3 REPLY 1->2",
		"5 REPLY 3->2", "10 REPLY 3->4", "12 REPLY 4->2")
	if got := w.Entries(); !slices.Equal(got, []sim.NodeID{3, 4, 2}) {
		t.Errorf("entries %v", got)
	}
}

// TestSoak: random workloads on reordering links: at most one process in
// the critical section at every event, every request served.
func TestSoak(t *testing.T) { algotest.Soak(t, "mutex.singhal", 500) }
