// Package share encodes a scenario into a link fragment and back:
// "#s=" followed by the base64url (unpadded) raw DEFLATE of the script.
// Decoding never trusts its input: every way a link can be damaged gives an
// error that says what is wrong with it.
package share

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Prefix opens the fragment of a share link.
const Prefix = "#s="

// MaxSize bounds a decoded scenario, so a small link cannot expand into a
// huge allocation.
const MaxSize = 256 << 10

// Encode returns the fragment (with its "#s=") that carries script.
func Encode(script string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression) // the level is valid
	w.Write([]byte(script))                            // a bytes.Buffer does not fail
	w.Close()
	return Prefix + base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// ErrNoScenario says a fragment carries no scenario: the page was opened
// without a share link.
var ErrNoScenario = errors.New("the link carries no scenario")

// Decode returns the script a fragment carries. fragment may include the
// leading "#".
func Decode(fragment string) (string, error) {
	data, ok := strings.CutPrefix(strings.TrimPrefix(fragment, "#"), "s=")
	if !ok {
		return "", ErrNoScenario
	}
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
