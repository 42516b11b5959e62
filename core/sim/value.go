package sim

import (
	"fmt"
	"slices"

	"dsim/core/proc"
)

// formatValue is the contract's rendering of values.
func formatValue(v any) string { return proc.FormatValue(v) }

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

// charge counts the values of a state list against the work limit, and
// stops the run once it is passed (see WorkPerEvent).
func (s *Sim) charge(list any) {
	switch x := list.(type) {
	case []int:
		s.work += uint64(len(x))
	case []NodeID:
		s.work += uint64(len(x))
	}
	if s.cfg.MaxEvents > 0 && s.work > WorkPerEvent*s.cfg.MaxEvents {
		s.overworked, s.stop = true, true
	}
}
