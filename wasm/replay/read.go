package replay

import (
	"errors"
	"strconv"
	"strings"

	"dsim/core/trace"
)

// Reader reads a JSONL trace with trace.ReadJSONL a slice of lines at a
// time, so that a page can read a long trace between frames. A world's
// header line is read once; the event lines after it are read behind a
// bare header (any header will do for events) and join that world.
type Reader struct {
	text   string
	pos    int
	worlds []trace.World
}

// bareHeader opens every slice of event lines.
var bareHeader = `{"type":"world","schema":` + strconv.Itoa(trace.Schema) + "}\n"

// NewReader starts reading text.
func NewReader(text string) *Reader { return &Reader{text: text} }

// Done reports whether the whole text has been read.
func (r *Reader) Done() bool { return r.pos >= len(r.text) }

// Progress is the part of the text read so far, from 0 to 1.
func (r *Reader) Progress() float64 {
	if len(r.text) == 0 {
		return 1
	}
	return float64(r.pos) / float64(len(r.text))
}

// Worlds returns what has been read.
func (r *Reader) Worlds() []trace.World { return r.worlds }

// Next reads up to n more lines. On an error it returns the error
// trace.ReadJSONL gives for the whole text, which names the line.
func (r *Reader) Next(n int) error {
	if err := r.next(n); err != nil {
		if _, whole := trace.ReadJSONL(strings.NewReader(r.text)); whole != nil {
			return whole
		}
		return err
	}
	return nil
}

func (r *Reader) next(n int) error {
	from := r.pos
	end := from
	for k := 0; k < n && end < len(r.text); k++ {
		line := r.text[end:]
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl+1]
		}
		if k > 0 && isHeader(line) {
			break // a new world starts its own slice
		}
		end += len(line)
	}
	r.pos = end
	chunk := r.text[from:end]
	if isHeader(chunk) {
		ws, err := trace.ReadJSONL(strings.NewReader(chunk))
		r.worlds = append(r.worlds, ws...)
		return err
	}
	ws, err := trace.ReadJSONL(strings.NewReader(bareHeader + chunk))
	if err != nil {
		return err
	}
	if len(r.worlds) == 0 {
		if len(ws[0].Events) == 0 {
			return nil // blank lines
		}
		return errors.New("event before the first world header")
	}
	last := &r.worlds[len(r.worlds)-1]
	last.Events = append(last.Events, ws[0].Events...)
	return nil
}

func isHeader(line string) bool { return strings.HasPrefix(line, `{"type":"world"`) }
