//go:build js && wasm

package wasmmem

import (
	"runtime"
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

// mapped is the memory Go has taken from the WebAssembly memory so far.
func mapped() uint64 { return read("/memory/classes/total:bytes")[0] }

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
