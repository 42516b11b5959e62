package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// refEntry is one scheduled event of the reference model: a plain list
// searched for the least (at, order) pair, too simple to be wrong.
type refEntry struct {
	at    Time
	order uint64
}

func refPopMin(ref []refEntry) ([]refEntry, refEntry) {
	best := 0
	for i, e := range ref {
		b := ref[best]
		if e.at < b.at || (e.at == b.at && e.order < b.order) {
			best = i
		}
	}
	e := ref[best]
	return slices.Delete(ref, best, best+1), e
}

// TestQueueMatchesReference drives the calendar queue with random schedules
// mixing near events, same-time inserts made while processing, bursts
// spanning several chunks of one bucket, events
// exactly at the window edge and far-future events (which go to the
// overflow heap and must still interleave by scheduling order), and checks
// every pop against the reference ordering.
func TestQueueMatchesReference(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		var q queue
		var ref []refEntry
		var order uint64
		var now Time
		schedule := func() {
			var d Time
			switch r.IntN(7) {
			case 6: // a burst on one tick, filling several chunks
				if len(ref) > 300 {
					break
				}
				d = Time(r.IntN(4))
				for range chunkLen + r.IntN(3*chunkLen) {
					order++
					q.push(now+d, &event{aux: order})
					ref = append(ref, refEntry{now + d, order})
				}
			case 0:
				d = 0 // same time as the event being processed
			case 1:
				d = Time(r.IntN(8))
			case 2:
				d = nBuckets - 1 + Time(r.IntN(3)) // straddle the window edge
			case 3:
				d = Time(r.IntN(3 * nBuckets)) // often beyond the window
			case 4:
				d = Time(r.IntN(1 << 20)) // far future
			default:
				d = Time(r.IntN(64))
			}
			order++
			q.push(now+d, &event{aux: order})
			ref = append(ref, refEntry{now + d, order})
		}
		for range 50 {
			schedule()
		}
		popped := 0
		for len(ref) > 0 {
			var want refEntry
			ref, want = refPopMin(ref)
			at, e, ok := q.pop()
			if !ok {
				t.Fatalf("seed %d: queue empty, reference still holds %d", seed, len(ref)+1)
			}
			if at != want.at || e.aux != want.order {
				t.Fatalf("seed %d, pop %d: got (t=%d, #%d), want (t=%d, #%d)", seed, popped, at, e.aux, want.at, want.order)
			}
			if at < now {
				t.Fatalf("seed %d: time went back from %d to %d", seed, now, at)
			}
			now = at
			popped++
			if popped < 3000 {
				for range r.IntN(3) {
					schedule()
				}
			}
			if q.len() != len(ref) {
				t.Fatalf("seed %d: len %d, reference %d", seed, q.len(), len(ref))
			}
		}
		if _, _, ok := q.pop(); ok {
			t.Fatalf("seed %d: queue not empty after the reference", seed)
		}
	}
}

// TestQueueSameTickFromHeapAndBucket pins the case the ordering argument is
// about: an event scheduled for tick T from far away (overflow heap) and a
// later one for the same T scheduled once T is inside the window (bucket).
func TestQueueSameTickFromHeapAndBucket(t *testing.T) {
	var q queue
	const T = 3 * nBuckets
	q.push(T, &event{aux: 1})    // beyond the window: heap
	q.push(T-10, &event{aux: 2}) // beyond too
	q.push(5, &event{aux: 3})    // bucket
	var got []uint64
	for {
		_, e, ok := q.pop()
		if !ok {
			break
		}
		got = append(got, e.aux)
		if e.aux == 2 {
			q.push(T, &event{aux: 4}) // now inside the window: bucket, after #1
			q.push(T-10, &event{aux: 5})
		}
	}
	if want := []uint64{3, 2, 5, 1, 4}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

// TestHeapOrder checks the typed heap alone against a sort.
func TestHeapOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h farHeap
	var want []refEntry
	for i := range uint64(2000) {
		at := Time(r.IntN(100))
		h.push(farEvent{at: at, seq: i, ev: event{aux: i}})
		want = append(want, refEntry{at, i})
	}
	slices.SortFunc(want, func(a, b refEntry) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return int(a.order) - int(b.order)
	})
	for i, w := range want {
		if e := h.pop(); e.aux != w.order {
			t.Fatalf("pop %d: #%d, want #%d", i, e.aux, w.order)
		}
	}
}

// TestQueueBootsFirst: the boot entries are due at 0 before everything,
// including entries for 0 scheduled before and while they are popped.
func TestQueueBootsFirst(t *testing.T) {
	var q queue
	q.boot(3)
	q.push(0, &event{aux: 10})
	q.push(2, &event{aux: 11})
	if q.len() != 5 {
		t.Fatalf("len %d, want 5", q.len())
	}
	var got []string
	for {
		at, e, ok := q.pop()
		if !ok {
			break
		}
		if e.kind == evStart {
			got = append(got, fmt.Sprintf("%d:boot%d", at, e.to))
			q.push(0, &event{aux: uint64(20 + e.to)})
		} else {
			got = append(got, fmt.Sprintf("%d:#%d", at, e.aux))
		}
	}
	want := []string{"0:boot0", "0:boot1", "0:boot2", "0:#10", "0:#20", "0:#21", "0:#22", "2:#11"}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}
