package trace

import (
	"strings"
	"testing"
)

// Quote quotes a short string whole and a long one in part, with its
// length; Truncate and Prefix never cut a character in two.
func TestQuoteAndTruncate(t *testing.T) {
	if got := Quote("a\x01"); got != `"a\x01"` {
		t.Errorf("Quote of a short string: %s", got)
	}
	long := strings.Repeat("\x01", 1<<20)
	if got, want := Quote(long), `"`+strings.Repeat(`\x01`, MaxQuoted)+`"... (1048576 bytes)`; got != want {
		t.Errorf("Quote of 1 MiB: %d bytes, want %d", len(got), len(want))
	}
	s := "ab" + strings.Repeat("é", 10) // é is two bytes
	for n, want := range map[int]string{2: "ab", 3: "ab", 4: "abé", 5: "abé", 100: s} {
		if got := Prefix(s, n); got != want {
			t.Errorf("Prefix(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Truncate(s, 5); got != "abé..." {
		t.Errorf("Truncate = %q", got)
	}
	if got := Truncate(s, len(s)); got != s {
		t.Errorf("Truncate of a string that fits = %q", got)
	}
	if got := Prefix("\xff\xff\xff\xff\xff\xff", 3); got != "\xff\xff\xff" {
		t.Errorf("Prefix of bytes that are not UTF-8 = %q", got)
	}
}
