package check

import (
	"testing"

	"dsim/core/trace"
)

// Hand-made physical clock traces: st sets a state key, ev is any event
// of a node reading local at true time t.
func st(t, local int64, node int, key string, v any) trace.Event {
	return trace.Event{T: t, Local: local, Type: trace.State, Node: node, Key: key, New: v}
}
func ev(t, local int64, node int) trace.Event {
	return trace.Event{T: t, Local: local, Type: trace.Timer, Node: node, Tag: "x"}
}
func clockEv(t, local int64, node int, kind string, delta, over int64) trace.Event {
	return trace.Event{T: t, Local: local, Type: trace.Clock, Node: node, Kind: kind, Delta: delta, Over: over}
}

// claim is a process's claim of bound b against ref at t, reading local,
// with drift ppm.
func claim(t, local int64, node int, ppm, b int, ref string) []trace.Event {
	return []trace.Event{st(t, local, node, "drift_ppm", ppm), st(t, local, node, "clock_ref", ref), st(t, local, node, "clock_bound", b)}
}

func TestPhysicalClockProperties(t *testing.T) {
	cat := func(parts ...[]trace.Event) []trace.Event {
		var out []trace.Event
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []verdictCase{
		{"accuracy: within the bound", "clock.accuracy", cat(claim(10, 13, 1, 0, 3, "utc"), []trace.Event{ev(20, 17, 1)}),
			true, "clock.accuracy: every reading within its claimed bound of true time at 2 events of 1 processes"},
		{"accuracy: beyond the bound", "clock.accuracy", cat(claim(10, 13, 1, 0, 3, "utc"), []trace.Event{ev(20, 24, 1)}),
			false, "clock.accuracy: t=20 seq=3: process 1 reads 24 at true time 20: off by 4, beyond its claimed bound 3 (3 claimed at t=10, grown by drift)"},
		{"accuracy: the bound grows with drift", "clock.accuracy", cat(claim(0, 0, 1, 10000, 2, "utc"), []trace.Event{ev(100, 104, 1)}),
			// 2 + ceil(0.01*100) + 1 = 4
			true, "clock.accuracy: every reading within its claimed bound of true time at 2 events of 1 processes"},
		{"accuracy: drift grows it only so far", "clock.accuracy", cat(claim(0, 0, 1, 10000, 2, "utc"), []trace.Event{ev(100, 95, 1)}),
			false, "clock.accuracy: t=100 seq=3: process 1 reads 95 at true time 100: off by 5, beyond its claimed bound 4 (2 claimed at t=0, grown by drift)"},
		{"accuracy: a crash ends the claim", "clock.accuracy", cat(claim(0, 0, 1, 0, 0, "utc"),
			[]trace.Event{{T: 5, Local: 5, Type: trace.Crash, Node: 1}, {T: 6, Local: 99, Type: trace.Recover, Node: 1}, ev(7, 100, 1)}),
			true, "clock.accuracy: every reading within its claimed bound of true time at 1 events of 1 processes"},
		{"accuracy: an internal reference is not true time", "clock.accuracy", cat(claim(0, 50, 1, 0, 0, "round 1")),
			true, "clock.accuracy: every reading within its claimed bound of true time at 1 events of 1 processes"},
		{"skew: two clocks within their bounds' sum", "clock.skew", cat(claim(0, 50, 1, 0, 2, "r"), claim(0, 53, 2, 0, 1, "r"), []trace.Event{ev(10, 63, 2)}),
			true, "clock.skew: every two clocks claiming the same reference within their bounds' sum at 3 events of 2 processes"},
		{"skew: extrapolated apart", "clock.skew", cat(claim(0, 50, 1, 0, 2, "r"), claim(0, 53, 2, 0, 1, "r"), []trace.Event{ev(10, 64, 2)}),
			false, "clock.skew: t=10 seq=6: process 2 reads 64 and process 1 at least 4 away (from 50 at t=0): beyond their claimed bounds' sum 3"},
		{"skew: a slew in progress may close the gap", "clock.skew", cat(claim(0, 50, 1, 0, 2, "r"), claim(0, 53, 2, 0, 1, "r"),
			[]trace.Event{clockEv(1, 51, 1, "slew", 5, 10), ev(10, 64, 2)}),
			true, "clock.skew: every two clocks claiming the same reference within their bounds' sum at 3 events of 2 processes"},
		{"skew: other references are not compared", "clock.skew", cat(claim(0, 50, 1, 0, 2, "r"), claim(0, 90, 2, 0, 1, "s")),
			true, "clock.skew: every two clocks claiming the same reference within their bounds' sum at 2 events of 2 processes"},
		{"skew: a crashed clock is not compared", "clock.skew", cat(claim(0, 50, 1, 0, 2, "r"), claim(0, 53, 2, 0, 1, "r"),
			[]trace.Event{{T: 1, Local: 51, Type: trace.Crash, Node: 1}, ev(10, 90, 2)}),
			true, "clock.skew: every two clocks claiming the same reference within their bounds' sum at 3 events of 2 processes"},
		{"monotonic: slews and forward steps", "clock.monotonic", []trace.Event{
			st(0, 10, 1, "drift_ppm", 0), clockEv(1, 11, 1, "slew", -5, 10), ev(2, 12, 1), clockEv(3, 12, 1, "step", 4, 0), ev(4, 17, 1)},
			true, "clock.monotonic: no clock went back at 0 events of 1 processes"},
		{"monotonic: a step back", "clock.monotonic", []trace.Event{st(0, 10, 1, "drift_ppm", 0), clockEv(1, 11, 1, "step", -3, 0)},
			false, "clock.monotonic: t=1 seq=1: process 1 stepped its clock back by 3, from 11 to 8"},
		{"monotonic: a reading below the last", "clock.monotonic", []trace.Event{st(0, 10, 1, "drift_ppm", 0), ev(1, 11, 1), ev(2, 9, 1)},
			false, "clock.monotonic: t=2 seq=2: process 1's clock went back from 11 (t=1) to 9"},
	}
	judgeAll(t, 100, tests)
}
