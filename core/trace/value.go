package trace

import (
	"encoding/binary"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
		// Options after the name (omitempty, string) are ignored: the
		// trace always shows every field, as the value it has.
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
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
		return appendInt(b, int64(x))
	case int64:
		return appendInt(b, x)
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

// lastEncoder is the encoder found last: a run sends mostly one kind of
// message, and the map lookup costs a hash of the type each time.
var lastEncoder atomic.Pointer[typeEncoder]

type typeEncoder struct {
	t   reflect.Type
	enc encoder
}

func encoderOf(t reflect.Type) encoder {
	if last := lastEncoder.Load(); last != nil && last.t == t {
		return last.enc
	}
	var enc encoder
	if e, ok := encoders.Load(t); ok {
		enc = e.(encoder)
	} else {
		enc = newEncoder(t, map[reflect.Type]bool{})
		encoders.Store(t, enc)
	}
	lastEncoder.Store(&typeEncoder{t, enc})
	return enc
}

// newEncoder makes t's encoder. Types being made are in building: a type
// that contains itself finds its encoder when it runs instead.
func newEncoder(t reflect.Type, building map[reflect.Type]bool) encoder {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(b []byte, v reflect.Value) []byte { return appendInt(b, v.Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(b []byte, v reflect.Value) []byte { return appendUint(b, v.Uint()) }
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
		return appendInt(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return appendUint(b, v.Uint())
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

// appendInt and appendUint append a number in decimal, as strconv does, but
// write the digits in place: a trace line has eight numbers or so, and
// strconv formats each aside and copies it.
func appendInt(b []byte, n int64) []byte {
	if n < 0 {
		return appendDigits(append(b, '-'), uint64(-n))
	}
	return appendDigits(b, uint64(n))
}

func appendUint(b []byte, n uint64) []byte { return appendDigits(b, n) }

func appendDigits(b []byte, n uint64) []byte {
	if n < 10 {
		return append(b, byte('0'+n))
	}
	d := 8 // digits of n%1e8 to write: all of them after a higher part
	if n >= 1e8 {
		b = appendDigits(b, n/1e8)
		n %= 1e8
	} else {
		// The number of digits, from the bit length (1233/4096 ~ log10 2).
		d = bits.Len64(n) * 1233 >> 12
		if n >= pow10[d] {
			d++
		}
	}
	l := len(b)
	if cap(b)-l < 8 {
		b = slices.Grow(b, 8)
	}
	b = b[:l+8]
	binary.BigEndian.PutUint64(b[l:], eightDigits(uint32(n))<<(8*(8-d)))
	return b[:l+d]
}

// eightDigits is n < 1e8 in eight ASCII digits, the first in the high
// byte. All eight are made and written as one word whatever the length of
// n, the leading zeros shifted out: a loop that stops at the first digit
// costs a mispredicted branch per number, and numbers of every length
// alternate in a trace line.
func eightDigits(n uint32) uint64 {
	hi, lo := n/10000, n%10000
	return uint64(digitPairs[hi/100])<<48 | uint64(digitPairs[hi%100])<<32 |
		uint64(digitPairs[lo/100])<<16 | uint64(digitPairs[lo%100])
}

// digitPairs[i] is i in two ASCII digits, the tens in the high byte.
var digitPairs = func() (p [100]uint16) {
	for i := range p {
		p[i] = uint16('0'+i/10)<<8 | uint16('0'+i%10)
	}
	return p
}()

// pow10[d] is 10^d, the least number with d+1 digits.
var pow10 = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// plainString reports whether s is printable ASCII without quotes or
// backslashes: JSON takes it as is. Kinds, keys and tags always are.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD so
// every line of a trace is valid JSON whatever a script logged.
func AppendString(b []byte, s string) []byte {
	if plainString(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
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
