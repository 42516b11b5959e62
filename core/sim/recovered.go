package sim

// Recovered reports whether the process behind ctx has crashed and recovered
// at least once. The election texts assume that "a process that has failed
// knows on recovery that it has indeed failed", as if it kept a note in
// stable storage; this is that note. It is false for a Context the kernel
// did not make.
func Recovered(ctx Context) bool {
	rt, ok := ctx.(*nodeRT)
	return ok && rt.lives > 0
}
