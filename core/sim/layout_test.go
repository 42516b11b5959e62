package sim

import (
	"testing"
	"unsafe"
)

// The hot records are sized to cache lines: a process's runtime record is
// read on every delivery to it, and a queue entry on every event.
func TestRecordSizes(t *testing.T) {
	if n := unsafe.Sizeof(nodeRT{}); n != 64 {
		t.Errorf("nodeRT is %d bytes, want 64", n)
	}
	if n := unsafe.Sizeof(event{}); n != 64 {
		t.Errorf("event is %d bytes, want 64", n)
	}
}
