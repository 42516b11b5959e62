//go:build js && wasm

package wasmmem

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

// mapped is the memory Go has taken from the WebAssembly memory so far.
func mapped() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestReserveGrowsOnce: after a reservation the heap grows into it without
// growing the memory much further.
func TestReserveGrowsOnce(t *testing.T) {
	before := mapped()
	Reserve(96 << 20)
	after := mapped()
	if after-before < 96<<20 {
		t.Fatalf("Reserve(96 MiB) grew the memory by %d bytes", after-before)
	}
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
