//go:build unix

package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dsim run /dev/zero reads a megabyte, not forever.
func TestEndlessScript(t *testing.T) {
	code, out, errOut := dsim(t, "run", "/dev/zero")
	wantCode(t, code, exitError, errOut)
	if want := "/dev/zero:1: the script is more than the 1048576 bytes allowed\n"; out != "" || errOut != want {
		t.Errorf("stdout %q, stderr %q; want stderr %q", out, errOut, want)
	}
}

// A FIFO is refused before it is opened: opening it would wait for a
// writer.
func TestFIFOScript(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "x.lua")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	done := make(chan struct{})
	var code int
	var out, errOut string
	go func() {
		defer close(done)
		code, out, errOut = dsim(t, "check", fifo, "testdata/pass.lua")
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("dsim check is still waiting on the FIFO after 10 s")
	}
	wantCode(t, code, exitError, errOut)
	want := "ERROR " + fifo + ": is a FIFO (named pipe), not a scenario file\n"
	if !strings.HasPrefix(out, want) || !strings.HasSuffix(out, "\n2 passed, 1 failed\n") {
		t.Errorf("check printed:\n%s\nwant it to open with %q and run the next file", out, want)
	}
}

// A file that cannot be opened, or read, is a one-line error naming it.
func TestUnreadableFile(t *testing.T) {
	if os.Geteuid() != 0 {
		noRead := filepath.Join(t.TempDir(), "secret.lua")
		if err := os.WriteFile(noRead, []byte("expect(true)\n"), 0o200); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := dsim(t, "run", noRead)
		wantCode(t, code, exitError, errOut)
		if want := "dsim: " + noRead + ": permission denied\n"; errOut != want {
			t.Errorf("stderr %q, want %q", errOut, want)
		}
	}
	if runtime.GOOS == "linux" {
		// Opens as a regular file; reading at offset 0 fails even for root.
		code, _, errOut := dsim(t, "run", "/proc/self/mem")
		wantCode(t, code, exitError, errOut)
		if want := "dsim: /proc/self/mem: input/output error\n"; errOut != want {
			t.Errorf("stderr %q, want %q", errOut, want)
		}
	}
}
