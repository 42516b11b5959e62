//go:build js && wasm

package wasmmem

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// read returns runtime metrics by name.
func read(names ...string) []uint64 {
	s := make([]metrics.Sample, len(names))
	for i, n := range names {
		s[i].Name = n
	}
	metrics.Read(s)
	out := make([]uint64, len(s))
	for i := range s {
		out[i] = s[i].Value.Uint64()
	}
	return out
}

// free is the heap memory Go holds without using it.
func free() uint64 {
	m := read("/memory/classes/heap/free:bytes", "/memory/classes/heap/released:bytes")
	return m[0] + m[1]
}

// TestReserveGrowsOnce: after a reservation the heap has that much room,
// already collected, and grows into it without growing the memory much
// further.
func TestReserveGrowsOnce(t *testing.T) {
	Reserve(96 << 20)
	if f := free(); f < 96<<20 {
		t.Fatalf("after Reserve(96 MiB) the heap has %d bytes free", f)
	}
	after := mapped()
	var keep [][]byte
	for range 16 {
		b := make([]byte, 4<<20)
		b[len(b)-1] = 1
		keep = append(keep, b)
	}
	// The runtime's own bookkeeping may still take a page or two; without
	// the reservation the heap would have grown by the whole 64 MiB.
	if now := mapped(); now-after > 1<<20 {
		t.Errorf("64 MiB of allocations grew the memory from %d to %d bytes after the reservation", after, now)
	}
	runtime.KeepAlive(keep)
}

// sink keeps the compiler from dropping the test's garbage unallocated.
var sink []byte

// garbage allocates n bytes that are dead at once, writing one byte of
// every megabyte as a run would.
func garbage(n int) {
	for range n >> 20 {
		sink = make([]byte, 1<<20)
		sink[0] = 1
	}
	sink = nil
}

// TestReserveHoldsCollection: no collection runs while the heap fills the
// reservation; once it is full one does, and the pacing set before the
// reservation comes back.
func TestReserveHoldsCollection(t *testing.T) {
	unsetPacing(t)
	defer debug.SetGCPercent(debug.SetGCPercent(300))
	limit := debug.SetMemoryLimit(-1)
	Reserve(96 << 20)
	const cycles = "/gc/cycles/total:gc-cycles"
	before := read(cycles)[0]
	garbage(64 << 20)
	if n := read(cycles)[0] - before; n != 0 {
		t.Fatalf("%d collections ran while 64 MiB of a 96 MiB reservation filled up", n)
	}
	if pct := gcPercent(); pct != -1 {
		t.Fatalf("during the hold GOGC is %d, want off", pct)
	}
	garbage(256 << 20)
	if n := read(cycles)[0] - before; n == 0 {
		t.Fatal("no collection ran after 320 MiB of garbage in a 96 MiB reservation")
	}
	for range 100 {
		runtime.Gosched()
		if pct := gcPercent(); pct != -1 {
			if pct != 300 {
				t.Fatalf("after the hold GOGC is %d, want the 300 set before", pct)
			}
			if now := debug.SetMemoryLimit(-1); now != limit {
				t.Fatalf("after the hold the memory limit is %d, want the %d before", now, limit)
			}
			return
		}
	}
	t.Fatal("the pacing did not come back after the first collection")
}

// unsetPacing clears GOGC and GOMEMLIMIT for the test and ends the hold an
// earlier test left.
func unsetPacing(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	release(hold.gen)
}

// gcPercent reads GOGC.
func gcPercent() int {
	pct := debug.SetGCPercent(-1)
	debug.SetGCPercent(pct)
	return pct
}

// TestReserveLeavesTheUsersPacing: with GOGC or GOMEMLIMIT in the
// environment the user chose the pacing, and a reservation keeps it.
func TestReserveLeavesTheUsersPacing(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		unsetPacing(t)
		t.Setenv(env, "off")
		Reserve(8 << 20)
		if pct := gcPercent(); pct != 200 {
			t.Errorf("with %s set, a reservation changed GOGC from 200 to %d", env, pct)
		}
	}
}

// TestReleaseEndsOnlyTheLatestHold: the cleanup of a hold that a second
// Reserve replaced leaves the collector off.
func TestReleaseEndsOnlyTheLatestHold(t *testing.T) {
	unsetPacing(t)
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	Reserve(8 << 20)
	first := hold.gen
	Reserve(8 << 20)
	release(first)
	if pct := gcPercent(); pct != -1 {
		t.Fatalf("the end of a replaced hold set GOGC to %d, want it still off", pct)
	}
	release(hold.gen)
	if pct := gcPercent(); pct != 200 {
		t.Fatalf("after the last hold GOGC is %d, want the 200 set before", pct)
	}
}

// TestReleaseKeepsLaterSettings: pacing set during a hold is someone's
// choice, which the end of the hold does not undo.
func TestReleaseKeepsLaterSettings(t *testing.T) {
	unsetPacing(t)
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	Reserve(8 << 20)
	debug.SetGCPercent(150)
	debug.SetMemoryLimit(1 << 40)
	release(hold.gen)
	if pct := gcPercent(); pct != 150 {
		t.Errorf("GOGC set to 150 during the hold is %d after it", pct)
	}
	if limit := debug.SetMemoryLimit(-1); limit != 1<<40 {
		t.Errorf("the memory limit set to 1 TiB during the hold is %d after it", limit)
	}
}
