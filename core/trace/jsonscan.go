package trace

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A hand-written reader for the JSON of a trace line, rather than
// encoding/json: the playground reads traces in WebAssembly, where
// encoding/json would add some 100 kB to the download, and a trace line is
// one flat object whose few field types are known.

// scanner reads JSON from b.
type scanner struct {
	b []byte
	i int
}

// maxDepth bounds the nesting of a value: a hand-made trace of a million
// brackets is refused, not recursed into.
const maxDepth = 1000

var errEnd = errors.New("unexpected end of input")

func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *scanner) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: "+format, append([]any{s.i}, args...)...)
}

// next skips white space and returns the next byte without taking it.
func (s *scanner) next() (byte, error) {
	s.space()
	if s.i >= len(s.b) {
		return 0, errEnd
	}
	return s.b[s.i], nil
}

// take skips white space and takes byte c.
func (s *scanner) take(c byte) error {
	if got, err := s.next(); err != nil {
		return err
	} else if got != c {
		return s.errorf("want %q, got %q", c, got)
	}
	s.i++
	return nil
}

// object calls field with each key of an object, which must read the
// value.
func (s *scanner) object(field func(key string) error) error {
	if err := s.take('{'); err != nil {
		return err
	}
	if c, err := s.next(); err != nil {
		return err
	} else if c == '}' {
		s.i++
		return nil
	}
	for {
		key, err := s.str()
		if err != nil {
			return err
		}
		if err := s.take(':'); err != nil {
			return err
		}
		if err := field(key); err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
		c, err := s.next()
		if err != nil {
			return err
		}
		s.i++
		switch c {
		case '}':
			return nil
		case ',':
		default:
			s.i--
			return s.errorf("want ',' or '}', got %q", c)
		}
	}
}

// null takes a null if one is next.
func (s *scanner) null() bool {
	if c, err := s.next(); err == nil && c == 'n' && s.literal("null") == nil {
		return true
	}
	return false
}

func (s *scanner) literal(word string) error {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return s.errorf("want %s", word)
	}
	s.i += len(word)
	return nil
}

// str reads a string, escapes decoded.
func (s *scanner) str() (string, error) {
	if err := s.take('"'); err != nil {
		return "", err
	}
	var out []byte
	for start := s.i; ; {
		if s.i >= len(s.b) {
			return "", errEnd
		}
		c := s.b[s.i]
		switch {
		case c == '"':
			out = append(out, s.b[start:s.i]...)
			s.i++
			return string(out), nil
		case c < 0x20:
			return "", s.errorf("control character in a string")
		case c == '\\':
			out = append(out, s.b[start:s.i]...)
			r, err := s.escape()
			if err != nil {
				return "", err
			}
			out = utf8.AppendRune(out, r)
			start = s.i
		default:
			s.i++
		}
	}
}

// escape reads the escape sequence at s.i, a \u pair of surrogates as one.
func (s *scanner) escape() (rune, error) {
	if s.i+1 >= len(s.b) {
		return 0, errEnd
	}
	c := s.b[s.i+1]
	s.i += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r, err := s.hex4()
		if err != nil {
			return 0, err
		}
		if utf16.IsSurrogate(r) && s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
			save := s.i
			s.i += 2
			if r2, err := s.hex4(); err == nil && utf16.DecodeRune(r, r2) != utf8.RuneError {
				return utf16.DecodeRune(r, r2), nil
			}
			s.i = save
		}
		if utf16.IsSurrogate(r) {
			return utf8.RuneError, nil // as encoding/json reads a lone surrogate
		}
		return r, nil
	}
	return 0, s.errorf("bad escape \\%c", c)
}

func (s *scanner) hex4() (rune, error) {
	if s.i+4 > len(s.b) {
		return 0, errEnd
	}
	n, err := strconv.ParseUint(string(s.b[s.i:s.i+4]), 16, 16)
	if err != nil {
		return 0, s.errorf("bad \\u escape")
	}
	s.i += 4
	return rune(n), nil
}

// number reads a JSON number's text.
func (s *scanner) number() (string, error) {
	s.space()
	start := s.i
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.b) && s.b[s.i] == '0' {
		s.i++
	} else if digits() == 0 {
		s.i = start
		return "", s.errorf("want a value")
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return "", s.errorf("want digits after '.'")
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return "", s.errorf("want digits in the exponent")
		}
	}
	return string(s.b[start:s.i]), nil
}

// integer reads a number into an integer of bits bits (unsigned: a
// uint64), refusing fractions and numbers out of range.
func (s *scanner) integer(bits int, unsigned bool) (int64, uint64, error) {
	text, err := s.number()
	if err != nil {
		return 0, 0, err
	}
	if unsigned {
		u, err := strconv.ParseUint(text, 10, bits)
		if err != nil {
			return 0, 0, fmt.Errorf("want an unsigned integer, got %s", text)
		}
		return 0, u, nil
	}
	n, err := strconv.ParseInt(text, 10, bits)
	if err != nil {
		return 0, 0, fmt.Errorf("want an integer, got %s", text)
	}
	return n, 0, nil
}

func (s *scanner) int64() (int64, error) {
	n, _, err := s.integer(64, false)
	return n, err
}

func (s *scanner) int() (int, error) {
	n, _, err := s.integer(strconv.IntSize, false)
	return int(n), err
}

func (s *scanner) uint64() (uint64, error) {
	_, u, err := s.integer(64, true)
	return u, err
}

func (s *scanner) bool() (bool, error) {
	c, err := s.next()
	if err != nil {
		return false, err
	}
	if c == 't' {
		return true, s.literal("true")
	}
	return false, s.literal("false")
}

// array calls elem for each element of an array, which must read it.
func (s *scanner) array(elem func() error) error {
	if err := s.take('['); err != nil {
		return err
	}
	if c, err := s.next(); err != nil {
		return err
	} else if c == ']' {
		s.i++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		c, err := s.next()
		if err != nil {
			return err
		}
		s.i++
		switch c {
		case ']':
			return nil
		case ',':
		default:
			s.i--
			return s.errorf("want ',' or ']', got %q", c)
		}
	}
}

// ints reads an array of integers, or null (nil).
func (s *scanner) ints() ([]int, error) {
	if s.null() {
		return nil, nil
	}
	out := []int{}
	err := s.array(func() error {
		n, err := s.int()
		out = append(out, n)
		return err
	})
	return out, err
}

// raw reads any value and returns its text, checked.
func (s *scanner) raw() ([]byte, error) {
	s.space()
	start := s.i
	if err := s.skip(0); err != nil {
		return nil, err
	}
	return s.b[start:s.i], nil
}

// skip reads any value, nested at most maxDepth deep.
func (s *scanner) skip(depth int) error {
	if depth > maxDepth {
		return s.errorf("nested more than %d deep", maxDepth)
	}
	c, err := s.next()
	if err != nil {
		return err
	}
	switch c {
	case '{':
		return s.object(func(string) error { return s.skip(depth + 1) })
	case '[':
		return s.array(func() error { return s.skip(depth + 1) })
	case '"':
		_, err := s.str()
		return err
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	}
	_, err = s.number()
	return err
}

// end checks that nothing but white space follows the value read.
func (s *scanner) end() error {
	s.space()
	if s.i < len(s.b) {
		return s.errorf("unexpected %q after the object", s.b[s.i])
	}
	return nil
}

// Unquote reads text, a JSON string, as the string it is.
func Unquote(text string) (string, error) {
	s := &scanner{b: []byte(text)}
	v, err := s.str()
	if err == nil {
		err = s.end()
	}
	return v, err
}

// ReadStrings reads text, a JSON array of strings.
func ReadStrings(text string) ([]string, error) {
	s := &scanner{b: []byte(text)}
	var out []string
	err := s.array(func() error {
		v, err := s.str()
		out = append(out, v)
		return err
	})
	if err == nil {
		err = s.end()
	}
	return out, err
}

// IntsOf reads v, a state value, as a list of integers: a Go []int, or a
// JSON array of integers read back from a trace (Raw).
func IntsOf(v any) ([]int, bool) {
	switch x := v.(type) {
	case []int:
		return x, true
	case Raw:
		s := &scanner{b: x}
		out, err := s.ints()
		if err == nil {
			err = s.end()
		}
		return out, err == nil && out != nil
	}
	return nil, false
}

// AppendStrings appends list as a JSON array of strings.
func AppendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, v)
	}
	return append(b, ']')
}

// FieldOf reads the field name of a message value, a Go struct or a JSON
// object read back from a trace (Raw), as JSON text; ok is false when it
// has no such field.
func FieldOf(msg any, name string) (Raw, bool) {
	b, ok := msg.(Raw)
	if !ok {
		b = AppendJSON(nil, msg)
	}
	s := &scanner{b: b}
	var out Raw
	err := s.object(func(key string) error {
		if key != name || out != nil {
			return s.skip(0)
		}
		v, err := s.raw()
		out = v
		return err
	})
	return out, err == nil && out != nil
}
