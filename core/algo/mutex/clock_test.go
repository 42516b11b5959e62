package mutex_test

import (
	"math"
	"testing"

	"dsim/core/algo/mutex"
)

// TestClockStaysAtTheTop: a hand-made timestamp at the top of int's range
// takes the clock there, and it stays: wrapped round to the lowest value, it
// would stamp every later request ahead of all others.
func TestClockStaysAtTheTop(t *testing.T) {
	var c mutex.Clock
	c.Witness(math.MaxInt - 1)
	if int(c) != math.MaxInt {
		t.Fatalf("Witness(MaxInt-1) gave %d, want MaxInt", c)
	}
	if got := c.Tick(); got != math.MaxInt {
		t.Errorf("Tick at MaxInt gave %d", got)
	}
	c.Witness(math.MaxInt)
	c.Witness(math.MinInt)
	if int(c) != math.MaxInt {
		t.Errorf("the clock moved off the top: %d", c)
	}
}
