package sim

import "math/bits"

type evKind uint8

const (
	evDeliver evKind = iota + 1
	evTimer
	evStart   // boot a node (index in to)
	evControl // run a scheduled scenario action (id in aux)
	evDetect  // failure detector update for node to (aux: detectSuspect or detectTrust)
)

// event is a queue entry. It carries neither its time nor a sequence number:
// in a bucket both are implied by the bucket and the position in it, and the
// overflow heap wraps it in a farEvent that adds them. That keeps an entry
// at 64 bytes, one cache line.
type event struct {
	msg    Message // deliver
	tag    string  // timer tag
	aux    uint64  // deliver: message id; timer: timer id; control: action id; detect: token
	to     int32   // destination node index
	from   int32   // deliver: sender index
	fromID int32   // deliver: sender id, so a delivery need not look it up
	kindIx int32   // deliver: index of the message kind in Sim.kinds
	gen    uint32  // the run's crash counter when scheduled (detect: the direction)
	kind   evKind
}

// bucketBits sets the calendar window: events less than 1<<bucketBits ticks
// ahead go to a bucket per tick, the rest to the overflow heap.
const bucketBits = 12

const (
	nBuckets   = 1 << bucketBits
	bucketMask = nBuckets - 1
)

// chunkLen is the number of entries per chunk (2 KB): small enough that the
// thousands of buckets a timer-heavy run keeps busy, each holding at least
// one chunk, cost a few megabytes at most.
const chunkLen = 32

// chunk is a run of bucket entries. A bucket is a list of chunks: its
// entries lie one after the other in memory, in scheduling order, so a
// tick's events are read and written sequentially however many there are,
// and a drained chunk is reused at once for the next tick while it is still
// in cache.
type chunk struct {
	ev   [chunkLen]event
	next *chunk
}

// bucket holds the events of one tick: r is the read position in head, w
// the write position in tail.
type bucket struct {
	head, tail *chunk
	r, w       int32
}

// queue is a calendar queue with an overflow heap that yields events in
// exact (time, scheduling order) order.
//
// The window [base, base+nBuckets) holds one bucket per tick; base is the
// time of the last event popped, so it never decreases and every pending
// event lies at or after it. A bucket holds the events of a single tick
// (distinct ticks in the window map to distinct buckets), appended in
// scheduling order. An event goes to the overflow heap only when its tick
// lies beyond the window at the time it is scheduled. Because the window
// only moves forward, once a tick has entered the window every later event
// for it goes to its bucket: all overflow events of a tick were scheduled
// before all bucket events of that tick. Draining the heap first at equal
// times therefore keeps scheduling order, and the heap orders its own
// events by (time, seq).
type queue struct {
	base  Time
	seq   uint64 // scheduling counter for overflow events
	b     [nBuckets]bucket
	full  [nBuckets / 64]uint64 // bit set: bucket has pending events
	inBkt int
	far   farHeap
	spare *chunk // drained chunks, for reuse
	slab  int    // chunks allocated at a time: grows with the run
	// retired is a drained chunk that held an entry pop returned: a later
	// pop that leaves the common case recycles it, once that entry has been
	// processed.
	retired *chunk
	popped  event // the entry pop returned last, when it came from the heap or is a boot
	// The boot entries, one per process, all due at time 0 and scheduled
	// before anything else, are not stored: they are numbered 0..boots-1 and
	// the first booted are popped. A million-process run would otherwise
	// fill 64 MB of chunks with them.
	booted, boots int32

	// peek's finding, reused by pop: the bucket, fromHeap or fromBoots. It
	// stays valid across pops from the same bucket and across pushes that
	// are not earlier, so that a run through one tick's events does not
	// search for the next bucket each time.
	nextSlot int
	nextAt   Time
	peeked   bool
	// hotAt is the tick slot last put an entry in a bucket for, and hot
	// that bucket: slot appends to it at once while it has room. The
	// bucket, when not empty, holds that tick: ticks are never scheduled
	// before base.
	hotAt Time
	hot   *bucket
}

// Where the next entry comes from when it is not in a bucket.
const (
	fromHeap  = -1
	fromBoots = -2
)

func (q *queue) len() int { return q.inBkt + q.far.len() + int(q.boots-q.booted) }

// boot schedules the boot entries of n processes at time 0; the queue must
// be new.
func (q *queue) boot(n int) { q.boots = int32(n) }

func (q *queue) newChunk() *chunk {
	if q.spare == nil {
		// Chunks come in slabs that double up to 1 MB, so a million
		// pending events cost a few hundred allocations.
		q.slab = min(max(2*q.slab, 4), 512)
		cs := make([]chunk, q.slab)
		for i := range cs {
			q.freeChunk(&cs[i])
		}
	}
	c := q.spare
	q.spare, c.next = c.next, nil
	return c
}

func (q *queue) freeChunk(c *chunk) {
	c.next = q.spare
	q.spare = c
}

// push schedules e at time at, which must not be before the last popped
// event's time.
func (q *queue) push(at Time, e *event) { *q.slot(at) = *e }

// slot schedules an entry at time at, which must not be before the last
// popped event's time, and returns it for the caller to fill in at once:
// writing the fields in place spares a copy of the whole entry. An entry
// for the overflow heap takes its place in the heap order at the next
// queue operation, once it is filled in.
func (q *queue) slot(at Time) *event {
	if e := q.hotSlot(at); e != nil {
		return e
	}
	return q.place(at)
}

// hotSlot is slot in the common case, the tick last filled with room left
// in its tail chunk, which it settles before the heap and the window are
// looked at; otherwise it returns nil. It is small enough to be inlined
// where messages are sent: under js/wasm a call costs as much as the rest
// of this case.
func (q *queue) hotSlot(at Time) *event {
	if b := q.hot; at == q.hotAt && b != nil && b.tail != nil {
		if w := uint(b.w); w < chunkLen {
			b.w++
			q.inBkt++
			return &b.tail.ev[w]
		}
	}
	return nil
}

// place is slot for any other case.
func (q *queue) place(at Time) *event {
	if at < q.nextAt {
		q.peeked = false
	}
	q.far.settle()
	if at-q.base >= nBuckets {
		q.seq++
		return q.far.add(at, q.seq)
	}
	i := int(at) & bucketMask
	b := &q.b[i]
	switch {
	case b.tail == nil:
		c := q.newChunk()
		b.head, b.tail, b.r, b.w = c, c, 0, 0
		q.full[i>>6] |= 1 << (uint(i) & 63)
	case b.w == chunkLen:
		c := q.newChunk()
		b.tail.next = c
		b.tail, b.w = c, 0
	}
	e := &b.tail.ev[b.w]
	b.w++
	q.inBkt++
	q.hotAt, q.hot = at, b
	return e
}

// nextBucket returns the earliest non-empty bucket, scanning the bitmap
// circularly from base.
func (q *queue) nextBucket() int {
	start := int(q.base) & bucketMask
	w := start >> 6
	word := q.full[w] &^ (1<<(uint(start)&63) - 1)
	for range len(q.full) + 1 {
		if word != 0 {
			return w<<6 | bits.TrailingZeros64(word)
		}
		w = (w + 1) % len(q.full)
		word = q.full[w]
	}
	panic("sim: bucket count out of sync")
}

// peek returns the time of the next event; ok is false when empty.
func (q *queue) peek() (at Time, ok bool) {
	if q.peeked {
		return q.nextAt, true
	}
	return q.find()
}

func (q *queue) find() (at Time, ok bool) {
	q.far.settle()
	if q.booted < q.boots {
		q.nextSlot, q.nextAt, q.peeked = fromBoots, 0, true
		return 0, true
	}
	if q.inBkt == 0 {
		if q.far.len() == 0 {
			return 0, false
		}
		q.nextSlot, q.nextAt, q.peeked = fromHeap, q.far.a[0].at, true
		return q.nextAt, true
	}
	i := q.nextBucket()
	t := q.base + Time((i-int(q.base))&bucketMask)
	if q.far.len() > 0 && q.far.a[0].at <= t {
		q.nextSlot, q.nextAt, q.peeked = fromHeap, q.far.a[0].at, true
		return q.nextAt, true
	}
	q.nextSlot, q.nextAt, q.peeked = i, t, true
	return t, true
}

// first returns the next event, which peek has just found; it stays queued.
func (q *queue) first() *event {
	switch q.nextSlot {
	case fromHeap:
		return &q.far.a[0].ev
	case fromBoots:
		q.popped = event{kind: evStart, to: q.booted}
		return &q.popped
	}
	b := &q.b[q.nextSlot]
	return &b.head.ev[b.r]
}

// pop removes the next event and returns it with its time; ok is false
// when the queue is empty. The entry stays valid, and is not reused, until
// the next pop.
//
// As in slot, the common case comes first, in popHot.
func (q *queue) pop() (at Time, e *event, ok bool) {
	if e := q.popHot(); e != nil {
		return q.nextAt, e, true
	}
	return q.popAny()
}

// popHot pops the next entry, due at nextAt, in the common case: it is
// known, in a bucket, and neither the last of its bucket nor of its chunk.
// Otherwise it returns nil and leaves the queue as it was.
func (q *queue) popHot() *event {
	i := uint(q.nextSlot)
	if !q.peeked || i >= nBuckets {
		return nil
	}
	b := &q.b[i]
	r := b.r + 1
	if r >= chunkLen || r >= b.w && b.head == b.tail {
		return nil
	}
	e := &b.head.ev[b.r]
	b.r = r
	q.inBkt--
	q.base = q.nextAt
	return e
}

// popAny is pop for any other case.
func (q *queue) popAny() (at Time, e *event, ok bool) {
	if !q.peeked {
		if _, ok := q.find(); !ok {
			return 0, nil, false
		}
	}
	at = q.nextAt
	q.base = at
	i := q.nextSlot
	switch i {
	case fromHeap:
		q.peeked = false
		q.far.settle()
		q.popped = q.far.pop()
		return at, &q.popped, true
	case fromBoots:
		q.popped = event{kind: evStart, to: q.booted}
		q.booted++
		q.peeked = q.booted < q.boots
		return at, &q.popped, true
	}
	if q.retired != nil {
		q.freeChunk(q.retired)
		q.retired = nil
	}
	b := &q.b[i]
	c := b.head
	e = &c.ev[b.r]
	b.r++
	switch {
	case c == b.tail && b.r == b.w:
		b.head, b.tail = nil, nil
		q.full[i>>6] &^= 1 << (uint(i) & 63)
		q.retired = c
		q.peeked = false
	case b.r == chunkLen:
		b.head, b.r = c.next, 0
		q.retired = c
	}
	q.inBkt--
	return at, e, true
}

// each calls f for every pending event, in no particular order.
func (q *queue) each(f func(at Time, e *event)) {
	q.far.settle()
	for i := q.booted; i < q.boots; i++ {
		f(0, &event{kind: evStart, to: i})
	}
	for i := range q.b {
		b := &q.b[i]
		at := q.base + Time((i-int(q.base))&bucketMask)
		for c := b.head; c != nil; c = c.next {
			lo, hi := int32(0), int32(chunkLen)
			if c == b.head {
				lo = b.r
			}
			if c == b.tail {
				hi = b.w
			}
			for k := lo; k < hi; k++ {
				f(at, &c.ev[k])
			}
		}
	}
	for k := range q.far.a {
		f(q.far.a[k].at, &q.far.a[k].ev)
	}
}

// farEvent is an overflow heap entry.
type farEvent struct {
	at  Time
	seq uint64
	ev  event
}

func (a *farEvent) before(b *farEvent) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// farHeap is a typed binary min-heap on (at, seq): no interface boxing.
// Its last entry may be unsettled: added by add and not yet sifted into
// place, which settle does.
type farHeap struct {
	a         []farEvent
	unsettled bool
}

func (h *farHeap) len() int { return len(h.a) }

// add appends an entry at (at, seq) for the caller to fill in; it is
// sifted into place by the next settle.
func (h *farHeap) add(at Time, seq uint64) *event {
	h.a = append(h.a, farEvent{at: at, seq: seq})
	h.unsettled = true
	return &h.a[len(h.a)-1].ev
}

func (h *farHeap) push(e farEvent) {
	h.settle()
	h.a = append(h.a, e)
	h.unsettled = true
	h.settle()
}

// settle sifts the last entry up into place, moving a hole rather than
// swapping, so each entry on the path is copied once.
func (h *farHeap) settle() {
	if h.unsettled {
		h.siftUp()
	}
}

func (h *farHeap) siftUp() {
	h.unsettled = false
	a := h.a
	i := len(a) - 1
	e := a[i]
	for i > 0 {
		p := (i - 1) / 2
		if !e.before(&a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = e
}

// pop removes the least entry; the heap must be settled.
func (h *farHeap) pop() event {
	a := h.a
	top := a[0].ev
	n := len(a) - 1
	last := a[n]
	a[n] = farEvent{}
	a = a[:n]
	if n > 0 {
		i := 0
		for {
			l := 2*i + 1
			if l >= n {
				break
			}
			m := l
			if r := l + 1; r < n && a[r].before(&a[l]) {
				m = r
			}
			if !a[m].before(&last) {
				break
			}
			a[i] = a[m]
			i = m
		}
		a[i] = last
	}
	h.a = a
	return top
}
