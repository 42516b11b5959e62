package cristian

import (
	"slices"
	"testing"

	"dsim/core/algo/clock"
	"dsim/core/algo/internal/algotest"
	"dsim/core/proc"
)

// round drives client 2 of server 1 through one round: each reply is sent
// by the server reading t[i], and arrives rtt[i] ticks after its request
// left the client, whose clock starts at 100.
func round(t *testing.T, cfg map[string]any, ts, rtts []proc.Time) (*algotest.Fake, proc.Node) {
	t.Helper()
	n := algotest.Process(t, "clock.cristian", cfg, 2)
	f := algotest.NewFake(2, 1, 2)
	f.Time = 100
	n.Start(f)
	n.Timer(f, timerRound)
	for i := range ts {
		sent := f.Take()
		if len(sent) != 1 || sent[0].To != 1 {
			t.Fatalf("request %d: sent %v, want one request to the server", i+1, sent)
		}
		q := sent[0].Msg.(clock.Request)
		f.Time += rtts[i]
		n.Receive(f, 1, clock.Reply{Seq: q.Seq, T2: ts[i], T3: ts[i]})
	}
	return f, n
}

// TestCristian: t + T_round/2, accurate to ±(T_round/2 − min).
func TestCristian(t *testing.T) {
	// One request: the server read 500, the round trip took 10: the clock
	// becomes 505, and with min = 2 it is accurate to ±(5 − 2) = ±3.
	f, _ := round(t, map[string]any{"k": 1, "min": 2, "drift_ppm": 0}, []proc.Time{500}, []proc.Time{10})
	if !slices.Equal(f.Steps, []proc.Time{505}) || f.State[clock.KeyBound] != 3 || f.State[clock.KeyRef] != clock.RefUTC {
		t.Errorf("steps %v, bound %v, ref %v: want a step to 505, bound 3 against utc", f.Steps, f.State[clock.KeyBound], f.State[clock.KeyRef])
	}
	// Three requests, round trips 12, 8 and 10 with the server reading 500,
	// 520 and 540: the second is used. It arrived at 100+12+8 = 120, when
	// the server read about 520 + 4; the clock, at 130 when the round ends,
	// becomes 520 + 4 + 10 = 534, accurate to ±(4 − 1) = ±3.
	f, _ = round(t, map[string]any{"k": 3, "min": 1, "drift_ppm": 0}, []proc.Time{500, 520, 540}, []proc.Time{12, 8, 10})
	if !slices.Equal(f.Steps, []proc.Time{534}) || f.State[clock.KeyBound] != 3 {
		t.Errorf("steps %v, bound %v: want a step to 534, bound 3", f.Steps, f.State[clock.KeyBound])
	}
	// An odd round trip of 9: the clock becomes 500 + 4, the bound is
	// rounded up to ceil(4.5) − 0 = 5; drift 1% over the 9 ticks adds
	// ceil(0.09) + 1 = 2.
	f, _ = round(t, map[string]any{"k": 1, "min": 0, "drift_ppm": 10000}, []proc.Time{500}, []proc.Time{9})
	if !slices.Equal(f.Steps, []proc.Time{504}) || f.State[clock.KeyBound] != 7 {
		t.Errorf("steps %v, bound %v: want a step to 504, bound 7", f.Steps, f.State[clock.KeyBound])
	}
	// step=false slews instead: from 110 to 505 over the period, claiming
	// 3 + 395 while it slews.
	f, _ = round(t, map[string]any{"k": 1, "min": 2, "drift_ppm": 0, "step": false, "period": 1000}, []proc.Time{500}, []proc.Time{10})
	if len(f.Steps) != 0 || !slices.Equal(f.Slews, [][2]proc.Duration{{395, 1000}}) || f.State[clock.KeyBound] != 398 {
		t.Errorf("steps %v, slews %v, bound %v: want a slew of 395 over 1000, bound 398", f.Steps, f.Slews, f.State[clock.KeyBound])
	}
}

// TestCristianIgnores: a reply to another request, or from another
// process, is not a sample; a timeout moves on to the next request.
func TestCristianIgnores(t *testing.T) {
	n := algotest.Process(t, "clock.cristian", map[string]any{"k": 2}, 2)
	f := algotest.NewFake(2, 1, 2, 3)
	n.Start(f)
	n.Timer(f, timerRound)
	q := f.Take()[0].Msg.(clock.Request)
	n.Receive(f, 1, clock.Reply{Seq: q.Seq + 1, T2: 9, T3: 9})
	n.Receive(f, 3, clock.Reply{Seq: q.Seq, T2: 9, T3: 9})
	if len(f.Take()) != 0 {
		t.Fatal("a stray reply made the next request")
	}
	n.Timer(f, clock.TimerTimeout)
	if s := f.Take(); len(s) != 1 || s[0].Msg.(clock.Request).Seq != q.Seq+1 {
		t.Fatalf("after the timeout: sent %v, want the second request", s)
	}
	n.Timer(f, clock.TimerTimeout)
	if len(f.Steps) != 0 || f.State[clock.KeyBound] != nil {
		t.Errorf("no reply in the round, yet steps %v, bound %v", f.Steps, f.State[clock.KeyBound])
	}
	// The server answers with its claimed bound; a client does not answer.
	s := algotest.Process(t, "clock.cristian", nil, 1)
	g := algotest.NewFake(1, 1, 2, 3)
	g.Time = 40
	s.Start(g)
	s.Receive(g, 2, clock.Request{Seq: 7})
	n.Receive(f, 3, clock.Request{Seq: 7})
	if got := append(g.Take(), f.Take()...); !slices.Equal(got, []algotest.Sent{{To: 2, Msg: clock.Reply{Seq: 7, T2: 40, T3: 40}}}) {
		t.Errorf("answers %v, want the server's only, at 40", got)
	}
	if err := n.Command(f, "sync", nil); err == nil {
		t.Error("a command was accepted")
	}
}

// The time server reads true time (its UTC receiver keeps it there): it
// answers with a bound of 0 at boot and still 0 a hundred thousand ticks
// later, under the default 1% drift bound. A bound that grew with the age
// of the run would let its clients claim hundreds of ticks, and
// clock.accuracy pass a clock that far off.
func TestServerClaimDoesNotGrow(t *testing.T) {
	n := algotest.Process(t, "clock.cristian", map[string]any{}, 1)
	f := algotest.NewFake(1, 1, 2)
	n.Start(f)
	for _, at := range []proc.Time{3, 100_000} {
		f.Time = at
		f.Take()
		n.Receive(f, 2, clock.Request{Seq: 1})
		sent := f.Take()
		if len(sent) != 1 || sent[0].Msg.(clock.Reply).Bound != 0 {
			t.Fatalf("t=%d: the server answered %v, want one reply of bound 0", at, sent)
		}
	}
}
