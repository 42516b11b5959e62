// Package share encodes a scenario, and the moment of its run being looked
// at, into a link fragment and back:
//
//	#s=<script>[&seed=N][&w=N][&at=N][&sel=N]
//
// <script> is the base64url (unpadded) raw DEFLATE of the script; seed is
// the seed the run used (absent: the script's own seeds), w the world shown
// (1 is the first), at the number of events applied at the time-travel
// cursor, sel the selected event (0 is the first). Links of the first
// format, "#s=" and the script alone, are links without a moment.
// Decoding never trusts its input: every way a link can be damaged gives an
// error that says what is wrong with it, and every number is bounded.
package share

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Prefix opens the fragment of a share link.
const Prefix = "#s="

// MaxSize bounds a decoded scenario, so a small link cannot expand into a
// huge allocation.
const MaxSize = 256 << 10

// The bounds of a link's numbers. A seed travels to the engine worker as a
// JavaScript number, exact only up to 2^53-1; a page never shows more
// worlds or events than these, so a larger value is a damaged link.
const (
	MaxSeed   = 1<<53 - 1
	MaxWorlds = 1 << 20
	MaxEvents = 1 << 31
)

// Link is what a share link carries.
type Link struct {
	Script  string
	Seed    uint64
	SeedSet bool // Seed is the run's seed; false: the script's own seeds
	// Moment says World, At and Selected are set: the link was made while
	// a run of Script was shown.
	Moment   bool
	World    int // index of the world shown, 0 is the first
	At       int // events applied at the cursor
	Selected int // selected event, -1: none
}

// Encode returns the fragment (with its "#s=") that carries l.
func Encode(l Link) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression) // the level is valid
	w.Write([]byte(l.Script))                          // a bytes.Buffer does not fail
	w.Close()
	out := Prefix + base64.RawURLEncoding.EncodeToString(b.Bytes())
	if l.SeedSet {
		out += "&seed=" + strconv.FormatUint(l.Seed, 10)
	}
	if l.Moment {
		out += fmt.Sprintf("&w=%d&at=%d", l.World+1, l.At)
		if l.Selected >= 0 {
			out += fmt.Sprintf("&sel=%d", l.Selected)
		}
	}
	return out
}

// ErrNoScenario says a fragment carries no scenario: the page was opened
// without a share link.
var ErrNoScenario = errors.New("the link carries no scenario")

// field is one number of a link: its name and its bounds.
type field struct {
	name     string
	min, max uint64
	what     string // what the number is, for the error message
}

var fields = []field{
	{"seed", 0, MaxSeed, "seed"},
	{"w", 1, MaxWorlds, "world number"},
	{"at", 0, MaxEvents, "time position (events applied)"},
	{"sel", 0, MaxEvents - 1, "selected event"},
}

// Decode returns what a fragment carries. fragment may include the leading
// "#".
func Decode(fragment string) (Link, error) {
	rest, ok := strings.CutPrefix(strings.TrimPrefix(fragment, "#"), "s=")
	if !ok {
		return Link{}, ErrNoScenario
	}
	// base64url has no '&': the script ends at the first one.
	data, params, _ := strings.Cut(rest, "&")
	nums, err := numbers(params)
	if err != nil {
		return Link{}, err
	}
	script, err := decodeScript(data)
	if err != nil {
		return Link{}, err
	}
	l := Link{Script: script, Selected: -1}
	if v, ok := nums["seed"]; ok {
		l.Seed, l.SeedSet = v, true
	}
	w, hasW := nums["w"]
	at, hasAt := nums["at"]
	sel, hasSel := nums["sel"]
	switch {
	case hasW && hasAt:
		l.Moment, l.World, l.At = true, int(w-1), int(at)
		if hasSel {
			l.Selected = int(sel)
		}
	case hasW || hasAt || hasSel:
		return Link{}, errors.New("the share link is damaged: a time position needs both w= and at=")
	}
	return l, nil
}

// numbers reads the "&name=value" fields after the script. A name this
// version does not know is skipped, so a link from a later version still
// opens with what this one understands.
func numbers(params string) (map[string]uint64, error) {
	nums := map[string]uint64{}
	if params == "" {
		return nums, nil
	}
	parts := strings.Split(params, "&")
	if len(parts) > 16 {
		return nil, fmt.Errorf("the share link is damaged: %d fields after the scenario, at most 16 are expected", len(parts))
	}
	for _, p := range parts {
		name, v, _ := strings.Cut(p, "=")
		var f *field
		for i := range fields {
			if fields[i].name == name {
				f = &fields[i]
			}
		}
		if f == nil {
			continue
		}
		if _, dup := nums[name]; dup {
			return nil, fmt.Errorf("the share link is damaged: %s= appears twice", name)
		}
		shown := v
		if len(shown) > 24 {
			shown = shown[:24] + "…"
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if errors.Is(err, strconv.ErrSyntax) {
			return nil, fmt.Errorf("the share link is damaged: the %s %q is not a whole number", f.what, shown)
		}
		if err != nil || n < f.min || n > f.max {
			return nil, fmt.Errorf("the share link is damaged: the %s %q is out of range (%d to %d)", f.what, shown, f.min, f.max)
		}
		nums[name] = n
	}
	return nums, nil
}

func decodeScript(data string) (string, error) {
	// Tolerate padding and the standard alphabet: links pass through mail
	// clients and chat programs that may have rewritten them.
	data = strings.TrimRight(data, "=")
	data = strings.NewReplacer("+", "-", "/", "_").Replace(data)
	if data == "" {
		return "", errors.New("the share link is empty after #s=")
	}
	packed, err := base64.RawURLEncoding.DecodeString(data)
	if err != nil {
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			return "", fmt.Errorf("the share link is damaged: character %d is not valid base64url", int64(ce)+1)
		}
		return "", fmt.Errorf("the share link is damaged: %v", err)
	}
	r := flate.NewReader(bytes.NewReader(packed))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return "", errors.New("the share link is cut short: the compressed scenario ends early (was the link copied whole?)")
		}
		return "", fmt.Errorf("the share link is damaged: the compressed data is not valid (%v)", err)
	}
	if len(out) > MaxSize {
		return "", fmt.Errorf("the shared scenario is larger than %d KiB, the most a link may carry", MaxSize>>10)
	}
	if !utf8.Valid(out) {
		return "", errors.New("the shared scenario is not valid UTF-8 text")
	}
	return string(out), nil
}
