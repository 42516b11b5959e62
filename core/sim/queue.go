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
// in a bucket both are implied by the slot and the position in the list,
// and the overflow heap wraps it in a farEvent that adds them. That keeps
// an entry at 64 bytes, one cache line.
type event struct {
	msg  Message // deliver
	tag  string  // timer tag
	aux  uint64  // deliver: message id; timer: timer id; control: action id
	to   int32   // destination node index
	from int32   // sender index
	gen  uint32  // the run's crash counter when scheduled (detect: the node's)
	next int32   // bucket list link: pool index + 1, 0 ends the list
	kind evKind
}

// bucketBits sets the calendar window: events less than 1<<bucketBits ticks
// ahead go to a bucket per tick, the rest to the overflow heap.
const bucketBits = 12

const (
	nBuckets   = 1 << bucketBits
	bucketMask = nBuckets - 1
)

// queue is a calendar queue with an overflow heap that yields events in
// exact (time, scheduling order) order.
//
// The window [base, base+nBuckets) holds one bucket per tick; base is the
// time of the last event popped, so it never decreases and every pending
// event lies at or after it. A bucket holds the events of a single tick
// (distinct ticks in the window map to distinct slots), appended in
// scheduling order. An event goes to the overflow heap only when its tick
// lies beyond the window at the time it is scheduled. Because the window
// only moves forward, once a tick has entered the window every later event
// for it goes to its bucket: all overflow events of a tick were scheduled
// before all bucket events of that tick. Draining the heap first at equal
// times therefore keeps scheduling order, and the heap orders its own
// events by (time, seq).
type queue struct {
	base Time
	seq  uint64 // scheduling counter for overflow events
	// Buckets are linked lists threaded through one pool of entries, with
	// a free list: a freed entry is reused at once, so the few entries a
	// run keeps busy stay in cache instead of each tick touching its own
	// array.
	pool  []event
	free  int32 // free list head: pool index + 1, 0 when empty
	head  [nBuckets]int32
	tail  [nBuckets]int32
	full  [nBuckets / 64]uint64 // bit set: bucket has pending events
	inBkt int
	far   farHeap

	// peek's finding, reused by pop: the slot, or -1 for the heap.
	nextSlot int
	nextAt   Time
	peeked   bool
}

func (q *queue) len() int { return q.inBkt + len(q.far) }

// push schedules e at time at, which must not be before the last popped
// event's time.
func (q *queue) push(at Time, e *event) {
	q.peeked = false
	if at-q.base >= nBuckets {
		q.seq++
		q.far.push(farEvent{at: at, seq: q.seq, ev: *e})
		return
	}
	n := q.free
	if n == 0 {
		q.pool = append(q.pool, event{})
		n = int32(len(q.pool))
	} else {
		q.free = q.pool[n-1].next
	}
	p := &q.pool[n-1]
	*p = *e
	p.next = 0
	i := int(at) & bucketMask
	if t := q.tail[i]; t == 0 {
		q.head[i] = n
		q.full[i>>6] |= 1 << (uint(i) & 63)
	} else {
		q.pool[t-1].next = n
	}
	q.tail[i] = n
	q.inBkt++
}

// nextBucket returns the slot of the earliest non-empty bucket, scanning
// the bitmap circularly from base.
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
	if q.inBkt == 0 {
		if len(q.far) == 0 {
			return 0, false
		}
		q.nextSlot, q.nextAt, q.peeked = -1, q.far[0].at, true
		return q.nextAt, true
	}
	i := q.nextBucket()
	t := q.base + Time((i-int(q.base))&bucketMask)
	if len(q.far) > 0 && q.far[0].at <= t {
		q.nextSlot, q.nextAt, q.peeked = -1, q.far[0].at, true
		return q.nextAt, true
	}
	q.nextSlot, q.nextAt, q.peeked = i, t, true
	return t, true
}

// first returns the next event, which peek has just found; it stays queued.
func (q *queue) first() *event {
	if q.nextSlot < 0 {
		return &q.far[0].ev
	}
	return &q.pool[q.head[q.nextSlot]-1]
}

// pop removes the next event into e and returns its time; ok is false when
// the queue is empty.
func (q *queue) pop(e *event) (at Time, ok bool) {
	if !q.peeked {
		if _, ok := q.peek(); !ok {
			return 0, false
		}
	}
	q.peeked = false
	at = q.nextAt
	q.base = at
	i := q.nextSlot
	if i < 0 {
		*e = q.far.pop()
		return at, true
	}
	n := q.head[i]
	p := &q.pool[n-1]
	*e = *p
	q.head[i] = p.next
	if p.next == 0 {
		q.tail[i] = 0
		q.full[i>>6] &^= 1 << (uint(i) & 63)
	}
	p.msg = nil // let the collector have delivered messages
	p.next = q.free
	q.free = n
	q.inBkt--
	return at, true
}

// each calls f for every pending event, in no particular order.
func (q *queue) each(f func(at Time, e *event)) {
	for i := range q.head {
		at := q.base + Time((i-int(q.base))&bucketMask)
		for n := q.head[i]; n != 0; n = q.pool[n-1].next {
			f(at, &q.pool[n-1])
		}
	}
	for k := range q.far {
		f(q.far[k].at, &q.far[k].ev)
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
type farHeap []farEvent

// push and pop move a hole rather than swapping, so each entry on the path
// is copied once.
func (h *farHeap) push(e farEvent) {
	*h = append(*h, e)
	a := *h
	i := len(a) - 1
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

func (h *farHeap) pop() event {
	a := *h
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
	*h = a
	return top
}
