package proc

// Blocks hands out zeroed values of T from blocks of a thousand, for a
// Factory that makes one process per call: a million-process world then
// costs a thousand allocations rather than a million, and consecutive
// processes of the ring sit side by side in memory, so that a message
// passed round the ring finds the next process in the cache. It is a speed
// trick the contract offers every algorithm; a Factory that makes its
// processes with new(T) behaves the same.
type Blocks[T any] struct{ free []T }

// blockSize is the number of values per block: large enough that the
// allocations are few, small enough that a ten-process world wastes little.
const blockSize = 1024

// New returns a zeroed *T.
func (b *Blocks[T]) New() *T {
	if len(b.free) == 0 {
		b.free = make([]T, blockSize)
	}
	p := &b.free[0]
	b.free = b.free[1:]
	return p
}
