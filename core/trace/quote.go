package trace

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuoted is how many bytes of a script's string an error message or an
// event's text quotes. A script's string may be 16 MiB, and a message may
// name several: quoted whole (each byte \x01 quotes as four) they would
// cost more memory than the run holds, to tell the reader nothing more.
const MaxQuoted = 80

// Quote is strconv.Quote(s) for a string of at most MaxQuoted bytes; a
// longer one is quoted up to there and followed by its length.
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(Prefix(s, MaxQuoted)) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// Truncate is s when it has at most n bytes; otherwise its Prefix of n
// bytes followed by "...".
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return Prefix(s, n) + "..."
}

// Prefix is the first n bytes of s (all of s when shorter), cut before a
// character that would not fit whole, so that no cut leaves half of one.
func Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := n; i > 0 && i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i]
		}
	}
	return s[:n] // not UTF-8 there: cut at n
}
