//go:build !(js && wasm)

package wasmmem

import "testing"

// TestReserveElsewhereDoesNothing: natively the operating system maps memory
// lazily, and a reservation would only cost a collection and a gigabyte.
func TestReserveElsewhereDoesNothing(t *testing.T) {
	if allocs := testing.AllocsPerRun(1, func() { Reserve(1 << 30) }); allocs != 0 {
		t.Fatalf("Reserve allocated %.0f times", allocs)
	}
}
