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
	return appendReflect(b, reflect.ValueOf(v))
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
		return appendReflect(b, v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return append(b, "[]"...)
		}
		fallthrough
	case reflect.Array:
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendReflect(b, v.Index(i))
		}
		return append(b, ']')
	case reflect.Struct:
		b = append(b, '{')
		for i, f := range fieldsOf(v.Type()) {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, f.name)
			b = append(b, ':')
			b = appendReflect(b, v.Field(f.index))
		}
		return append(b, '}')
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
