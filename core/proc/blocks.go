package proc

// Blocks hands out zeroed values of T from blocks, for a Factory that makes
// one process per call: a million-process world then costs about a
// thousand allocations rather than a million, and consecutive
// processes of the ring sit side by side in memory, so that a message
// passed round the ring finds the next process in the cache. It is a speed
// trick the contract offers every algorithm; a Factory that makes its
// processes with new(T) behaves the same.
type Blocks[T any] struct {
	free []T
	size int // of the last block
}

// The blocks double from firstBlock values to maxBlock: a small world
// wastes at most half of what it uses, a large one makes few allocations.
const (
	firstBlock = 8
	maxBlock   = 1024
)

// New returns a zeroed *T.
func (b *Blocks[T]) New() *T {
	if len(b.free) == 0 {
		b.size = min(max(2*b.size, firstBlock), maxBlock)
		b.free = make([]T, b.size)
	}
	p := &b.free[0]
	b.free = b.free[1:]
	return p
}
