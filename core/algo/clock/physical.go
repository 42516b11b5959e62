// Package clock is the helper of the clock family: the properties its
// algorithms promise, which core/check judges.
package clock

import "dsim/core/algo"

// Monotonic is the promise of the algorithms that slew rather than step a
// clock back (Berkeley's: "a clock must never run backwards").
const Monotonic = "clock.monotonic"

func init() {
	algo.DeclareProperty(Monotonic, "no process's clock goes backwards: every correction is a slew or a step forward")
}
