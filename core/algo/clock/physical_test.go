package clock

import "testing"

// TestSample: NTP's offset and delay on hand-made timestamps. The request
// leaves the asker at T1 = 100 and reaches the server at T2 = 130 (server
// clock); the server holds it 5 ticks and replies at T3 = 135, which
// arrives at T4 = 120: δ = (120 − 100) − (135 − 130) = 15, and θ = ((130 −
// 100) + (135 − 120))/2 = 22.5, rounded down to 22. If the crossings took
// 7.5 ticks each, the server was 22.5 ahead; whatever they took, the true
// offset is within θ ± δ/2, so with min = 2 the error bound is
// ceil(15/2) − 2 = 6.
func TestSample(t *testing.T) {
	s := Sample{T1: 100, T2: 130, T3: 135, T4: 120}
	if s.Delay() != 15 || s.Offset() != 22 || s.RTT() != 20 || s.Error(2, 0) != 6 {
		t.Errorf("δ=%d θ=%d rtt=%d error=%d, want 15, 22, 20, 6", s.Delay(), s.Offset(), s.RTT(), s.Error(2, 0))
	}
	// The server behind: T2 = 90, T3 = 92, T4 = 110: δ = 10 − 2 = 8 and
	// θ = (−10 − 18)/2 = −14; rounding down −14.5 gives −15.
	s = Sample{T1: 100, T2: 90, T3: 92, T4: 110}
	if s.Delay() != 8 || s.Offset() != -14 {
		t.Errorf("δ=%d θ=%d, want 8, -14", s.Delay(), s.Offset())
	}
	s = Sample{T1: 100, T2: 90, T3: 91, T4: 110}
	if s.Offset() != -15 {
		t.Errorf("θ=%d, want -15 (−14.5 rounded down)", s.Offset())
	}
	// The server's own claim and the asker's drift over δ add to the
	// bound: 1% over 8 ticks is ceil(0.08) + 1 = 2.
	s = Sample{T1: 100, T2: 90, T3: 92, T4: 110, Bound: 3}
	if got := s.Error(1, 10000); got != 4-1+2+3 {
		t.Errorf("error %d, want 8", got)
	}
}

func TestDriftGrow(t *testing.T) {
	for _, c := range []struct {
		ppm      Drift
		d, grown int
	}{{0, 1000, 0}, {10000, 0, 0}, {10000, 1, 2}, {10000, 100, 2}, {10000, 101, 3}, {1, 1_000_000, 2}} {
		if got := c.ppm.Grow(c.d); got != c.grown {
			t.Errorf("ρ=%dppm over %d: %d, want %d", c.ppm, c.d, got, c.grown)
		}
	}
}
