package changroberts

import (
	"fmt"
	"slices"
	"testing"

	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
	"dsim/core/sim"
	"dsim/core/trace"
)

func world(t *testing.T, ids []sim.NodeID, cfg map[string]any) *algotest.World {
	return algotest.New(t, algotest.Setup{Algo: "election.changroberts", IDs: ids, Config: cfg, Detect: 5})
}

// participantChanges lists the values node id's participant mark took.
func participantChanges(w *algotest.World, id sim.NodeID) []any {
	var out []any
	for _, e := range w.Rec.Events {
		if e.Type == trace.State && e.Node == int(id) && e.Key == "participant" {
			out = append(out, e.New)
		}
	}
	return out
}

// process2 is process 2 of the ring 1 -> 2 -> 9 -> 1, booted, with its
// Context, which records what it asks for.
func process2(t *testing.T, cfg map[string]any) (proc.Node, *algotest.Fake) {
	ctx := algotest.NewFake(2, 1, 2, 9)
	p := algotest.Process(t, "election.changroberts", cfg, 2)
	p.Start(ctx)
	return p, ctx
}

// TestRules checks rules 1-5 one at a time at process 2 of the ring
// 1 -> 2 -> 9 -> 1, calling its handlers directly.
func TestRules(t *testing.T) {
	for _, c := range []struct {
		rule   string
		act    func(p proc.Node, ctx *algotest.Fake)
		want   []algotest.Sent
		marked bool // participant afterwards
		role   string
	}{
		{
			rule:   "1+4a: a larger UID is forwarded unchanged and marks the process participant",
			act:    func(p proc.Node, ctx *algotest.Fake) { p.Receive(ctx, 1, Election{ID: 9}) },
			want:   []algotest.Sent{{To: 9, Msg: Election{ID: 9}}},
			marked: true, role: "candidate",
		},
		{
			rule:   "4b: a smaller UID at a non-participant is replaced by its own",
			act:    func(p proc.Node, ctx *algotest.Fake) { p.Receive(ctx, 1, Election{ID: 1}) },
			want:   []algotest.Sent{{To: 9, Msg: Election{ID: 2}}},
			marked: true, role: "candidate",
		},
		{
			rule:   "2+3: a process that notices a lack of leader sends its own UID and becomes participant",
			act:    func(p proc.Node, ctx *algotest.Fake) { must(t, p.Command(ctx, "elect", nil)) },
			want:   []algotest.Sent{{To: 9, Msg: Election{ID: 2}}},
			marked: true, role: "candidate",
		},
		{
			rule: "4c: a smaller UID at a participant is discarded",
			act: func(p proc.Node, ctx *algotest.Fake) {
				must(t, p.Command(ctx, "elect", nil))
				ctx.Take()
				p.Receive(ctx, 1, Election{ID: 1})
			},
			marked: true, role: "candidate",
		},
		{
			rule:   "4d+5a: its own UID makes it leader; it marks itself non-participant and sends ELECTED",
			act:    func(p proc.Node, ctx *algotest.Fake) { p.Receive(ctx, 1, Election{ID: 2}) },
			want:   []algotest.Sent{{To: 9, Msg: Elected{ID: 2}}},
			marked: false, role: "leader",
		},
		{
			rule:   "5b: ELECTED is recorded, forwarded unchanged, and marks the process non-participant",
			act:    func(p proc.Node, ctx *algotest.Fake) { p.Receive(ctx, 1, Elected{ID: 9}) },
			want:   []algotest.Sent{{To: 9, Msg: Elected{ID: 9}}},
			marked: false, role: "follower",
		},
		{
			rule: "5c: the ELECTED message back at the leader is discarded",
			act: func(p proc.Node, ctx *algotest.Fake) {
				p.Receive(ctx, 1, Election{ID: 2})
				ctx.Take()
				p.Receive(ctx, 1, Elected{ID: 2})
			},
			marked: false, role: "leader",
		},
	} {
		t.Run(c.rule, func(t *testing.T) {
			p, ctx := process2(t, nil)
			if ctx.State["participant"] != false {
				t.Fatalf("rule 1: participant is %v at boot, want false", ctx.State["participant"])
			}
			c.act(p, ctx)
			if got := ctx.Take(); !slices.Equal(got, c.want) {
				t.Errorf("process 2 sent %v, want %v", got, c.want)
			}
			if ctx.State["participant"] != c.marked || ctx.State["role"] != c.role {
				t.Errorf("participant %v, role %v; want %v, %q", ctx.State["participant"], ctx.State["role"], c.marked, c.role)
			}
		})
	}
}

// TestBaseVariantHasNoParticipants: without the optimization a process
// keeps no participant mark and always replaces a smaller UID (4b), even
// in an election it already took part in.
func TestBaseVariantHasNoParticipants(t *testing.T) {
	p, ctx := process2(t, map[string]any{"optimize": false})
	must(t, p.Command(ctx, "elect", nil))
	p.Receive(ctx, 1, Election{ID: 1})
	want := []algotest.Sent{{To: 9, Msg: Election{ID: 2}}, {To: 9, Msg: Election{ID: 2}}}
	if got := ctx.Take(); !slices.Equal(got, want) {
		t.Errorf("process 2 sent %v, want %v", got, want)
	}
	if _, ok := ctx.State["participant"]; ok {
		t.Error("the base algorithm set a participant mark")
	}
}

// TestSkipsSuspectedSuccessor: a process passes the message to the first
// process after it that the failure detector does not suspect, and drops a
// message whose owner it would have to skip.
func TestSkipsSuspectedSuccessor(t *testing.T) {
	p := algotest.Process(t, "election.changroberts", nil, 1)
	ctx := algotest.NewFake(1, 1, 2, 5, 9)
	p.Start(ctx)
	ctx.Down[2] = true
	p.(proc.SuspectHandler).Suspect(ctx, 2)
	p.Receive(ctx, 9, Election{ID: 5})
	ctx.Down[5] = true
	p.(proc.SuspectHandler).Suspect(ctx, 5)
	p.Receive(ctx, 9, Election{ID: 5})
	want := []algotest.Sent{{To: 5, Msg: Election{ID: 5}}}
	if got := ctx.Take(); !slices.Equal(got, want) {
		t.Errorf("process 1 sent %v, want %v (to 5 past the suspected 2, then nothing once 5 is suspected too)", got, want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestRule5cLeaderStopsElected: the ELECTED message ends at the leader, so
// the run goes quiet with n ELECTED messages sent.
func TestRule5cLeaderStopsElected(t *testing.T) {
	w := world(t, []sim.NodeID{1, 2, 9}, map[string]any{"restart": false})
	w.Command(0, 1, "elect")
	if r := w.Run(0); r.Reason != sim.Quiescent {
		t.Fatalf("run ended %s, want quiescent", r)
	}
	if got := algotest.Pairs(w.Sends("ELECTED")); got != "9->1 1->2 2->9" {
		t.Errorf("ELECTED went %s, want 9->1 1->2 2->9", got)
	}
	if d := w.Delivered("ELECTED"); d[len(d)-1].To != 9 {
		t.Errorf("last ELECTED delivered to %d, want the leader 9", d[len(d)-1].To)
	}
	w.Elected(9)
}

func increasing(n int) []sim.NodeID { return algotest.IDs(n) }

func decreasing(n int) []sim.NodeID {
	ids := algotest.IDs(n)
	slices.Reverse(ids)
	return ids
}

// TestMessageCounts checks the textbook counts of both variants. With the
// optimization and every process starting at once, 2n-1 ELECTION messages
// when UIDs increase along the ring (each message but the largest dies at
// its successor) and n(n+1)/2 when they decrease (UID k travels k hops);
// with one initiator, d+n where d is its distance to the largest UID; the
// elected round takes n messages. The base algorithm kills no message:
// with every process starting, each ELECTION travels to the largest UID
// and then once round the ring, n² + n(n-1)/2 in all whatever the order,
// and each of the n returns makes the leader announce itself again, n²
// ELECTED; with one initiator it costs what the optimization does.
func TestMessageCounts(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8, 17, 64} {
		for _, c := range []struct {
			name     string
			optimize bool
			ids      []sim.NodeID
			all      bool
			start    sim.NodeID
			want     int
			elected  int
		}{
			{"optimized, all, increasing (best)", true, increasing(n), true, -1, 2*n - 1, n},
			{"optimized, all, decreasing (worst)", true, decreasing(n), true, -1, n * (n + 1) / 2, n},
			{"optimized, one, the smallest, increasing", true, increasing(n), false, 1, 2*n - 1, n},
			{"optimized, one, the largest", true, increasing(n), false, sim.NodeID(n), n, n},
			{"base, all, increasing", false, increasing(n), true, -1, n*n + n*(n-1)/2, n * n},
			{"base, all, decreasing", false, decreasing(n), true, -1, n*n + n*(n-1)/2, n * n},
			{"base, one, the smallest, increasing", false, increasing(n), false, 1, 2*n - 1, n},
			{"base, one, the largest", false, increasing(n), false, sim.NodeID(n), n, n},
		} {
			t.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(t *testing.T) {
				w := world(t, c.ids, map[string]any{"all": c.all, "start": int(c.start), "optimize": c.optimize})
				w.Run(0)
				st := w.Stats()
				if got := w.Count("ELECTION"); got != c.want {
					t.Errorf("%d ELECTION messages, want %d", got, c.want)
				}
				if got := w.Count("ELECTED"); got != c.elected {
					t.Errorf("%d ELECTED messages, want %d", got, c.elected)
				}
				if st.Dropped != 0 {
					t.Errorf("%d messages dropped", st.Dropped)
				}
				w.Elected(sim.NodeID(n))
			})
		}
	}
}

// TestBaseRule4b: in the base algorithm a process that has already sent its
// own UID still replaces a smaller one and forwards it (the optimization
// discards it, rule 4c), and it never sets the participant state: both
// messages reach 9 and come back round the ring as ELECTION(9).
func TestBaseRule4b(t *testing.T) {
	for _, c := range []struct {
		rule     string
		optimize bool
		want     []any // what process 2 sends
	}{
		{"base: a smaller UID is always replaced by its own and forwarded", false, []any{Election{ID: 2}, Election{ID: 2}, Election{ID: 9}, Election{ID: 9}}},
		{"optimized: at a participant a smaller UID is discarded (4c)", true, []any{Election{ID: 2}, Election{ID: 9}}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			w := world(t, []sim.NodeID{1, 2, 9}, map[string]any{"optimize": c.optimize, "restart": false})
			w.Command(0, 2, "elect")
			w.Inject(0, 1, 2, Election{ID: 1})
			w.Run(0)
			if got := w.SentBy("ELECTION", 2); !slices.Equal(got, c.want) {
				t.Errorf("process 2 sent ELECTION %v, want %v", got, c.want)
			}
			if m := participantChanges(w, 2); c.optimize == (len(m) == 0) {
				t.Errorf("participant marks of 2: %v (optimize %v)", m, c.optimize)
			}
			w.Elected(9)
		})
	}
}

// TestCoordinatorCrash: with watch on, suspecting the coordinator starts an
// election that skips it and elects the highest live process.
func TestCoordinatorCrash(t *testing.T) {
	w := world(t, []sim.NodeID{3, 5, 0, 1, 4, 6}, map[string]any{"leader": 6})
	w.Crash(10, 6)
	w.Run(0)
	w.Elected(5)
	for _, m := range w.Sends("") {
		if m.To == 6 {
			t.Errorf("%v: sent to the suspected coordinator", m)
		}
	}
}

// TestRecoveredHighestTakesOver: a recovered process waits for the detector
// to trust it, then elects itself over the lower coordinator.
func TestRecoveredHighestTakesOver(t *testing.T) {
	w := world(t, []sim.NodeID{3, 5, 0, 1, 4, 6}, map[string]any{"leader": 6})
	w.Crash(10, 6)
	w.Recover(100, 6)
	w.Run(0)
	w.Elected(6)
	if got := w.Timers(6, "rejoin"); !slices.Equal(got, []sim.Time{110}) {
		t.Errorf("rejoin timer of 6 fired at %v, want [110] (trusted at 105)", got)
	}
}

// TestLostElectionRestarts: ELECTION sent to a process that crashed less
// than the detector delay ago is lost; the initiator's restart timer starts
// the election again and it then skips the crashed process.
func TestLostElectionRestarts(t *testing.T) {
	w := world(t, []sim.NodeID{1, 2, 3, 4}, map[string]any{"hop": 4})
	w.Crash(0, 2)
	w.Command(0, 1, "elect")
	w.Run(0)
	if got := w.Timers(1, "restart"); !slices.Equal(got, []sim.Time{48}) {
		t.Errorf("restart timer of 1 fired at %v, want [48] (3·n·hop)", got)
	}
	if d := w.Stats().DropReasons["crashed"]; d != 1 {
		t.Errorf("%d messages dropped at a crashed process, want 1", d)
	}
	w.Elected(4)
}

// TestLowerElectedIsRefused: a stale ELECTED naming a lower process is not
// forwarded; the receiver elects instead.
func TestLowerElectedIsRefused(t *testing.T) {
	w := world(t, []sim.NodeID{1, 2, 9}, map[string]any{"leader": 9})
	w.Inject(0, 1, 9, Elected{ID: 1})
	w.Run(0)
	if got := w.SentBy("ELECTED", 9); !slices.Equal(got, []any{Elected{ID: 9}}) {
		t.Errorf("9 sent ELECTED %v, want only its own", got)
	}
	w.Elected(9)
}

func TestCommandErrors(t *testing.T) {
	w := world(t, []sim.NodeID{1, 2}, nil)
	w.Run(0)
	if err := w.Sim.Command(1, "probe", nil); err == nil {
		t.Error("unknown command accepted")
	}
	if err := w.Sim.Command(1, "elect", sim.Args{"x": 1}); err == nil {
		t.Error("elect with arguments accepted")
	}
}
