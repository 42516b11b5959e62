package script

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/sim"
	"dsim/core/trace"
)

// Conversions between Lua values and the Go values of the kernel: message
// fields, state values, command arguments, configuration.

// describe names a Lua value for error messages.
func describe(v lua.LValue) string {
	switch x := v.(type) {
	case *lua.LNilType:
		return "nothing"
	case lua.LString:
		return strconv.Quote(string(x))
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

// toInt reads an integer that a Lua number holds exactly.
func toInt(v lua.LValue) (int64, error) {
	n, ok := v.(lua.LNumber)
	if !ok || float64(n) != math.Trunc(float64(n)) || math.Abs(float64(n)) > maxExact {
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
	if err != nil || n != int64(int(n)) {
		return 0, fmt.Errorf("want a process id (an integer), got %s", describe(v))
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
// from the prototype's values.
func (r *runner) buildMessage(proto sim.Message, fields map[string]lua.LValue) (sim.Message, error) {
	typ := reflect.TypeOf(proto)
	ptr := typ.Kind() == reflect.Pointer
	if ptr {
		typ = typ.Elem()
	}
	v := reflect.New(typ).Elem()
	if pv := reflect.ValueOf(proto); ptr {
		if !pv.IsNil() {
			v.Set(pv.Elem())
		}
	} else {
		v.Set(pv)
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
			return nil, fmt.Errorf("message %s has no field %q (fields: %s)", proto.Kind(), k, r.fieldNames(typ))
		}
		if err := r.setValue(v.Field(f.Index), fields[k]); err != nil {
			return nil, fmt.Errorf("message %s field %q: %v", proto.Kind(), k, err)
		}
	}
	if ptr {
		return v.Addr().Interface().(sim.Message), nil
	}
	return v.Interface().(sim.Message), nil
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
// field's type: integers (ids, times), floats, strings, booleans, lists and
// nested structs of those.
func (r *runner) setValue(dst reflect.Value, v lua.LValue) error {
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
			dst.Set(reflect.MakeSlice(dst.Type(), len(list), len(list)))
		} else if len(list) != dst.Len() {
			return fmt.Errorf("want a list of %d, got %d elements", dst.Len(), len(list))
		}
		for i, x := range list {
			if err := r.setValue(dst.Index(i), x); err != nil {
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
				return fmt.Errorf("no field %q (fields: %s)", k, r.fieldNames(dst.Type()))
			}
			if err := r.setValue(dst.Field(f.Index), t.RawGetString(k)); err != nil {
				return fmt.Errorf("field %q: %v", k, err)
			}
		}
	default:
		return fmt.Errorf("a field of type %s cannot be set from a script", dst.Type())
	}
	return nil
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
