package sim

// Recovered reports whether the process behind ctx has crashed and recovered
// at least once. The election texts assume that "a process that has failed
// knows on recovery that it has indeed failed", as if it kept a note in
// stable storage; this is that note. A Context that wraps another (a layer
// of a composed process) answers for the one it wraps through Unwrap; it is
// false for a Context the kernel did not make.
func Recovered(ctx Context) bool {
	for {
		switch c := ctx.(type) {
		case *nodeRT:
			return c.lives > 0
		case interface{ Unwrap() Context }:
			ctx = c.Unwrap()
		default:
			return false
		}
	}
}
