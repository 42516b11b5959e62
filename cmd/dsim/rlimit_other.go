//go:build !unix

package main

// addressSpace is the process's address-space limit; this platform has
// none the program can read.
func addressSpace() (uint64, bool) { return 0, false }
