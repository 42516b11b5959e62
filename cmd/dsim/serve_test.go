package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestServeNotBuilt(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"serve", "--dir", t.TempDir()}, &out, &errb)
	if code != exitError {
		t.Fatalf("exit %d, want %d", code, exitError)
	}
	if msg := errb.String(); !strings.Contains(msg, "not a built playground") || !strings.Contains(msg, "./build.sh") {
		t.Errorf("message %q does not say the site is not built and how to build it", msg)
	}
}

func TestServeBadPort(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"serve", "--port", "70000"}, &out, &errb); code != exitError {
		t.Fatalf("exit %d, want %d", code, exitError)
	}
	if !strings.Contains(errb.String(), "not a TCP port") {
		t.Errorf("message %q does not name the bad port", errb.String())
	}
}

func TestSiteHandler(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": "<!doctype html><title>p</title>", "dsim.wasm": "\x00asm\x01\x00\x00\x00"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := siteDir(dir)
	if err != nil || got != dir {
		t.Fatalf("siteDir(%q) = %q, %v", dir, got, err)
	}
	srv := httptest.NewServer(siteHandler(dir))
	defer srv.Close()
	// index.html answers under its own name too, not with a redirect: a
	// service worker caches what it gets, and a cached redirect cannot
	// answer a navigation.
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for path, ctype := range map[string]string{"/": "text/html; charset=utf-8", "/index.html": "text/html; charset=utf-8", "/dsim.wasm": "application/wasm"} {
		resp, err := noFollow.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		// Streaming compilation of the wasm needs its MIME type.
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != ctype {
			t.Errorf("GET %s: %d %q, want 200 %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), ctype)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache (a rebuilt site must be reloaded)", path, cc)
		}
	}
}

// dsim.wasm.gz beside dsim.wasm is sent, as gzip, to a client that accepts
// it; the same bytes, uncompressed, to one that does not; and both answers
// say that they vary with Accept-Encoding.
func TestSiteHandlerPrecompressed(t *testing.T) {
	dir := t.TempDir()
	wasm := bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00"), 1000)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(wasm)
	zw.Close()
	for name, body := range map[string][]byte{"index.html": []byte("<!doctype html><title>p</title>"), "dsim.wasm": wasm, "dsim.wasm.gz": gz.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(siteHandler(dir))
	defer srv.Close()
	for _, c := range []struct {
		accept string
		gzip   bool
	}{
		{"", false},
		{"identity", false},
		{"gzip, deflate, br, zstd", true}, // Chromium's
		{"br;q=1.0, gzip;q=0.8, *;q=0.1", true},
		{"x-gzip", true},
		{"*", true},
		{"gzip;q=0, *", false},
		{"*;q=0, gzip", true},
		{"br", false},
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/dsim.wasm", nil)
		// Set explicitly, so the client neither adds gzip nor decodes.
		req.Header.Set("Accept-Encoding", c.accept)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		h := resp.Header
		if resp.StatusCode != http.StatusOK || h.Get("Content-Type") != "application/wasm" || h.Get("Vary") != "Accept-Encoding" || h.Get("Cache-Control") != "no-cache" {
			t.Errorf("Accept-Encoding %q: %d, Content-Type %q, Vary %q, Cache-Control %q; want 200 application/wasm, Vary Accept-Encoding, no-cache",
				c.accept, resp.StatusCode, h.Get("Content-Type"), h.Get("Vary"), h.Get("Cache-Control"))
		}
		want, enc := wasm, ""
		if c.gzip {
			want, enc = gz.Bytes(), "gzip"
		}
		if h.Get("Content-Encoding") != enc || !bytes.Equal(body, want) {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q and %d bytes, want %q and %d", c.accept, h.Get("Content-Encoding"), len(body), enc, len(want))
		}
	}
	// A file without a twin is not said to vary.
	resp, err := http.Get(srv.URL + "/index.html")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if v := resp.Header.Get("Vary"); v != "" || resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("index.html: Vary %q, Content-Encoding %q; want neither", v, resp.Header.Get("Content-Encoding"))
	}
}
