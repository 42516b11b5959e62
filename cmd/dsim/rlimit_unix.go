//go:build unix

package main

import "syscall"

// addressSpace is the process's address-space limit (ulimit -v), when it
// has one: "unlimited" reads as the largest value (RLIM_INFINITY is -1,
// as a uint64 on some systems and an int64 on others).
func addressSpace() (uint64, bool) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &l); err != nil || l.Cur >= 1<<62 {
		return 0, false
	}
	return l.Cur, true
}
