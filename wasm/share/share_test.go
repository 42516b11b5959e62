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
		link := Encode(Link{Script: s})
		if !strings.HasPrefix(link, "#s=") || strings.ContainsAny(link[3:], "+/=#&?") {
			t.Errorf("link %q is not a clean fragment", link[:min(len(link), 40)])
		}
		got, err := Decode(link)
		if err != nil || got.Script != s || got.SeedSet || got.Moment {
			t.Errorf("round trip of %d bytes: %v (got %d bytes)", len(s), err, len(got.Script))
		}
		if got, err := Decode(link[1:]); err != nil || got.Script != s {
			t.Errorf("without the '#': %v", err)
		}
	}
}

func TestMoment(t *testing.T) {
	for _, l := range []Link{
		{Script: "w:run()", Selected: -1, Seed: 42, SeedSet: true},
		{Script: "w:run()", Selected: -1, Seed: MaxSeed, SeedSet: true, Moment: true, World: 1, At: 17},
		{Script: "w:run()", Selected: 16, Moment: true, World: 0, At: 0},
		{Script: "w:run()", Selected: -1, Seed: 0, SeedSet: true},
	} {
		link := Encode(l)
		got, err := Decode(link)
		if err != nil || got != l {
			t.Errorf("%s: got %+v, %v; want %+v", link, got, err, l)
		}
	}
	// a link of a later version, with a field this one does not know
	got, err := Decode(Encode(Link{Script: "x"}) + "&zoom=3&seed=5")
	if err != nil || got.Script != "x" || got.Seed != 5 || !got.SeedSet {
		t.Errorf("unknown field: %+v, %v", got, err)
	}
}

func TestCompresses(t *testing.T) {
	s := strings.Repeat("w:at(10, function() w:crash(3) end)\n", 100)
	if l := len(Encode(Link{Script: s})); l > len(s)/10 {
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
	good := Encode(Link{Script: "print('hello from a shared scenario')"})
	cases := []struct{ name, link, want string }{
		{"no fragment", "", "carries no scenario"},
		{"another fragment", "#section-2", "carries no scenario"},
		{"empty", "#s=", "empty"},
		{"bad base64", "#s=abc$def", "character 4 is not valid base64url"},
		{"truncated", good[:len(good)-6], "cut short"},
		{"not deflate", "#s=" + base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xff, 0xff, 0xff}), "not valid"},
		{"too large", pack(bytes.Repeat([]byte("a"), MaxSize+1)), "larger than 256 KiB"},
		{"not utf-8", pack([]byte{'o', 'k', 0xff, 0xfe}), "not valid UTF-8"},
		{"seed not a number", good + "&seed=12ab", `the seed "12ab" is not a whole number`},
		{"negative seed", good + "&seed=-1", "not a whole number"},
		{"seed too large", good + "&seed=9007199254740992", "out of range (0 to 9007199254740991)"},
		{"seed overflows", good + "&seed=" + strings.Repeat("9", 5000), "out of range"},
		{"world 0", good + "&w=0&at=1", "world number \"0\" is out of range"},
		{"huge event", good + "&w=1&at=99999999999", "time position (events applied) \"99999999999\" is out of range"},
		{"empty number", good + "&w=1&at=", "not a whole number"},
		{"twice", good + "&seed=1&seed=2", "seed= appears twice"},
		{"half a moment", good + "&sel=3", "needs both w= and at="},
		{"too many fields", good + strings.Repeat("&x=1", 20), "at most 16"},
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
	if s, err := Decode(pack(bytes.Repeat([]byte("a"), MaxSize))); err != nil || len(s.Script) != MaxSize {
		t.Errorf("a scenario of exactly %d bytes: %v", MaxSize, err)
	}
}

func TestToleratesRewrittenAlphabet(t *testing.T) {
	s := strings.Repeat("?>~", 300) + "\xe2\x9c\x93"
	link := Encode(Link{Script: s})
	std := "#s=" + base64.StdEncoding.EncodeToString(mustRaw(t, link))
	if got, err := Decode(std); err != nil || got.Script != s {
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
	f.Add(Encode(Link{Script: "w:run()"}))
	f.Add(Encode(Link{Script: "w:run()", Seed: 7, SeedSet: true, Moment: true, World: 1, At: 30, Selected: 12}))
	f.Add("#s=")
	f.Add("#s=////")
	f.Add(pack([]byte{0xff}))
	f.Fuzz(func(t *testing.T, link string) {
		l, err := Decode(link)
		if err != nil {
			return
		}
		if len(l.Script) > MaxSize || l.Seed > MaxSeed || l.World < 0 || l.World >= MaxWorlds || l.At < 0 || l.At > MaxEvents || l.Selected < -1 || l.Selected >= MaxEvents {
			t.Fatalf("decoded %+v, beyond the limits", l)
		}
		again, err := Decode(Encode(l))
		if err != nil || again != l {
			t.Fatalf("a decoded scenario does not round-trip: %v", err)
		}
	})
}
