package sim

import "math/bits"

type evKind uint8

const (
	evDeliver evKind = iota + 1
	evTimer
	evStart   // boot a node (index in to)
	evControl // run a scheduled scenario action (id in aux)
	evDetect  // failure detector update for node to, incarnation gen
)

// event is a queue entry. It is kept small and free of pointers to closures
// so that the hot path copies 64 bytes and allocates nothing.
type event struct {
	at   Time
	seq  uint64
	msg  Message // deliver
	tag  string  // timer tag
	aux  uint64  // deliver: message id; timer: timer id; control: action id
	to   int32   // destination node index
	from int32   // sender index, or -1 for injected messages
	gen  uint32  // destination incarnation at scheduling time
	kind evKind
}

func (a *event) before(b *event) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// bucketBits sets the calendar window: events less than 1<<bucketBits ticks
// ahead go to a bucket per tick, the rest to the overflow heap.
const bucketBits = 12

const (
	nBuckets   = 1 << bucketBits
	bucketMask = nBuckets - 1
)

// queue is a calendar queue with an overflow heap that still yields events in
// exact (time, seq) order.
//
// A bucket holds the events of a single tick, appended in seq order. An event
// goes to the overflow heap only when its tick lies beyond the window at the
// time it is scheduled; since the window only moves forward, every overflow
// event of a tick was scheduled before every bucket event of that tick, so
// draining the heap first at equal times keeps seq order.
type queue struct {
	base    Time // the earliest tick that may still hold events
	buckets [nBuckets][]event
	heads   [nBuckets]int32
	full    [nBuckets / 64]uint64 // bit set: bucket has pending events
	inBkt   int
	far     heap
}

func (q *queue) len() int { return q.inBkt + len(q.far) }

func (q *queue) push(e event) {
	if e.at < q.base+nBuckets {
		i := int(e.at) & bucketMask
		q.buckets[i] = append(q.buckets[i], e)
		q.full[i>>6] |= 1 << (uint(i) & 63)
		q.inBkt++
		return
	}
	q.far.push(e)
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

// peekTime returns the time of the next event; ok is false when empty.
func (q *queue) peekTime() (Time, bool) {
	if q.inBkt == 0 {
		if len(q.far) == 0 {
			return 0, false
		}
		return q.far[0].at, true
	}
	i := q.nextBucket()
	t := q.buckets[i][q.heads[i]].at
	if len(q.far) > 0 && q.far[0].at <= t {
		return q.far[0].at, true
	}
	return t, true
}

// pop removes the next event into e; it returns false when empty.
func (q *queue) pop(e *event) bool {
	if q.inBkt == 0 {
		if len(q.far) == 0 {
			return false
		}
		q.far.pop(e)
		q.base = e.at
		return true
	}
	i := q.nextBucket()
	b := q.buckets[i]
	h := q.heads[i]
	if len(q.far) > 0 && q.far[0].at <= b[h].at {
		q.far.pop(e)
		q.base = e.at
		return true
	}
	*e = b[h]
	b[h].msg = nil // let the collector have delivered messages
	h++
	q.inBkt--
	if int(h) == len(b) {
		q.buckets[i] = b[:0]
		q.heads[i] = 0
		q.full[i>>6] &^= 1 << (uint(i) & 63)
	} else {
		q.heads[i] = h
	}
	q.base = e.at
	return true
}

// heap is a typed binary min-heap on (at, seq): no interface boxing.
type heap []event

func (h *heap) push(e event) {
	*h = append(*h, e)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !a[i].before(&a[p]) {
			break
		}
		a[i], a[p] = a[p], a[i]
		i = p
	}
}

func (h *heap) pop(e *event) {
	a := *h
	*e = a[0]
	n := len(a) - 1
	a[0] = a[n]
	a[n] = event{}
	a = a[:n]
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
		if !a[m].before(&a[i]) {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
}
