package check

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dsim/core/algo"
	_ "dsim/core/algo/all"
	"dsim/core/trace"
)

// Hand-built events; seq is the position in the sequence, as in a trace.
func cs(t int64, node int, v string) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: "cs", New: v}
}
func stamp(t int64, node int, ts int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: "req_ts", New: ts}
}
func backlog(t int64, node int, n int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: "backlog", New: n}
}
func crash(t int64, node int) trace.Event { return trace.Event{T: t, Type: trace.Crash, Node: node} }
func recov(t int64, node int) trace.Event { return trace.Event{T: t, Type: trace.Recover, Node: node} }
func send(t int64, node int, kind string) trace.Event {
	return trace.Event{T: t, Type: trace.Send, Node: node, Kind: kind}
}

func feed(evs ...trace.Event) *Monitor {
	m := New()
	for i := range evs {
		e := evs[i]
		e.Seq = uint64(i)
		m.Observe(&e)
	}
	return m
}

// request and grant: a process asking at t and entering at u.
func cycle(node int, t, u, exit int64) []trace.Event {
	return []trace.Event{cs(t, node, "wanted"), cs(u, node, "held"), cs(exit, node, "released")}
}

func cat(parts ...[]trace.Event) []trace.Event {
	var out []trace.Event
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestProperties(t *testing.T) {
	boot := []trace.Event{cs(0, 1, "released"), cs(0, 2, "released"), cs(0, 3, "released")}
	tests := []struct {
		name     string
		property string
		events   []trace.Event
		end      int64
		pass     bool
		text     string
	}{
		{"safety: one after the other", "mutex.safety", cat(boot, cycle(1, 1, 2, 5), cycle(2, 3, 6, 8)), 10, true,
			"mutex.safety: at most one process in the critical section at every event (2 entries)"},
		{"safety: overlap names the event and both processes", "mutex.safety",
			cat(boot, []trace.Event{cs(1, 1, "wanted"), cs(2, 1, "held"), cs(3, 3, "wanted"), cs(4, 3, "held")}), 10, false,
			"mutex.safety: t=4 seq=6: processes 1 and 3 are both in the critical section (3 entered while 1 held it since t=2)"},
		{"safety: later overlaps are counted", "mutex.safety",
			cat(boot, []trace.Event{cs(1, 2, "wanted"), cs(2, 2, "held"), cs(3, 1, "wanted"), cs(4, 1, "held"), cs(5, 1, "released"), cs(6, 1, "wanted"), cs(7, 1, "held")}), 10, false,
			"mutex.safety: t=4 seq=6: processes 1 and 2 are both in the critical section (1 entered while 2 held it since t=2) (and 1 more)"},
		{"safety: a crash ends the critical section", "mutex.safety",
			cat(boot, []trace.Event{cs(1, 1, "wanted"), cs(2, 1, "held"), crash(3, 1), cs(4, 2, "wanted"), cs(5, 2, "held")}), 10, true,
			"mutex.safety: at most one process in the critical section at every event (2 entries)"},
		{"safety: a recovered process starts afresh", "mutex.safety",
			cat(boot, []trace.Event{cs(1, 1, "wanted"), cs(2, 1, "held"), crash(3, 1), recov(4, 1), cs(4, 1, "released"), cs(5, 2, "wanted"), cs(6, 2, "held")}), 10, true,
			"mutex.safety: at most one process in the critical section at every event (2 entries)"},

		{"liveness: all granted", "mutex.liveness", cat(boot, cycle(1, 1, 2, 5), cycle(2, 3, 6, 8)), 10, true,
			"mutex.liveness: every request of a process that stayed up was granted by t=10 (2 requests)"},
		{"liveness: waiting processes and since when", "mutex.liveness",
			cat(boot, []trace.Event{cs(1, 1, "wanted"), cs(2, 1, "held"), backlog(3, 1, 1), backlog(4, 1, 2), cs(5, 3, "wanted")}), 50, false,
			"mutex.liveness: at t=50, 2 process(es) still waiting: 1 (held, 2 more in its backlog since t=3); 3 (wanted since t=5)"},
		{"liveness: the backlog drains from its front", "mutex.liveness",
			cat(boot, []trace.Event{cs(1, 1, "wanted"), cs(2, 1, "held"), backlog(3, 1, 1), backlog(4, 1, 2), cs(5, 1, "released"), backlog(5, 1, 1), cs(5, 1, "wanted")}), 50, false,
			"mutex.liveness: at t=50, 1 process(es) still waiting: 1 (wanted since t=5, 1 more in its backlog since t=4)"},
		{"liveness: requests are forgotten with a crash", "mutex.liveness",
			cat(boot, []trace.Event{cs(1, 2, "wanted"), backlog(2, 2, 1), crash(3, 2)}), 50, true,
			"mutex.liveness: every request of a process that stayed up was granted by t=50 (1 requests)"},
		{"liveness: a request after recovery counts", "mutex.liveness",
			cat(boot, []trace.Event{cs(1, 2, "wanted"), crash(3, 2), recov(4, 2), cs(4, 2, "released"), cs(6, 2, "wanted")}), 50, false,
			"mutex.liveness: at t=50, 1 process(es) still waiting: 2 (wanted since t=6)"},

		{"ordering: by timestamp", "mutex.ordering",
			cat(boot, []trace.Event{stamp(1, 2, 1), cs(1, 2, "wanted"), stamp(1, 1, 2), cs(1, 1, "wanted"), cs(2, 2, "held"), cs(3, 2, "released"), cs(4, 1, "held")}), 10, true,
			"mutex.ordering: 2 entries in (req_ts, id) order"},
		{"ordering: ties broken by id", "mutex.ordering",
			cat(boot, []trace.Event{stamp(1, 2, 4), cs(1, 2, "wanted"), stamp(1, 1, 4), cs(1, 1, "wanted"), cs(2, 2, "held"), cs(3, 2, "released"), cs(4, 1, "held")}), 10, false,
			"mutex.ordering: t=4 seq=9: process 1 entered with (req_ts=4, id=1) after process 2 entered at t=2 seq=7 with (req_ts=4, id=2)"},
		{"ordering: an entry without a timestamp", "mutex.ordering",
			cat(boot, []trace.Event{cs(1, 3, "wanted"), cs(2, 3, "held")}), 10, false,
			"mutex.ordering: t=2 seq=4: process 3 entered the critical section without a req_ts"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := feed(tc.events...).Check(tc.property, tc.end)
			if err != nil {
				t.Fatal(err)
			}
			if v.Pass != tc.pass || v.Text != tc.text || v.Property != tc.property {
				t.Errorf("got pass=%v %q\nwant pass=%v %q", v.Pass, v.Text, tc.pass, tc.text)
			}
			// A property that must hold at every event points at the
			// event its text names first; one judged at the end, nowhere.
			want := uint64(0)
			if m := firstSeq.FindStringSubmatch(tc.text); !tc.pass && m != nil && find(tc.property).at != nil {
				want, _ = strconv.ParseUint(m[1], 10, 64)
			}
			if v.At != want {
				t.Errorf("At = %d, want %d", v.At, want)
			}
		})
	}
}

var firstSeq = regexp.MustCompile(`seq=(\d+):`)

// verdictCase is a checker's expected verdict on hand-made events.
type verdictCase struct {
	name     string
	property string
	events   []trace.Event
	pass     bool
	text     string
}

// judgeAll feeds each case's events to a Monitor and judges its property
// at time now: the verdict must be the case's, and a failure that names an
// event must say which (Verdict.At).
func judgeAll(t *testing.T, now int64, cases []verdictCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := feed(tc.events...).Check(tc.property, now)
			if err != nil {
				t.Fatal(err)
			}
			if v.Pass != tc.pass || v.Text != tc.text {
				t.Errorf("got pass=%v %q\nwant pass=%v %q", v.Pass, v.Text, tc.pass, tc.text)
			}
			if !tc.pass && firstSeq.MatchString(tc.text) && v.At == 0 {
				t.Errorf("At = 0, want the seq the text names")
			}
		})
	}
}

func TestUnknownProperty(t *testing.T) {
	_, err := New().Check("election.fairness", 0)
	if err == nil || !strings.Contains(err.Error(), `no checker for "election.fairness" (known: election.agreement, election.highest, election.one_leader, mutex.safety, mutex.liveness, mutex.ordering, clock.lamport, clock.vector, clock.skew, clock.accuracy, clock.monotonic, snapshot.consistent, snapshot.conserved, order.fifo, order.causal, order.total, agreement.ic1, agreement.ic2)`) {
		t.Errorf("got %v", err)
	}
	if Known("election.fairness") || !Known("mutex.liveness") || !Known("election.one_leader") {
		t.Error("Known is wrong")
	}
}

// TestRegistry holds the algorithms, the properties and their checkers
// together: every property a registered algorithm promises, and every
// declared property, has a checker, and the algorithm sets the state keys
// that checker reads.
func TestRegistry(t *testing.T) {
	for _, c := range checkers {
		if c.Property.Doc() == "" {
			t.Errorf("check has a checker for %s, which no family declares", c.Property)
		}
	}
	for _, p := range algo.Properties() {
		if !Known(string(p)) {
			t.Errorf("the property %s is declared but has no checker", p)
		}
	}
	for _, s := range algo.All() {
		for _, p := range s.Properties {
			c := find(string(p))
			if c == nil {
				t.Errorf("%s promises %s, which has no checker", s.Name, p)
				continue
			}
			for _, k := range c.Reads {
				if !slices.ContainsFunc(s.State, func(d algo.StateKey) bool { return d.Key == k }) {
					t.Errorf("%s promises %s, whose checker reads the state key %q, which %s does not declare", s.Name, p, k, s.Name)
				}
			}
		}
	}
}

func TestCosts(t *testing.T) {
	// Three processes: 1 enters at once, 2 waits for it, 3 asks after 1
	// has left and waits for 2. Both later entries are synchronization
	// delay samples: 18-15 and 21-20.
	evs := []trace.Event{
		cs(0, 1, "released"), cs(0, 2, "released"), cs(0, 3, "released"),
		cs(10, 1, "wanted"), send(10, 1, "REQUEST"), send(10, 1, "REQUEST"),
		cs(11, 1, "held"),
		cs(12, 2, "wanted"), send(12, 2, "REQUEST"), send(12, 2, "REQUEST"),
		cs(15, 1, "released"), send(15, 1, "REPLY"),
		cs(16, 3, "wanted"), send(16, 3, "REQUEST"),
		cs(18, 2, "held"), // sync delay 3, waiting 6
		cs(20, 2, "released"),
		cs(21, 3, "held"), // 3 asked after 1 left but before 2 left: sync delay 1
		cs(30, 3, "released"),
	}
	c := feed(evs...).Costs()
	want := Costs{
		Requests: 3, Entries: 3, Messages: 6,
		ByKind:     []KindCount{{"REPLY", 1}, {"REQUEST", 5}},
		SyncDelay:  Ratio{3 + 1, 2},
		Response:   Ratio{(15 - 10) + (20 - 12) + (30 - 16), 3},
		Waiting:    Ratio{1 + 6 + 5, 3},
		Throughput: Ratio{3000, 20},
	}
	if c.String() != want.String() {
		t.Errorf("got  %s\nwant %s", c, want)
	}
	if got := c.String(); got != "requests=3 entries=3 messages=6 per_entry=2 REPLY=1/3 REQUEST=5/3 sync_delay=2 response=9 waiting=4 throughput=150" {
		t.Errorf("got %s", got)
	}
}

func TestCostsSyncDelayNeedsAWaiter(t *testing.T) {
	// A crash of the holder and an entry by a process that asked after
	// the exit are not synchronization delays; nor is an entry with
	// nobody before it.
	c := feed(
		cs(1, 1, "wanted"), cs(1, 1, "held"), cs(2, 2, "wanted"), crash(5, 1), cs(9, 2, "held"),
		cs(10, 2, "released"), cs(12, 3, "wanted"), cs(13, 3, "held"),
	).Costs()
	if c.SyncDelay.Defined() {
		t.Errorf("sync delay %s from no sample", c.SyncDelay)
	}
	if c.Response.String() != "8" || c.Waiting.String() != "8/3" {
		t.Errorf("response %s waiting %s", c.Response, c.Waiting)
	}
}

func TestRatio(t *testing.T) {
	for _, tc := range []struct {
		r    Ratio
		s    string
		f    float64
		defd bool
	}{
		{Ratio{6, 4}, "3/2", 1.5, true},
		{Ratio{8, 4}, "2", 2, true},
		{Ratio{0, 5}, "0", 0, true},
		{Ratio{3, -6}, "-1/2", -0.5, true},
		{Ratio{1, 0}, "-", 0, false},
	} {
		if tc.r.String() != tc.s || tc.r.Float() != tc.f || tc.r.Defined() != tc.defd {
			t.Errorf("%v: got %s %g %v", tc.r, tc.r.String(), tc.r.Float(), tc.r.Defined())
		}
	}
}
