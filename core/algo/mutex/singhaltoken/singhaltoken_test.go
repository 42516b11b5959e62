package singhaltoken

import (
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/sim"
)

func world(t *testing.T, ids []sim.NodeID, cfg map[string]any) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "mutex.singhaltoken", IDs: ids, Config: cfg, Detect: 0})
}

func messages(w *algotest.World) int { return w.Count("REQUEST") + w.Count("TOKEN") }

// TestInitialStaircase: SV_i[j] = R for the sites before i, N from i on;
// S_1 holds the token (H). So site k's first request goes to the k-1 sites
// before it and nowhere else.
func TestInitialStaircase(t *testing.T) {
	for _, n := range []int{2, 3, 5, 8} {
		for k := 2; k <= n; k++ {
			w := world(t, algotest.IDs(n), nil)
			w.Request(0, sim.NodeID(k), 1)
			w.Run(0)
			w.CheckEntries(sim.NodeID(k))
			var to []sim.NodeID
			for _, m := range w.Sends("REQUEST") {
				if m.From == sim.NodeID(k) && m.T == 0 {
					to = append(to, m.To)
				}
			}
			if len(to) != k-1 {
				t.Errorf("n=%d: site %d's REQUEST went to %v, want the %d sites before it", n, k, to, k-1)
			}
			for _, j := range to {
				if j >= sim.NodeID(k) {
					t.Errorf("n=%d: site %d asked %d, which is not before it", n, k, j)
				}
			}
		}
	}
	w := world(t, algotest.IDs(4), nil)
	w.Run(0)
	if w.Get(1, KeyState) != H || w.Get(1, "has_token") != true || w.Get(3, KeyState) != N {
		t.Errorf("1 is %v (token %v), 3 is %v; want H with the token, and N", w.Get(1, KeyState), w.Get(1, "has_token"), w.Get(3, KeyState))
	}
}

// TestIdleHolderEntersFree: the site in state H enters at once (E) without
// a message; a second request there costs nothing either.
func TestIdleHolderEntersFree(t *testing.T) {
	w := world(t, algotest.IDs(5), nil)
	w.Request(0, 1, 2)
	w.Request(5, 1, 2)
	w.Run(0)
	w.CheckEntries(1, 1)
	if got := messages(w); got != 0 {
		t.Errorf("%d messages, want 0", got)
	}
	if w.Get(1, KeyState) != H {
		t.Errorf("1 is %v after its critical sections, want H (nobody marked R)", w.Get(1, KeyState))
	}
}

// TestHolderSendsToken: REQUEST reaching the idle holder (H) makes TSV[i] =
// R, TSN[i] = sn and the holder N, and the TOKEN goes to i. Site 3 of 5
// asks 2 and 1 (the staircase): 2 REQUEST and one TOKEN.
func TestHolderSendsToken(t *testing.T) {
	w := world(t, algotest.IDs(5), nil)
	w.Request(0, 3, 2)
	w.Run(0)
	w.CheckEntries(3)
	if got := algotest.Pairs(w.Sends("REQUEST")); got != "3->1 3->2" {
		t.Errorf("REQUEST %s, want 3->1 3->2 (the sites before 3, in ring order from its successor)", got)
	}
	tok := w.Sends("TOKEN")
	if len(tok) != 1 || tok[0].From != 1 || tok[0].To != 3 {
		t.Fatalf("TOKEN %v, want 1->3", tok)
	}
	if m := tok[0].Msg.(Token); m.TSV[3] != R || m.TSN[3] != 1 {
		t.Errorf("token %+v, want TSV[3] = R and TSN[3] = 1", m)
	}
	if w.Get(1, KeyState) != N || w.Get(3, KeyState) != H {
		t.Errorf("1 is %v, 3 is %v; want N, and H after 3's critical section", w.Get(1, KeyState), w.Get(3, KeyState))
	}
	// 3 now holds the token and knows nobody requesting: its next entry
	// is free. 5 asks 1..4; only 3, which holds it, can give it.
	w.Request(w.Now()+1, 5, 1)
	w.Run(0)
	w.CheckEntries(3, 5)
	if got := w.SentBy("TOKEN", 3); len(got) != 1 {
		t.Errorf("3 sent %d TOKEN, want 1 (to 5)", len(got))
	}
}

// TestRequestingSiteAsksBack: a requesting site (R) that receives a REQUEST
// from a site it did not mark R marks it and sends its own REQUEST there, so
// the two know of each other. 1 is in its critical section with the token;
// 2 asks 1 (the staircase); 3 asks 1 and 2; 2, requesting and with SV_2[3]
// = N, sends REQUEST(2, 1) to 3.
func TestRequestingSiteAsksBack(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Request(0, 1, 10)
	w.Request(1, 2, 1)
	w.Request(3, 3, 1)
	w.Run(0)
	w.CheckEntries(1, 2, 3)
	var back []string
	for _, m := range w.Sends("REQUEST") {
		if m.From == 2 && m.To == 3 {
			back = append(back, "2->3")
			if r := m.Msg.(Request); r != (Request{ID: 2, SN: 1}) {
				t.Errorf("the REQUEST back is %+v, want (2, 1)", r)
			}
		}
	}
	if len(back) != 1 {
		t.Errorf("2 sent %d REQUEST to 3, want 1 (the rule for an R site)", len(back))
	}
}

// TestOutdatedRequestDiscarded: a REQUEST whose number is not above SN_j[i]
// is outdated and discarded: the holder keeps the idle token.
func TestOutdatedRequestDiscarded(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Request(0, 2, 1) // 2's first request: SN_1[2] = 1; the token moves to 2
	w.Run(0)
	w.Inject(w.Now()+1, 1, 2, Request{ID: 1, SN: 0})
	w.Run(0)
	if w.Get(2, KeyState) != H || w.Count("TOKEN") != 1 {
		t.Errorf("2 is %v after REQUEST(1, 0), %d TOKEN sent; want H and 1", w.Get(2, KeyState), w.Count("TOKEN"))
	}
}

// TestReleaseMerges: at the release, SN_i[j] > TSN[j] updates the token
// from the site, else the site from the token; the token goes to a site
// marked R. 1 is in its critical section; 3 then 2 ask; on release 1 knows
// both as R: the token goes to 2 (the first in ring order after 1) carrying
// TSV[3] = R and TSN[3] = 1, and from 2, which marks itself N, to 3.
func TestReleaseMerges(t *testing.T) {
	w := world(t, algotest.IDs(3), nil)
	w.Request(0, 1, 10)
	w.Request(1, 3, 1)
	w.Request(2, 2, 1)
	w.Run(0)
	w.CheckEntries(1, 2, 3)
	tok := w.Sends("TOKEN")
	if got := algotest.Pairs(tok); got != "1->2 2->3" {
		t.Fatalf("TOKEN %s, want 1->2 2->3", got)
	}
	if m := tok[0].Msg.(Token); m.TSV[3] != R || m.TSN[3] != 1 || m.TSN[2] != 1 {
		t.Errorf("first token %+v, want TSV[3] = R, TSN[3] = 1, TSN[2] = 1", m)
	}
	if m := tok[1].Msg.(Token); m.TSV[2] != "" || m.TSN[2] != 1 {
		t.Errorf("second token %+v, want TSV[2] = N (absent), TSN[2] = 1", m)
	}
}

// TestHolderStaircase: the staircase starts from the first holder: with
// holder 3 on 1..4, site 3 is S_1, 4 is S_2, 1 is S_3 and 2 is S_4; 1 asks 3
// and 4.
func TestHolderStaircase(t *testing.T) {
	w := world(t, algotest.IDs(4), map[string]any{"holder": 3})
	w.Request(0, 1, 1)
	w.Run(0)
	w.CheckEntries(1)
	if got := algotest.Pairs(w.Sends("REQUEST")); got != "1->3 1->4" {
		t.Errorf("REQUEST %s, want 1->3 1->4", got)
	}
}

// TestLightLoadCost: one request at a time, from every site in turn. The
// first round costs the staircase: site k sends k-1 REQUEST and gets one
// TOKEN (site 1, the holder, nothing): n(n+1)/2-1 = 35 messages for n = 8,
// where Suzuki-Kasami would send n(n-1) = 56. In the second round every
// site has heard a REQUEST from every other since it last held the token
// (SV marks them R until the token tells it otherwise), so it asks all of
// them: n messages per entry, the algorithm's upper bound under light load.
func TestLightLoadCost(t *testing.T) {
	n := 8
	w := world(t, algotest.IDs(n), nil)
	for k := 1; k <= n; k++ {
		w.Request(sim.Time(100*k), sim.NodeID(k), 1)
	}
	w.Run(0)
	first := messages(w)
	if first != n*(n+1)/2-1 {
		t.Errorf("first round: %d messages, want the staircase's n(n+1)/2-1 = %d", first, n*(n+1)/2-1)
	}
	for k := 1; k <= n; k++ {
		w.Request(w.Now()+sim.Time(100*k), sim.NodeID(k), 1)
	}
	w.Run(0)
	if got := len(w.Entries()); got != 2*n {
		t.Fatalf("%d entries, want %d", got, 2*n)
	}
	if second := messages(w) - first; second != n*n {
		t.Errorf("second round: %d messages for %d entries, want n per entry (%d)", second, n, n*n)
	}
}

// TestRepeatedRequestsAreFree: a site that got the token and finds nobody
// marked R keeps it (H): its next requests cost nothing.
func TestRepeatedRequestsAreFree(t *testing.T) {
	w := world(t, algotest.IDs(6), nil)
	for k := range 4 {
		w.Request(sim.Time(20*k), 5, 1)
	}
	w.Run(0)
	w.CheckEntries(5, 5, 5, 5)
	if got := messages(w); got != 5 {
		t.Errorf("%d messages, want 5: 4 REQUEST and the TOKEN for the first entry, none after", got)
	}
}

// TestSecondTokenDropped: a copy of the token is dropped.
func TestSecondTokenDropped(t *testing.T) {
	algotest.CheckSecondTokenDropped(t, "mutex.singhaltoken", Token{TSV: map[sim.NodeID]string{}, TSN: map[sim.NodeID]int{}})
}

// TestZeroToken: a token without maps counts every entry N and 0.
func TestZeroToken(t *testing.T) {
	algotest.CheckZeroToken(t, "mutex.singhaltoken", Token{})
}

// TestSoak: random workloads on reordering links.
func TestSoak(t *testing.T) { algotest.Soak(t, "mutex.singhaltoken", 300) }
