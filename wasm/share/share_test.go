package share

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, s := range []string{
		"",
		"local w = sim.world{algorithm = \"election.bully\", n = 4}\nw:run()\n",
		"-- ünïcödé ✓ and <img src=x onerror=alert(1)>\n",
		strings.Repeat("w:crash(3)\n", 5000),
	} {
		link := Encode(s)
		if !strings.HasPrefix(link, "#s=") || strings.ContainsAny(link[3:], "+/=#&?") {
			t.Errorf("link %q is not a clean fragment", link[:min(len(link), 40)])
		}
		got, err := Decode(link)
		if err != nil || got != s {
			t.Errorf("round trip of %d bytes: %v (got %d bytes)", len(s), err, len(got))
		}
		if got, err := Decode(link[1:]); err != nil || got != s {
			t.Errorf("without the '#': %v", err)
		}
	}
}

func TestCompresses(t *testing.T) {
	s := strings.Repeat("w:at(10, function() w:crash(3) end)\n", 100)
	if l := len(Encode(s)); l > len(s)/10 {
		t.Errorf("link of %d characters for %d bytes of script", l, len(s))
	}
}

func pack(data []byte) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestSpeed)
	w.Write(data)
	w.Close()
	return "#s=" + base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func TestMalformedLinks(t *testing.T) {
	good := Encode("print('hello from a shared scenario')")
	cases := []struct{ name, link, want string }{
		{"no fragment", "", "carries no scenario"},
		{"another fragment", "#section-2", "carries no scenario"},
		{"empty", "#s=", "empty"},
		{"bad base64", "#s=abc$def", "character 4 is not valid base64url"},
		{"truncated", good[:len(good)-6], "cut short"},
		{"not deflate", "#s=" + base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xff, 0xff, 0xff}), "not valid"},
		{"too large", pack(bytes.Repeat([]byte("a"), MaxSize+1)), "larger than 256 KiB"},
		{"not utf-8", pack([]byte{'o', 'k', 0xff, 0xfe}), "not valid UTF-8"},
	}
	for _, c := range cases {
		_, err := Decode(c.link)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
	if _, err := Decode(""); !errors.Is(err, ErrNoScenario) {
		t.Errorf("an empty fragment is not ErrNoScenario: %v", err)
	}
	// exactly the limit is fine
	if s, err := Decode(pack(bytes.Repeat([]byte("a"), MaxSize))); err != nil || len(s) != MaxSize {
		t.Errorf("a scenario of exactly %d bytes: %v", MaxSize, err)
	}
}

func TestToleratesRewrittenAlphabet(t *testing.T) {
	s := strings.Repeat("?>~", 300) + "\xe2\x9c\x93"
	link := Encode(s)
	std := "#s=" + base64.StdEncoding.EncodeToString(mustRaw(t, link))
	if got, err := Decode(std); err != nil || got != s {
		t.Errorf("standard base64 with padding: %v", err)
	}
}

func mustRaw(t *testing.T, link string) []byte {
	b, err := base64.RawURLEncoding.DecodeString(link[3:])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func FuzzDecode(f *testing.F) {
	f.Add(Encode("w:run()"))
	f.Add("#s=")
	f.Add("#s=////")
	f.Add(pack([]byte{0xff}))
	f.Fuzz(func(t *testing.T, link string) {
		s, err := Decode(link)
		if err != nil {
			return
		}
		if len(s) > MaxSize {
			t.Fatalf("decoded %d bytes, more than the limit", len(s))
		}
		again, err := Decode(Encode(s))
		if err != nil || again != s {
			t.Fatalf("a decoded scenario does not round-trip: %v", err)
		}
	})
}
