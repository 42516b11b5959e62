package script

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/sim"
	"dsim/core/trace"
)

// Conversions between Lua values and the Go values of the kernel: message
// fields, state values, command arguments, configuration.

// describe names a Lua value for error messages: a string quoted, at most
// trace.MaxQuoted bytes of it (an error names the value, not a megabyte of
// it).
func describe(v lua.LValue) string {
	switch x := v.(type) {
	case *lua.LNilType:
		return "nothing"
	case lua.LString:
		return trace.Quote(string(x))
	case lua.LNumber, lua.LBool:
		return x.String()
	}
	return "a " + v.Type().String()
}

// each calls fn for every entry of t in the order pairs() visits them:
// the array part, then the other keys in insertion order. (LTable.ForEach
// ranges over Go maps, whose order changes from run to run.)
func each(t *lua.LTable, fn func(k, v lua.LValue)) {
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		fn(k, v)
	}
}

// maxExact is the largest integer a Lua number holds exactly.
const maxExact = 1 << 53

// toInt reads an integer that a Lua number holds exactly: the API's ids,
// times and counts are whole numbers, and a fraction or a number beyond
// 2^53 is a mistake to name rather than to truncate.
func toInt(v lua.LValue) (int64, error) {
	n, ok := v.(lua.LNumber)
	switch {
	case ok && float64(n) == math.Trunc(float64(n)) && math.Abs(float64(n)) > maxExact:
		return 0, fmt.Errorf("want an integer within ±2^53, got %s", describe(v))
	case !ok || float64(n) != math.Trunc(float64(n)):
		return 0, fmt.Errorf("want an integer, got %s", describe(v))
	}
	return int64(n), nil
}

func toNonNegative(v lua.LValue) (int64, error) {
	n, err := toInt(v)
	if err == nil && n < 0 {
		err = fmt.Errorf("want a non-negative integer, got %d", n)
	}
	return n, err
}

func toNumber(v lua.LValue) (float64, error) {
	n, ok := v.(lua.LNumber)
	if !ok || math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return 0, fmt.Errorf("want a number, got %s", describe(v))
	}
	return float64(n), nil
}

func toBool(v lua.LValue) (bool, error) {
	b, ok := v.(lua.LBool)
	if !ok {
		return false, fmt.Errorf("want true or false, got %s", describe(v))
	}
	return bool(b), nil
}

func toString(v lua.LValue) (string, error) {
	s, ok := v.(lua.LString)
	if !ok {
		return "", fmt.Errorf("want a string, got %s", describe(v))
	}
	return string(s), nil
}

func toID(v lua.LValue) (sim.NodeID, error) {
	n, err := toInt(v)
	if err != nil {
		return 0, fmt.Errorf("want a process id (an integer), got %s", describe(v))
	}
	if n < int64(sim.MinID) || n > int64(sim.MaxID) {
		return 0, fmt.Errorf("process id %d is outside [%d, %d]", n, sim.MinID, sim.MaxID)
	}
	return sim.NodeID(n), nil
}

// toList reads a Lua array (a table with keys 1..n only).
func toList(v lua.LValue) ([]lua.LValue, error) {
	t, ok := v.(*lua.LTable)
	if !ok {
		return nil, fmt.Errorf("want a list, got %s", describe(v))
	}
	n := t.Len()
	count := 0
	each(t, func(lua.LValue, lua.LValue) { count++ })
	if count != n {
		return nil, fmt.Errorf("want a list (keys 1..n only), got a table with other keys")
	}
	out := make([]lua.LValue, n)
	for i := range out {
		out[i] = t.RawGetInt(i + 1)
	}
	return out, nil
}

func toIDs(v lua.LValue) ([]sim.NodeID, error) {
	list, err := toList(v)
	if err != nil {
		return nil, err
	}
	ids := make([]sim.NodeID, len(list))
	for i, x := range list {
		if ids[i], err = toID(x); err != nil {
			return nil, fmt.Errorf("element %d: %v", i+1, err)
		}
	}
	return ids, nil
}

// fields reads a table of named settings. Keys come back sorted so that the
// first unknown key reported is the same every run.
func fields(v lua.LValue) ([]string, *lua.LTable, error) {
	t, ok := v.(*lua.LTable)
	if !ok {
		return nil, nil, fmt.Errorf("want a table of named settings, got %s", describe(v))
	}
	var keys []string
	var bad lua.LValue
	each(t, func(k, _ lua.LValue) {
		if s, ok := k.(lua.LString); ok {
			keys = append(keys, string(s))
		} else if bad == nil {
			bad = k
		}
	})
	if bad != nil {
		return nil, nil, fmt.Errorf("settings must be named (key=value), got the key %s", describe(bad))
	}
	sort.Strings(keys)
	return keys, t, nil
}

// plainValue converts a Lua value to a configuration or command argument
// value: integers become int, other numbers float64, lists of integers []int.
func plainValue(v lua.LValue) (any, error) {
	switch x := v.(type) {
	case lua.LBool:
		return bool(x), nil
	case lua.LString:
		return string(x), nil
	case lua.LNumber:
		if n, err := toInt(x); err == nil {
			return int(n), nil
		}
		return toNumber(x)
	case *lua.LTable:
		list, err := toList(x)
		if err != nil {
			return nil, err
		}
		out := make([]int, len(list))
		for i, e := range list {
			n, err := toInt(e)
			if err != nil {
				return nil, fmt.Errorf("element %d: %v", i+1, err)
			}
			out[i] = int(n)
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a number, string, boolean or list of integers, got %s", describe(v))
}

// fieldsOf caches trace.Fields per type for the run.
func (r *runner) fieldsOf(t reflect.Type) []trace.Field {
	if fs, ok := r.fieldCache[t]; ok {
		return fs
	}
	fs := trace.Fields(t)
	r.fieldCache[t] = fs
	return fs
}

// toLua converts a kernel value (message, state value, argument) to Lua:
// structs become views keyed by their trace names, slices become lists.
func (r *runner) toLua(v any) lua.LValue {
	switch x := v.(type) {
	case nil:
		return lua.LNil
	case string:
		return lua.LString(x)
	case int:
		return lua.LNumber(x)
	case sim.NodeID:
		return lua.LNumber(x)
	case bool:
		return lua.LBool(x)
	}
	return r.reflectToLua(reflect.ValueOf(v))
}

func (r *runner) reflectToLua(v reflect.Value) lua.LValue {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return lua.LNumber(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return lua.LNumber(v.Uint())
	case reflect.Float32, reflect.Float64:
		return lua.LNumber(v.Float())
	case reflect.Bool:
		return lua.LBool(v.Bool())
	case reflect.String:
		return lua.LString(v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return lua.LNil
		}
		return r.reflectToLua(v.Elem())
	case reflect.Slice, reflect.Array:
		t := r.L.CreateTable(v.Len(), 0)
		for i := range v.Len() {
			t.RawSetInt(i+1, r.reflectToLua(v.Index(i)))
		}
		return t
	case reflect.Struct:
		return r.newView(&structView{v})
	case reflect.Map:
		keys := v.MapKeys()
		names := make([]string, len(keys))
		for i, k := range keys {
			names[i] = fmt.Sprint(k.Interface())
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(a, b int) bool { return names[order[a]] < names[order[b]] })
		t := r.L.CreateTable(0, len(keys))
		for _, i := range order {
			t.RawSetString(names[i], r.reflectToLua(v.MapIndex(keys[i])))
		}
		return t
	case reflect.Invalid:
		return lua.LNil
	}
	return lua.LString(v.Type().String())
}

// buildMessage makes a message of proto's type from named fields, starting
// from a copy of the prototype's values. The message is complete: a map or
// pointer that neither the prototype nor the script gives is an empty map or
// a zero value, never nil (see complete).
func (r *runner) buildMessage(proto sim.Message, fields map[string]lua.LValue) (sim.Message, error) {
	typ := reflect.TypeOf(proto)
	ptr := typ.Kind() == reflect.Pointer
	if ptr {
		typ = typ.Elem()
	}
	v := reflect.New(typ).Elem()
	if pv := reflect.ValueOf(proto); ptr {
		if !pv.IsNil() {
			v.Set(copyValue(pv.Elem(), 0))
		}
	} else {
		v.Set(copyValue(pv, 0))
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if typ.Kind() != reflect.Struct {
			return nil, fmt.Errorf("message %s has no fields", proto.Kind())
		}
		f, ok := r.field(typ, k)
		if !ok {
			return nil, fmt.Errorf("message %s has no field %s (fields: %s)", proto.Kind(), trace.Quote(k), r.fieldNames(typ))
		}
		if err := r.setValue(v.Field(f.Index), fields[k]); err != nil {
			return nil, fmt.Errorf("message %s field %s: %v", proto.Kind(), trace.Quote(k), err)
		}
	}
	complete(v, nil)
	if ptr {
		return v.Addr().Interface().(sim.Message), nil
	}
	return v.Interface().(sim.Message), nil
}

// maxDepth bounds how deep the conversions below go into a value: message
// types are shallow, and a type that refers to itself (through a pointer,
// a slice or a map) or a Lua table that contains itself must not make them
// endless.
const maxDepth = 32

// copyValue returns a deep copy of v: maps, slices and pointers reached
// through exported fields are copied rather than shared, so that building a
// message never writes into the algorithm's prototype.
func copyValue(v reflect.Value, depth int) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	out.Set(v)
	if depth >= maxDepth {
		return out
	}
	switch v.Kind() {
	case reflect.Map:
		if v.IsNil() {
			return out
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), copyValue(it.Value(), depth+1))
		}
		out.Set(m)
	case reflect.Slice:
		if v.IsNil() {
			return out
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			s.Index(i).Set(copyValue(v.Index(i), depth+1))
		}
		out.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			out.Index(i).Set(copyValue(v.Index(i), depth+1))
		}
	case reflect.Pointer:
		if v.IsNil() {
			return out
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(copyValue(v.Elem(), depth+1))
		out.Set(p)
	case reflect.Struct:
		for i := range v.NumField() {
			if f := out.Field(i); f.CanSet() {
				f.Set(copyValue(v.Field(i), depth+1))
			}
		}
	}
	return out
}

// complete gives every nil map and nil pointer in v (settable, and the
// message's own: see copyValue) an empty map or a pointer to a zero value,
// through exported fields, list elements and map values, so that an
// algorithm finds in a hand-made message what it finds in one it sent
// itself: maps it may read and copy to write into, pointers it may follow.
// path holds the struct types being filled in: a nil pointer to one of them
// (a type that refers to itself) stays nil, or the fill would not end.
func complete(v reflect.Value, path []reflect.Type) {
	if len(path) >= maxDepth {
		return
	}
	switch v.Kind() {
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
			return
		}
		if !mayHoldNil(v.Type().Elem(), 0) {
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			complete(e, path)
			v.SetMapIndex(k, e)
		}
	case reflect.Pointer:
		elem := v.Type().Elem()
		if v.IsNil() {
			if slices.Contains(path, elem) {
				return
			}
			v.Set(reflect.New(elem))
		}
		complete(v.Elem(), path)
	case reflect.Struct:
		path = append(path[:len(path):len(path)], v.Type())
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				complete(f, path)
			}
		}
	case reflect.Slice, reflect.Array:
		if !mayHoldNil(v.Type().Elem(), 0) {
			return
		}
		for i := range v.Len() {
			complete(v.Index(i), path)
		}
	}
}

// mayHoldNil reports whether a value of type t can hold a map or a pointer,
// which complete would fill in.
func mayHoldNil(t reflect.Type, depth int) bool {
	if depth >= maxDepth {
		return false
	}
	switch t.Kind() {
	case reflect.Map, reflect.Pointer:
		return true
	case reflect.Slice, reflect.Array:
		return mayHoldNil(t.Elem(), depth+1)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && mayHoldNil(f.Type, depth+1) {
				return true
			}
		}
	}
	return false
}

func (r *runner) field(t reflect.Type, name string) (trace.Field, bool) {
	for _, f := range r.fieldsOf(t) {
		if f.Name == name {
			return f, true
		}
	}
	return trace.Field{}, false
}

func (r *runner) fieldNames(t reflect.Type) string {
	if t.Kind() != reflect.Struct {
		return "none"
	}
	var names []string
	for _, f := range r.fieldsOf(t) {
		names = append(names, f.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// setValue stores a Lua value into a message field, converting to the
// field's type: integers (ids, times), floats, strings, booleans, lists,
// tables {[key]=value, ...} for maps, and nested structs and pointers of
// those.
func (r *runner) setValue(dst reflect.Value, v lua.LValue) error { return r.set(dst, v, 0) }

func (r *runner) set(dst reflect.Value, v lua.LValue, depth int) error {
	if depth >= maxDepth {
		return fmt.Errorf("nested more than %d levels deep", maxDepth)
	}
	switch dst.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := toInt(v)
		if err != nil {
			return err
		}
		if dst.OverflowInt(n) {
			return fmt.Errorf("%d does not fit a %s", n, dst.Type())
		}
		dst.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := toNonNegative(v)
		if err != nil {
			return err
		}
		if dst.OverflowUint(uint64(n)) {
			return fmt.Errorf("%d does not fit a %s", n, dst.Type())
		}
		dst.SetUint(uint64(n))
	case reflect.Float32, reflect.Float64:
		x, err := toNumber(v)
		if err != nil {
			return err
		}
		dst.SetFloat(x)
	case reflect.String:
		s, err := toString(v)
		if err != nil {
			return err
		}
		dst.SetString(s)
	case reflect.Bool:
		b, err := toBool(v)
		if err != nil {
			return err
		}
		dst.SetBool(b)
	case reflect.Slice, reflect.Array:
		list, err := toList(v)
		if err != nil {
			return err
		}
		if dst.Kind() == reflect.Slice {
			r.converted(len(list), elementCost, dst.Type().Elem())
			dst.Set(reflect.MakeSlice(dst.Type(), len(list), len(list)))
		} else if len(list) != dst.Len() {
			return fmt.Errorf("want a list of %d, got %d elements", dst.Len(), len(list))
		}
		for i, x := range list {
			if err := r.set(dst.Index(i), x, depth+1); err != nil {
				return fmt.Errorf("element %d: %v", i+1, err)
			}
		}
	case reflect.Struct:
		keys, t, err := fields(v)
		if err != nil {
			return err
		}
		for _, k := range keys {
			f, ok := r.field(dst.Type(), k)
			if !ok {
				return fmt.Errorf("no field %s (fields: %s)", trace.Quote(k), r.fieldNames(dst.Type()))
			}
			if err := r.set(dst.Field(f.Index), t.RawGetString(k), depth+1); err != nil {
				return fmt.Errorf("field %s: %v", trace.Quote(k), err)
			}
		}
	case reflect.Map:
		return r.setMap(dst, v, depth)
	case reflect.Pointer:
		// A new value, starting from the old one's copy: the old pointer
		// may be shared with the prototype.
		p := reflect.New(dst.Type().Elem())
		if !dst.IsNil() {
			p.Elem().Set(copyValue(dst.Elem(), depth+1))
		}
		if err := r.set(p.Elem(), v, depth+1); err != nil {
			return err
		}
		dst.Set(p)
	default:
		return fmt.Errorf("a field of type %s cannot be set from a script", dst.Type())
	}
	return nil
}

// setMap stores a Lua table {[key]=value, ...} into a map field as a new
// map. Integer keys may also be given as strings holding an integer, as a
// map read from an event (ev.msg) has them, so that a message read from a
// trace can be injected again.
func (r *runner) setMap(dst reflect.Value, v lua.LValue, depth int) error {
	t, ok := v.(*lua.LTable)
	if !ok {
		return fmt.Errorf("want a table {[key]=value, ...}, got %s", describe(v))
	}
	kt, et := dst.Type().Key(), dst.Type().Elem()
	m := reflect.MakeMapWithSize(dst.Type(), t.Len())
	// One key and one element, zeroed for each entry: the map copies them.
	k, e := reflect.New(kt).Elem(), reflect.New(et).Elem()
	var err error
	each(t, func(lk, lv lua.LValue) {
		if err != nil {
			return
		}
		key := lk
		if s, isStr := lk.(lua.LString); isStr && isIntKind(kt.Kind()) {
			if n, perr := strconv.ParseInt(string(s), 10, 64); perr == nil {
				key = lua.LNumber(n)
			}
		}
		k.SetZero()
		if kerr := r.set(k, key, depth+1); kerr != nil {
			err = fmt.Errorf("key %s: %v", describe(lk), kerr)
			return
		}
		e.SetZero()
		if eerr := r.set(e, lv, depth+1); eerr != nil {
			err = fmt.Errorf("element [%s]: %v", describe(lk), eerr)
			return
		}
		// A key met before (1 and "1") replaces its entry: the map does
		// not grow.
		n := m.Len()
		if m.SetMapIndex(k, e); m.Len() == n {
			err = fmt.Errorf("key %s is given twice", describe(lk))
		}
	})
	if err != nil {
		return err
	}
	r.converted(m.Len(), entryCost, kt, et)
	dst.Set(m)
	return nil
}

// What converting a script's values to Go costs, in instructions (see
// budget.go for the others): an element of a list made a Go value about 4
// Lua instructions' time, an entry of a map 20 (reflection, and the map
// growing).
const (
	elementCost = 4
	entryCost   = 20
)

// converted counts n elements of the given types built from a script's
// values for a message: their cost in instructions, and their bytes as
// allocated, so that the memory guard looks as often as it does when a
// script builds strings. A message is one pending event whatever its lists
// and maps hold, and a loop injecting megabytes each would outrun a guard
// paced by events alone.
func (r *runner) converted(n int, cost int64, types ...reflect.Type) {
	size := 0
	for _, t := range types {
		size += int(t.Size())
	}
	if r.budget.charge(cost*int64(n), "converting tables"); r.fatal != nil {
		r.raiseFatal()
	}
	r.budget.Alloc(r.L, n*size)
}

func isIntKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// typeName documents a message field's type in the reference.
func typeName(t reflect.Type) string {
	if t == reflect.TypeOf(sim.NodeID(0)) {
		return "id"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "list of " + typeName(t.Elem())
	case reflect.Pointer:
		return typeName(t.Elem())
	case reflect.Struct:
		return "table"
	}
	return t.String()
}
