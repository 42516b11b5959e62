package proc

import (
	"slices"
	"testing"
)

// TestBlocks: values come zeroed and distinct, and the blocks grow from 8
// to 1024 values.
func TestBlocks(t *testing.T) {
	var b Blocks[[2]int]
	seen := map[*[2]int]bool{}
	var sizes []int
	for range 3000 {
		p := b.New()
		if *p != [2]int{} || seen[p] {
			t.Fatalf("value %d: %v, seen before: %v", len(seen), *p, seen[p])
		}
		seen[p] = true
		p[0] = 1
		if len(sizes) == 0 || sizes[len(sizes)-1] != b.size {
			sizes = append(sizes, b.size)
		}
	}
	want := []int{8, 16, 32, 64, 128, 256, 512, 1024}
	if !slices.Equal(sizes, want) {
		t.Errorf("block sizes %v, want %v", sizes, want)
	}
}
