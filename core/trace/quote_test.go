package trace

import (
	"encoding/json"
	"reflect"
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

// Unquote, ReadStrings and AppendStrings read and write what
// encoding/json does, escapes and all.
func TestStringsRoundTrip(t *testing.T) {
	list := []string{"", "plain", "quote \" and \\ backslash", "tab\tnewline\n", "é ü 中 😀", "\x01 control", "</script>"}
	text := string(AppendStrings(nil, list))
	want, _ := json.Marshal(list)
	var back []string
	if err := json.Unmarshal([]byte(text), &back); err != nil || !reflect.DeepEqual(back, list) {
		t.Fatalf("encoding/json reads %s as %q, %v", text, back, err)
	}
	for _, in := range []string{text, string(want)} {
		got, err := ReadStrings(in)
		if err != nil || !reflect.DeepEqual(got, list) {
			t.Errorf("ReadStrings(%s) = %q, %v", in, got, err)
		}
	}
	for _, s := range list {
		q, _ := json.Marshal(s)
		if got, err := Unquote(string(q)); err != nil || got != s {
			t.Errorf("Unquote(%s) = %q, %v", q, got, err)
		}
	}
	if got, err := Unquote(`"\ud83d\ude00 \u00e9 \ud800"`); err != nil || got != "😀 é \ufffd" {
		t.Errorf("surrogates: %q, %v", got, err)
	}
	for _, bad := range []string{`"open`, `"x" y`, `["a",]`, `[1]`, `"\q"`, "\"a\x01\""} {
		if _, err := ReadStrings(bad); err == nil {
			if _, err := Unquote(bad); err == nil {
				t.Errorf("%q read without an error", bad)
			}
		}
	}
}
