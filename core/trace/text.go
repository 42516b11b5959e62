package trace

import (
	"io"
	"strconv"
	"unicode/utf8"
)

// AppendText appends one event in the readable text form used for golden
// files and terminals, e.g.
//
//	t=12     P3 send ELECTION id=3 -> P5 [m7]
//
// Message fields are written as key=value with JSON values. Strings from
// scripts and algorithms have their control characters escaped, so an
// event is always one line.
func AppendText(b []byte, e *Event) []byte {
	b = append(b, "t="...)
	t := len(b)
	b = appendInt(b, e.T)
	for len(b)-t < 6 {
		b = append(b, ' ')
	}
	b = append(b, ' ')
	if e.Node != NoNode {
		b = append(b, 'P')
		b = appendInt(b, int64(e.Node))
		b = append(b, ' ')
	}
	b = appendTextBody(b, e)
	return append(b, '\n')
}

// appendTextBody writes what follows the time and the process: the type
// and the type's own fields.
func appendTextBody(b []byte, e *Event) []byte {
	b = append(b, e.Type.String()...)
	switch e.Type {
	case Send, Deliver, Drop:
		b = append(b, ' ')
		b = appendPlain(b, e.Kind)
		b = appendFields(b, e.Msg)
		switch {
		case e.Type == Deliver:
			b = append(b, " <- P"...)
			b = appendInt(b, int64(e.From))
		case e.Type == Drop && e.Node == e.To:
			// dropped on arrival: the line is the receiver's, name the sender
			b = append(b, " P"...)
			b = appendInt(b, int64(e.From))
			b = append(b, " -> P"...)
			b = appendInt(b, int64(e.To))
		default:
			b = append(b, " -> P"...)
			b = appendInt(b, int64(e.To))
		}
		b = append(b, " [m"...)
		b = appendUint(b, e.MsgID)
		b = append(b, ']')
		if e.Type == Drop {
			b = append(b, ": "...)
			b = appendPlain(b, e.Reason)
		}
	case Timer:
		b = append(b, ' ')
		b = appendPlain(b, e.Tag)
	case State:
		b = append(b, ' ')
		b = appendPlain(b, e.Key)
		b = append(b, ": "...)
		b = AppendJSON(b, e.Old)
		b = append(b, " -> "...)
		b = AppendJSON(b, e.New)
	case Log, Partition, Heal, Warning:
		b = append(b, ' ')
		b = appendPlain(b, e.Text)
	case Command:
		b = append(b, ' ')
		b = appendPlain(b, e.Kind)
		if e.Text != "" {
			b = append(b, ' ')
			b = appendPlain(b, e.Text)
		}
	case Clock:
		b = append(b, ' ')
		b = appendPlain(b, e.Kind)
		b = append(b, ' ')
		b = appendInt(b, e.Local)
		if e.Over == 0 {
			b = append(b, " -> "...)
			b = appendInt(b, e.ClockAfter())
		} else {
			b = append(b, " by "...)
			b = appendInt(b, e.Delta)
			b = append(b, " over "...)
			b = appendInt(b, e.Over)
		}
	case Check:
		if e.Pass {
			b = append(b, " PASS "...)
		} else {
			b = append(b, " FAIL "...)
		}
		b = appendPlain(b, e.Text)
	}
	if e.Line > 0 {
		b = append(b, " (line "...)
		b = appendInt(b, int64(e.Line))
		b = append(b, ')')
	}
	return b
}

// appendPlain writes s for a human reader on one line: control and
// line-breaking characters are escaped Go-style, invalid UTF-8 becomes
// U+FFFD, everything else is kept.
func appendPlain(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, "\ufffd"...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20 || r == 0x7f:
			b = append(b, '\\', 'x', hexDigits[r>>4], hexDigits[r&0xf])
		case r == '\u0085' || r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// appendFields writes a message's fields as " k=v k=v" using the JSON form
// of each value; a message that does not encode as an object is written
// whole.
func appendFields(b []byte, m any) []byte {
	js := AppendJSON(nil, m)
	if string(js) == "{}" || string(js) == "null" {
		return b
	}
	if js[0] != '{' {
		return append(append(b, ' '), js...)
	}
	// Walk the top-level object: "k":v,"k":v — keys are JSON strings
	// without escapes we need to undo for display, values are copied as is.
	i := 1
	for i < len(js)-1 {
		b = append(b, ' ')
		end := skipValue(js, i) // the key
		key, err := strconv.Unquote(string(js[i:end]))
		if err != nil {
			key = string(js[i:end])
		}
		b = appendPlain(b, key)
		b = append(b, '=')
		i = end + 1 // skip ':'
		end = skipValue(js, i)
		b = append(b, js[i:end]...)
		i = end + 1 // skip ',' or the closing '}'
	}
	return b
}

// skipValue returns the end of the JSON value starting at js[i]; js is known
// to be valid JSON produced by AppendJSON.
func skipValue(js []byte, i int) int {
	depth := 0
	inStr := false
	for ; i < len(js); i++ {
		c := js[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
				if depth == 0 {
					return i + 1
				}
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return i
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case c == ',' || c == ':':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// headerIDs is how many ids the text form's world line lists.
const headerIDs = 1024

// appendIDs writes a world's ids as a list, the first headerIDs of them for
// a larger world: the text form is for people, and a million ids on one
// line tell them nothing (the JSONL header keeps them all).
func appendIDs(b []byte, ids []int) []byte {
	if len(ids) <= headerIDs {
		return AppendJSON(b, ids)
	}
	b = AppendJSON(b, ids[:headerIDs])
	b = b[:len(b)-1]
	b = append(b, ",... ("...)
	b = appendInt(b, int64(len(ids)))
	return append(b, " in all)]"...)
}

// WriteText writes worlds in the text form, each under a "# world" line.
func WriteText(w io.Writer, worlds []World) error {
	var b []byte
	for i := range worlds {
		h := &worlds[i].Header
		b = append(b[:0], "# world "...)
		b = appendInt(b, int64(h.World))
		b = append(b, ": "...)
		b = appendPlain(b, h.Algorithm)
		b = append(b, " on "...)
		b = appendPlain(b, h.Topology)
		b = append(b, ' ')
		b = appendIDs(b, h.IDs)
		b = append(b, ", seed "...)
		b = appendUint(b, h.Seed)
		b = append(b, '\n')
		if err := writeEach(w, &worlds[i], b, AppendText); err != nil {
			return err
		}
	}
	return nil
}
