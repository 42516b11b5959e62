package sim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dsim/core/trace"
)

// The texts the kernel builds from a script's values (a command's
// arguments, a partition's groups) are bounded, as everything a script
// makes the kernel keep: a trace records one per event, and a 16 MiB string
// or a list of a million ids given to every command would fill the memory
// between two looks of the memory guard.
const (
	// maxText is the longest such text, "..." aside.
	maxText = 1 << 10
	// MaxListed is how many elements of a list one shows.
	MaxListed = 64
)

// eventText builds one of those texts from items between separators, cut
// with "..." at maxText bytes.
type eventText struct {
	b     strings.Builder
	items int
	cut   bool
}

// add appends item, after sep unless it is the first, or cuts the text when
// they would take it past maxText; it reports whether the text has room for
// more.
func (t *eventText) add(sep, item string) bool {
	if t.items == 0 {
		sep = ""
	}
	if t.cut {
		return false
	}
	if t.b.Len()+len(sep)+len(item) > maxText {
		t.b.WriteString(sep + "...")
		t.cut = true
		return false
	}
	t.b.WriteString(sep)
	t.b.WriteString(item)
	t.items++
	return true
}

func (t *eventText) String() string { return t.b.String() }

// formatValue renders an observable or argument value the same way on every
// platform (no %v of floats or maps). A long string is quoted in part and a
// long list shows its first MaxListed elements.
func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return trace.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case NodeID:
		return strconv.Itoa(int(x))
	case Time:
		return strconv.FormatInt(int64(x), 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []int:
		return formatList(len(x), func(i int) string { return strconv.Itoa(x[i]) })
	case []NodeID:
		return formatList(len(x), func(i int) string { return strconv.Itoa(int(x[i])) })
	}
	return fmt.Sprintf("%T", v)
}

func formatList(n int, at func(int) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range min(n, MaxListed) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(at(i))
	}
	if n > MaxListed {
		fmt.Fprintf(&b, ",... (%d in all)", n)
	}
	b.WriteByte(']')
	return b.String()
}

// sameValue compares two observable values, slices element by element.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case []int:
		y, ok := b.([]int)
		return ok && slices.Equal(x, y)
	case []NodeID:
		y, ok := b.([]NodeID)
		return ok && slices.Equal(x, y)
	}
	switch b.(type) {
	case []int, []NodeID:
		return false
	}
	return a == b
}

// sameScalar compares two observable values of which v is not a list: the
// usual types one by one, the others with ==. A value set again is often the
// very same interface value (constants and small numbers are boxed once),
// which the words settle first; under js/wasm == is two calls. When old is
// a list and v is not, their dynamic types differ and == is false without
// comparing slices.
func sameScalar(old, v any) bool {
	if sameAny(old, v) {
		return true
	}
	switch x := v.(type) {
	case bool:
		return holds(old, x)
	case int:
		return holds(old, x)
	case NodeID:
		return holds(old, x)
	case string:
		return holds(old, x)
	}
	return old == v
}

// holds reports whether old is a T equal to x.
func holds[T comparable](old any, x T) bool {
	y, ok := old.(T)
	return ok && x == y
}

// listValue reports whether an observable value is a list, and rejects
// values the trace cannot encode faithfully.
func listValue(v any) (bool, error) {
	switch v.(type) {
	case nil, string, bool, int, int64, NodeID, Time, float64:
		return false, nil
	case []int, []NodeID:
		return true, nil
	}
	return false, fmt.Errorf("sim: state value of type %T is not supported", v)
}

// cloneValue copies slices so a node mutating its own slice later does not
// rewrite recorded history.
func cloneValue(v any) any {
	switch x := v.(type) {
	case []int:
		return append([]int(nil), x...)
	case []NodeID:
		return append([]NodeID(nil), x...)
	}
	return v
}
