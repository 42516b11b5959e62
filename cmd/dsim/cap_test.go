//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"dsim/core/script"
	"dsim/core/script/scripttest"
)

// asCap is the address-space cap the hostile scripts run under: the Go
// runtime alone reserves about 1.2 GB of it at start.
const asCap = 2500 << 20

// When the test binary is started with capEnv set to a file name, it is
// dsim itself under the cap (see TestMain), and writes its peak resident
// memory to that file as it exits: the rusage of a child started by vfork
// counts the parent's memory too.
const capEnv = "DSIM_TEST_UNDER_CAP"

func TestMain(m *testing.M) {
	if peakFile := os.Getenv(capEnv); peakFile != "" {
		lim := syscall.Rlimit{Cur: asCap, Max: asCap}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			panic(err)
		}
		code := run(os.Args[1:], os.Stdout, os.Stderr)
		status, _ := os.ReadFile("/proc/self/status")
		for _, line := range strings.Split(string(status), "\n") {
			if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				os.WriteFile(peakFile, []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB"))), 0o644)
			}
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// Every hostile script ends, with the CLI's default limits, in one
// FILE:LINE: error (or cleanly), within seconds, in a process under a real
// 2.5 GB address-space cap whose peak memory stays within the budget and
// the slack the README states.
func TestHostileScriptsUnderAMemoryCap(t *testing.T) {
	corpus, err := scripttest.LoadHostile("../../core/script/testdata/hostile")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	budget := int64(script.CLI.Memory)
	peakAllowed := budget + budget/2 + memorySlack
	var worst int64
	worstName := ""
	// In parallel, two at a time on this machine's two cores, each in a
	// process of its own; the worst peak is reported once all are done.
	t.Cleanup(func() { t.Logf("the worst peak: %s, %d MiB (budget %d MiB)", worstName, worst>>20, budget>>20) })
	var mu sync.Mutex
	for _, h := range corpus {
		t.Run(h.Name, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(dir, h.Name)
			if err := os.WriteFile(file, h.Src, 0o644); err != nil {
				t.Fatal(err)
			}
			peakFile := file + ".peak"
			cmd := exec.Command(os.Args[0], "run", h.Name)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), capEnv+"="+peakFile)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			code := cmd.ProcessState.ExitCode()
			kb, err2 := os.ReadFile(peakFile)
			if err2 != nil {
				t.Fatalf("the run wrote no peak memory (%v); stderr:\n%s", err2, tail(stderr.String()))
			}
			peak, _ := strconv.ParseInt(string(kb), 10, 64)
			peak <<= 10
			mu.Lock()
			if peak > worst {
				worst, worstName = peak, h.Name
			}
			mu.Unlock()
			t.Logf("%s: exit %d, peak %d MiB, %v", h.Name, code, peak>>20, took.Round(10*time.Millisecond))
			if peak > peakAllowed {
				t.Errorf("peak memory %d MiB, over the budget and slack of %d MiB", peak>>20, peakAllowed>>20)
			}
			lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
			last := lines[len(lines)-1]
			if h.Error == nil {
				if err != nil {
					t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr.String())
				}
				return
			}
			if code != exitError {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitError, tail(stderr.String()))
			}
			if want := h.Name + ":"; !strings.HasPrefix(last, want) || !h.Error.MatchString(last) {
				t.Errorf("last line of stderr:\n  %s\nwant a match for:\n  %s", last, h.Error)
			}
			if strings.Contains(stderr.String(), "goroutine ") || strings.Contains(stderr.String(), "fatal error") {
				t.Errorf("a Go crash:\n%s", tail(stderr.String()))
			}
		})
	}
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

// TestMemoryBeyondTheCap: under the cap, a --memory the address space
// cannot hold is refused with the largest budget that fits, rather than
// ending in the runtime's out-of-memory crash; one that fits runs.
func TestMemoryBeyondTheCap(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.lua")
	if err := os.WriteFile(file, []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		memory string
		code   int
		want   string
	}{
		{"1500", exitError, "--memory 1500: the address-space limit (ulimit -v) of 2500 MiB leaves room for a budget of at most 1218 MiB"},
		{"1000", 0, "1"},
	} {
		cmd := exec.Command(os.Args[0], "run", "--memory", c.memory, file)
		cmd.Env = append(os.Environ(), capEnv+"="+file+".peak")
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("--memory %s: exit %d, output:\n%s\nwant exit %d and %q", c.memory, code, tail(string(out)), c.code, c.want)
		}
	}
}
