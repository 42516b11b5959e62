package sim

import "unsafe"

// stateStore holds the processes' observable state: one column per key,
// each holding every process's value, rather than a list of entries per
// process. A million processes keeping three keys cost 52 MB this way
// instead of 152 MB, which also spares the collector the difference.
//
// A process lists its keys in the order it first set them. That order is
// kept as a shape: a node of a tree of key sequences, shared by every
// process that set the same keys in the same order, so a process costs four
// bytes for it.
//
// Scenarios may also use many keys, each set by few processes: a column
// keeps its values in a map until enough processes have the key, keys are
// found through a map once there are many, and shapes hold one key each.
type stateStore struct {
	keys   []string         // every key set in the run, by first use
	index  map[string]int32 // keys by name, once there are more than fewKeys
	cols   []column         // cols[k] holds the values of keys[k]
	of     []int32          // per process: its shape, an index into shapes
	shapes []shape          // shapes[0] is the empty one
}

// fewKeys is how many keys are searched one by one before a map is built:
// algorithms keep a handful, and the scan compares pointers first.
const fewKeys = 16

// shape is a process's keys in the order it set them: those of the parent
// shape, then key.
type shape struct {
	parent, key, depth int32
	// mask has bit k set for each key k < 64 of the shape, so that asking
	// whether a process has such a key takes one look.
	mask    uint64
	next    []shapeStep // the shapes one more key leads to
	nextMap map[int32]int32
}

type shapeStep struct{ key, to int32 }

// fewSteps is how many shapes one can lead to before they are found
// through a map.
const fewSteps = 8

// column is one key's values: in a map by process while few processes
// have one (a key of a single process must not cost a page per key), then
// in pages of statePage processes, allocated when a value is first stored
// there. A process without the key, or whose value is nil, has none.
type column struct {
	sparse map[int32]any
	pages  [][]any
}

const (
	statePage  = 1024 // processes per page of a dense column
	denseAfter = 256  // values a column holds in its map before it turns to pages
)

func newStateStore(n int) stateStore {
	return stateStore{of: make([]int32, n), shapes: []shape{{parent: -1, key: -1}}}
}

// constKey finds key name among the first keys by its pointer and length
// alone, and returns -1 when that does not settle it. Keys are nearly
// always string constants of the algorithm, the same pointer at every Set:
// this part is small enough to be inlined into Set.
func (st *stateStore) constKey(name string) int32 {
	for k, s := range st.keys[:min(len(st.keys), fewKeys)] {
		if unsafe.StringData(s) == unsafe.StringData(name) && len(s) == len(name) {
			return int32(k)
		}
	}
	return -1
}

// key returns the index of key name, adding it if add is set (else -1 when
// it is unknown).
func (st *stateStore) key(name string, add bool) int32 {
	if st.index != nil {
		if k, ok := st.index[name]; ok {
			return k
		}
	} else {
		for k, s := range st.keys {
			if len(s) == len(name) && (unsafe.StringData(s) == unsafe.StringData(name) || s == name) {
				return int32(k)
			}
		}
	}
	if !add {
		return -1
	}
	k := int32(len(st.keys))
	st.keys = append(st.keys, name)
	st.cols = append(st.cols, column{})
	if st.index != nil || len(st.keys) > fewKeys {
		if st.index == nil {
			st.index = make(map[string]int32, 2*len(st.keys))
			for j, s := range st.keys {
				st.index[s] = int32(j)
			}
		}
		st.index[name] = k
	}
	return k
}

// has reports whether process i has key k.
func (st *stateStore) has(i, k int32) bool {
	if k < 64 {
		return st.shapes[st.of[i]].mask&(1<<k) != 0
	}
	for s := st.of[i]; s != 0; s = st.shapes[s].parent {
		if st.shapes[s].key == k {
			return true
		}
	}
	return false
}

func (st *stateStore) get(i, k int32) any {
	c := &st.cols[k]
	if c.pages == nil {
		return c.sparse[i]
	}
	if p := c.pages[i/statePage]; p != nil {
		return p[i%statePage]
	}
	return nil
}

// cell returns where process i's value of key k is kept when that is a
// page that exists, else nil: a Set of a key that most processes have
// then reads and writes the value in one place.
func (st *stateStore) cell(i, k int32) *any {
	if c := &st.cols[k]; c.pages != nil {
		if p := c.pages[i/statePage]; p != nil {
			return &p[i%statePage]
		}
	}
	return nil
}

// put stores process i's value of key k.
func (st *stateStore) put(i, k int32, v any) {
	if c := st.cell(i, k); c != nil {
		*c = v
		return
	}
	st.place(i, k, v)
}

func (st *stateStore) place(i, k int32, v any) {
	c := &st.cols[k]
	if c.pages == nil {
		if v == nil {
			delete(c.sparse, i)
			return
		}
		if _, ok := c.sparse[i]; ok || len(c.sparse) < denseAfter {
			if c.sparse == nil {
				c.sparse = map[int32]any{}
			}
			c.sparse[i] = v
			return
		}
		c.pages = make([][]any, (len(st.of)+statePage-1)/statePage)
		for j, x := range c.sparse {
			st.store(c, j, x)
		}
		c.sparse = nil
	}
	st.store(c, i, v)
}

func (st *stateStore) store(c *column, i int32, v any) {
	p := c.pages[i/statePage]
	if p == nil {
		if v == nil {
			return
		}
		p = make([]any, statePage)
		c.pages[i/statePage] = p
	}
	p[i%statePage] = v
}

// add gives process i key k, last in its order.
func (st *stateStore) add(i, k int32) {
	from := st.of[i]
	sh := &st.shapes[from]
	if sh.nextMap != nil {
		if to, ok := sh.nextMap[k]; ok {
			st.of[i] = to
			return
		}
	} else {
		for _, step := range sh.next {
			if step.key == k {
				st.of[i] = step.to
				return
			}
		}
	}
	to := int32(len(st.shapes))
	if sh.nextMap == nil && len(sh.next) < fewSteps {
		sh.next = append(sh.next, shapeStep{key: k, to: to})
	} else {
		if sh.nextMap == nil {
			sh.nextMap = make(map[int32]int32, 2*len(sh.next))
			for _, step := range sh.next {
				sh.nextMap[step.key] = step.to
			}
			sh.next = nil
		}
		sh.nextMap[k] = to
	}
	mask := sh.mask
	if k < 64 {
		mask |= 1 << k
	}
	st.shapes = append(st.shapes, shape{parent: from, key: k, depth: sh.depth + 1, mask: mask})
	st.of[i] = to
}

// list returns process i's state in the order it set its keys.
func (st *stateStore) list(i int32) []KV {
	s := st.of[i]
	if s == 0 {
		return nil
	}
	out := make([]KV, st.shapes[s].depth)
	for j := len(out) - 1; j >= 0; j-- {
		k := st.shapes[s].key
		out[j] = KV{Key: st.keys[k], Value: st.get(i, k)}
		s = st.shapes[s].parent
	}
	return out
}

// forget drops process i's state.
func (st *stateStore) forget(i int32) {
	for s := st.of[i]; s != 0; s = st.shapes[s].parent {
		st.put(i, st.shapes[s].key, nil)
	}
	st.of[i] = 0
}
