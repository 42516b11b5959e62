package main

import (
	"bytes"
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
