package trace

import (
	"math"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"unicode/utf8"
)

// Raw is a JSON value kept verbatim, as read back from a JSONL trace, so a
// trace read and written again is byte-identical.
type Raw []byte

type field struct {
	index int
	name  string
}

// fieldCache maps a struct type to its exported fields in declaration order.
var fieldCache sync.Map

func fieldsOf(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	var fs []field
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name := sf.Tag.Get("json")
		if name == "-" {
			continue
		}
		if name == "" {
			name = lowerFirst(sf.Name)
		}
		fs = append(fs, field{i, name})
	}
	fieldCache.Store(t, fs)
	return fs
}

// lowerFirst turns a Go field name into its trace name: the leading run of
// capitals is lowered, except the capital that starts the next word (ID ->
// id, IDs -> ids, ReqTS -> reqTS, HTTPServer -> httpServer).
func lowerFirst(s string) string {
	r := []rune(s)
	i := 0
	for i < len(r) && r[i] >= 'A' && r[i] <= 'Z' {
		i++
	}
	if i > 1 && i < len(r) && string(r[i:]) != "s" {
		i--
	}
	for k := 0; k < i; k++ {
		r[k] += 'a' - 'A'
	}
	return string(r)
}

// AppendJSON appends v as JSON: structs as objects in field declaration
// order, maps with sorted keys, floats in the shortest exact form. It is the
// one value encoder used by every trace format, so that the JSONL, text and
// ShiViz forms agree.
func AppendJSON(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case Raw:
		return append(b, x...)
	case string:
		return AppendString(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case bool:
		return strconv.AppendBool(b, x)
	case float64:
		return appendFloat(b, x)
	}
	rv := reflect.ValueOf(v)
	return encoderOf(rv.Type())(b, rv)
}

// encoder appends a value of one type as JSON. Messages are encoded on
// every traced event, so each type gets its encoder made once: field names
// quoted in advance, and no kind switch per value.
type encoder func(b []byte, v reflect.Value) []byte

var encoders sync.Map // reflect.Type -> encoder

func encoderOf(t reflect.Type) encoder {
	if e, ok := encoders.Load(t); ok {
		return e.(encoder)
	}
	e := newEncoder(t, map[reflect.Type]bool{})
	encoders.Store(t, e)
	return e
}

// newEncoder makes t's encoder. Types being made are in building: a type
// that contains itself finds its encoder when it runs instead.
func newEncoder(t reflect.Type, building map[reflect.Type]bool) encoder {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(b []byte, v reflect.Value) []byte { return strconv.AppendInt(b, v.Int(), 10) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(b []byte, v reflect.Value) []byte { return strconv.AppendUint(b, v.Uint(), 10) }
	case reflect.Float32, reflect.Float64:
		return func(b []byte, v reflect.Value) []byte { return appendFloat(b, v.Float()) }
	case reflect.Bool:
		return func(b []byte, v reflect.Value) []byte { return strconv.AppendBool(b, v.Bool()) }
	case reflect.String:
		return func(b []byte, v reflect.Value) []byte { return AppendString(b, v.String()) }
	case reflect.Slice, reflect.Array:
		elem := partEncoder(t.Elem(), building)
		nilEmpty := t.Kind() == reflect.Slice
		return func(b []byte, v reflect.Value) []byte {
			if nilEmpty && v.IsNil() {
				return append(b, "[]"...)
			}
			b = append(b, '[')
			for i := range v.Len() {
				if i > 0 {
					b = append(b, ',')
				}
				b = elem(b, v.Index(i))
			}
			return append(b, ']')
		}
	case reflect.Struct:
		building[t] = true
		type part struct {
			index int
			key   []byte // `"name":`, after a comma but for the first field
			enc   encoder
		}
		var parts []part
		for i, f := range fieldsOf(t) {
			var key []byte
			if i > 0 {
				key = append(key, ',')
			}
			key = append(AppendString(key, f.name), ':')
			parts = append(parts, part{f.index, key, partEncoder(t.Field(f.index).Type, building)})
		}
		delete(building, t)
		return func(b []byte, v reflect.Value) []byte {
			b = append(b, '{')
			for _, p := range parts {
				b = append(b, p.key...)
				b = p.enc(b, v.Field(p.index))
			}
			return append(b, '}')
		}
	}
	return appendReflect
}

// partEncoder is the encoder of a field or element type: made now, or
// looked up when it runs if the type is being made (it contains itself).
func partEncoder(t reflect.Type, building map[reflect.Type]bool) encoder {
	if building[t] {
		return func(b []byte, v reflect.Value) []byte { return encoderOf(t)(b, v) }
	}
	if e, ok := encoders.Load(t); ok {
		return e.(encoder)
	}
	return newEncoder(t, building)
}

func appendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

func appendReflect(b []byte, v reflect.Value) []byte {
	switch v.Kind() {
	case reflect.Invalid:
		return append(b, "null"...)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return appendFloat(b, v.Float())
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.String:
		return AppendString(b, v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, "null"...)
		}
		e := v.Elem()
		return encoderOf(e.Type())(b, e)
	case reflect.Slice, reflect.Array, reflect.Struct:
		return encoderOf(v.Type())(b, v)
	case reflect.Map:
		keys := v.MapKeys()
		names := make([]string, len(keys))
		for i, k := range keys {
			names[i] = keyString(k)
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(a, c int) bool { return names[order[a]] < names[order[c]] })
		b = append(b, '{')
		for i, k := range order {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, names[k])
			b = append(b, ':')
			b = appendReflect(b, v.MapIndex(keys[k]))
		}
		return append(b, '}')
	}
	return AppendString(b, v.Type().String())
}

func keyString(k reflect.Value) string {
	switch k.Kind() {
	case reflect.String:
		return k.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(k.Uint(), 10)
	}
	return k.Type().String()
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD so
// every line of a trace is valid JSON whatever a script logged.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\ufffd"...)
		} else if r == '\u2028' || r == '\u2029' {
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
