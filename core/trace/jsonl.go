package trace

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// Header opens the events of one world in a JSONL trace. A scenario that
// builds several worlds (a sweep) writes one header before each world's
// events.
type Header struct {
	Schema    int       `json:"schema"`
	World     int       `json:"world"` // 1-based, in creation order
	Algorithm string    `json:"algorithm"`
	Seed      uint64    `json:"seed"`
	Topology  string    `json:"topology"`
	IDs       []int     `json:"ids"`    // ring order
	Adj       [][]int   `json:"adj"`    // neighbours by id, per process in IDs order; null: complete
	Arity     int       `json:"arity"`  // tree layout hint
	Cols      int       `json:"cols"`   // grid layout hint
	Config    []Setting `json:"config"` // resolved algorithm configuration, sorted by key
}

// Setting is one configuration entry of a header.
type Setting struct {
	Key   string
	Value any
}

// AppendHeader appends the JSONL header line (with its newline).
func AppendHeader(b []byte, h *Header) []byte {
	b = append(b, `{"type":"world","schema":`...)
	b = appendInt(b, int64(Schema))
	b = append(b, `,"world":`...)
	b = appendInt(b, int64(h.World))
	b = append(b, `,"algorithm":`...)
	b = AppendString(b, h.Algorithm)
	b = append(b, `,"seed":`...)
	b = appendUint(b, h.Seed)
	b = append(b, `,"topology":`...)
	b = AppendString(b, h.Topology)
	b = append(b, `,"ids":`...)
	b = AppendJSON(b, h.IDs)
	b = append(b, `,"adj":`...)
	if h.Adj == nil {
		b = append(b, "null"...)
	} else {
		b = AppendJSON(b, h.Adj)
	}
	b = append(b, `,"arity":`...)
	b = appendInt(b, int64(h.Arity))
	b = append(b, `,"cols":`...)
	b = appendInt(b, int64(h.Cols))
	b = append(b, `,"config":{`...)
	for i, kv := range h.Config {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, kv.Key)
		b = append(b, ':')
		b = AppendJSON(b, kv.Value)
	}
	return append(b, "}}\n"...)
}

// AppendJSONL appends one event as a JSONL line (with its newline). Fields
// come in a fixed order: t, seq, type, node, local, then the type's own.
func AppendJSONL(b []byte, e *Event) []byte {
	// Where the digits of t and node are: most lines repeat t as the local
	// clock and node as the sender or the receiver, and copying the digits
	// is cheaper than making them again.
	b = append(b, `{"t":`...)
	t0 := len(b)
	b = appendInt(b, e.T)
	t1 := len(b)
	b = append(b, `,"seq":`...)
	b = appendUint(b, e.Seq)
	b = append(b, `,"type":"`...)
	b = append(b, e.Type.String()...)
	b = append(b, '"')
	var n0, n1 int
	if e.Node != NoNode {
		b = append(b, `,"node":`...)
		n0 = len(b)
		b = appendInt(b, int64(e.Node))
		n1 = len(b)
		b = append(b, `,"local":`...)
		b = appendIntAgain(b, e.Local, e.T, t0, t1)
	}
	switch e.Type {
	case Send, Deliver, Drop:
		// With no node, n0 == n1 and the node cannot match: NoNode is not
		// a process id.
		b = append(b, `,"from":`...)
		b = appendIntAgain(b, int64(e.From), int64(e.Node), n0, n1)
		b = append(b, `,"to":`...)
		b = appendIntAgain(b, int64(e.To), int64(e.Node), n0, n1)
		b = append(b, `,"kind":`...)
		b = AppendString(b, e.Kind)
		b = append(b, `,"id":`...)
		b = appendUint(b, e.MsgID)
		b = append(b, `,"msg":`...)
		b = AppendJSON(b, e.Msg)
		if e.Type == Drop {
			b = append(b, `,"reason":`...)
			b = AppendString(b, e.Reason)
		}
	case Timer:
		b = append(b, `,"tag":`...)
		b = AppendString(b, e.Tag)
	case State:
		b = append(b, `,"key":`...)
		b = AppendString(b, e.Key)
		b = append(b, `,"old":`...)
		b = AppendJSON(b, e.Old)
		b = append(b, `,"value":`...)
		b = AppendJSON(b, e.New)
	case Log, Partition, Heal, Warning:
		b = append(b, `,"text":`...)
		b = AppendString(b, e.Text)
	case Command:
		b = append(b, `,"name":`...)
		b = AppendString(b, e.Kind)
		b = append(b, `,"args":`...)
		b = AppendString(b, e.Text)
	case Check:
		b = append(b, `,"pass":`...)
		b = strconv.AppendBool(b, e.Pass)
		b = append(b, `,"text":`...)
		b = AppendString(b, e.Text)
	case Clock:
		b = append(b, `,"mode":`...)
		b = AppendString(b, e.Kind)
		b = append(b, `,"old":`...)
		b = appendInt(b, e.Local)
		b = append(b, `,"new":`...)
		b = appendInt(b, e.ClockAfter())
		b = append(b, `,"delta":`...)
		b = appendInt(b, e.Delta)
		if e.Over != 0 {
			b = append(b, `,"over":`...)
			b = appendInt(b, e.Over)
		}
	}
	if e.Line > 0 {
		b = append(b, `,"line":`...)
		b = appendInt(b, int64(e.Line))
	}
	return append(b, "}\n"...)
}

// appendIntAgain appends n, copying the digits at b[lo:hi] when they are
// those of n, which is when n equals was.
func appendIntAgain(b []byte, n, was int64, lo, hi int) []byte {
	if n == was {
		return append(b, b[lo:hi]...)
	}
	return appendInt(b, n)
}

// World is one world's part of a trace. Its events are in Events, or in
// Rec when they were recorded compactly (script.Run's results are); Each
// and Len read either, and so do the writers.
type World struct {
	Header Header
	Events []Event
	Rec    *Recording
}

// Len is the number of events of the world.
func (w *World) Len() int {
	if w.Rec != nil {
		return w.Rec.Len()
	}
	return len(w.Events)
}

// Count is the number of events of type t of the world.
func (w *World) Count(t Type) int {
	if w.Rec != nil {
		return w.Rec.Count(t)
	}
	n := 0
	for i := range w.Events {
		if w.Events[i].Type == t {
			n++
		}
	}
	return n
}

// End is the time of the world's last event (0 if none).
func (w *World) End() int64 {
	if w.Rec != nil {
		return w.Rec.End()
	}
	if n := len(w.Events); n > 0 {
		return w.Events[n-1].T
	}
	return 0
}

// Each calls fn with every event of the world in order. fn must not keep
// the pointer: an event from a Recording is reused after fn returns.
func (w *World) Each(fn func(e *Event)) { w.EachIn(0, w.Len(), fn) }

// EachIn calls fn with the events from (included) to to (excluded), in
// order; the bounds are clamped to the world. fn must not keep the pointer.
func (w *World) EachIn(from, to int, fn func(e *Event)) {
	if w.Rec != nil {
		w.Rec.EachIn(from, to, fn)
		return
	}
	for i := max(from, 0); i < min(to, len(w.Events)); i++ {
		fn(&w.Events[i])
	}
}

// jsonLine is the union of every field a JSONL line may carry.
type jsonLine struct {
	T                          *int64
	Seq                        *uint64
	Type                       string
	Node                       *int
	Local                      int64
	From, To                   int
	Kind                       string
	ID                         uint64
	Msg, Old, Value            []byte // raw JSON
	Reason, Tag, Key, Text     string
	Name, Args                 string
	Pass                       bool
	Line                       int
	Schema, World, Arity, Cols int
	Algorithm, Topology        string
	SeedNum                    uint64
	IDs                        []int
	Adj                        [][]int
	Config                     []byte // raw JSON
	Mode                       string // a clock correction's
	Delta, Over                int64
}

// readLine reads the JSON object of one line. A key it does not know is
// skipped, a null leaves a field as it is, as encoding/json would.
func readLine(b []byte) (jsonLine, error) {
	var l jsonLine
	s := &scanner{b: b}
	fields := map[string]func() error{
		"t": nullable(s, &l.T, s.int64), "seq": nullable(s, &l.Seq, s.uint64), "node": nullable(s, &l.Node, s.int),
		"local": lineField(s, &l.Local, s.int64), "delta": lineField(s, &l.Delta, s.int64), "over": lineField(s, &l.Over, s.int64),
		"id": lineField(s, &l.ID, s.uint64), "seed": lineField(s, &l.SeedNum, s.uint64), "pass": lineField(s, &l.Pass, s.bool),
		"ids": func() (err error) {
			l.IDs, err = s.ints()
			return err
		},
		"adj": func() error {
			if s.null() {
				l.Adj = nil
				return nil
			}
			l.Adj = [][]int{}
			return s.array(func() error {
				row, err := s.ints()
				l.Adj = append(l.Adj, row)
				return err
			})
		},
		"type": lineField(s, &l.Type, s.str), "mode": lineField(s, &l.Mode, s.str), "kind": lineField(s, &l.Kind, s.str),
		"reason": lineField(s, &l.Reason, s.str), "tag": lineField(s, &l.Tag, s.str), "key": lineField(s, &l.Key, s.str),
		"text": lineField(s, &l.Text, s.str), "name": lineField(s, &l.Name, s.str), "args": lineField(s, &l.Args, s.str),
		"algorithm": lineField(s, &l.Algorithm, s.str), "topology": lineField(s, &l.Topology, s.str),
		"from": lineField(s, &l.From, s.int), "to": lineField(s, &l.To, s.int), "line": lineField(s, &l.Line, s.int),
		"schema": lineField(s, &l.Schema, s.int), "world": lineField(s, &l.World, s.int), "arity": lineField(s, &l.Arity, s.int),
		"cols": lineField(s, &l.Cols, s.int),
		"msg":  lineField(s, &l.Msg, s.raw), "old": lineField(s, &l.Old, s.raw), "value": lineField(s, &l.Value, s.raw),
		"config": lineField(s, &l.Config, s.raw),
	}
	err := s.object(func(key string) error {
		if read, ok := fields[key]; ok {
			return read()
		}
		return s.skip(0)
	})
	if err == nil {
		err = s.end()
	}
	return l, err
}

// ReadJSONL parses a JSONL trace. Errors name the line. Message and state
// values come back as Raw, so writing the result again reproduces the input
// when it was written by this package. Fields that do not belong to a
// line's type are ignored, so whatever it returns writes and reads back to
// the same events.
func ReadJSONL(r io.Reader) ([]World, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var worlds []World
	for n, line := range bytes.Split(data, []byte("\n")) {
		lineNo := n + 1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !utf8.Valid(line) {
			return nil, fmt.Errorf("line %d: not valid UTF-8", lineNo)
		}
		l, err := readLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", lineNo, err)
		}
		if l.Type == "world" {
			if l.Schema != Schema {
				return nil, fmt.Errorf("line %d: schema %d is not supported (this reader knows %d)", lineNo, l.Schema, Schema)
			}
			h := Header{Schema: l.Schema, World: l.World, Algorithm: l.Algorithm, Seed: l.SeedNum,
				Topology: l.Topology, IDs: l.IDs, Adj: l.Adj, Arity: l.Arity, Cols: l.Cols}
			if h.IDs == nil {
				h.IDs = []int{} // written as [] either way
			}
			cfg, err := readConfig(l.Config)
			if err != nil {
				return nil, fmt.Errorf("line %d: config: %v", lineNo, err)
			}
			h.Config = cfg
			worlds = append(worlds, World{Header: h})
			continue
		}
		if len(worlds) == 0 {
			return nil, fmt.Errorf("line %d: event before the first world header", lineNo)
		}
		typ, ok := ParseType(l.Type)
		if !ok {
			return nil, fmt.Errorf("line %d: unknown event type %q", lineNo, l.Type)
		}
		if l.T == nil || l.Seq == nil {
			return nil, fmt.Errorf("line %d: missing t or seq", lineNo)
		}
		if l.Line < 0 {
			return nil, fmt.Errorf("line %d: negative script line %d", lineNo, l.Line)
		}
		e := Event{T: *l.T, Seq: *l.Seq, Type: typ, Node: NoNode, Line: l.Line}
		if l.Node != nil {
			if *l.Node == NoNode {
				return nil, fmt.Errorf("line %d: node %d is reserved for \"no process\"", lineNo, NoNode)
			}
			e.Node, e.Local = *l.Node, l.Local
		}
		switch typ {
		case Send, Deliver, Drop:
			e.From, e.To, e.Kind, e.MsgID, e.Msg = l.From, l.To, l.Kind, l.ID, raw(l.Msg)
			if typ == Drop {
				e.Reason = l.Reason
			}
		case Timer:
			e.Tag = l.Tag
		case State:
			e.Key, e.Old, e.New = l.Key, raw(l.Old), raw(l.Value)
		case Log, Partition, Heal, Warning:
			e.Text = l.Text
		case Command:
			e.Kind, e.Text = l.Name, l.Args
		case Check:
			e.Pass, e.Text = l.Pass, l.Text
		case Clock:
			// old and new follow from local and delta
			e.Kind, e.Delta, e.Over = l.Mode, l.Delta, l.Over
		}
		w := &worlds[len(worlds)-1]
		w.Events = append(w.Events, e)
	}
	return worlds, nil
}

// lineField reads a line's field into p with read; null leaves it as it
// is (a raw value then stays empty, which reads as null too).
func lineField[T any](s *scanner, p *T, read func() (T, error)) func() error {
	return func() (err error) {
		if !s.null() {
			*p, err = read()
		}
		return err
	}
}

// nullable reads a field that may be absent or null into *p (nil then).
func nullable[T any](s *scanner, p **T, read func() (T, error)) func() error {
	return func() error {
		if s.null() {
			*p = nil
			return nil
		}
		v, err := read()
		*p = &v
		return err
	}
}

// raw keeps a JSON value verbatim; an absent value or null reads as nil.
func raw(m []byte) any {
	if len(m) == 0 || string(m) == "null" {
		return nil
	}
	return Raw(bytes.Clone(m))
}

func readConfig(m []byte) ([]Setting, error) {
	if len(m) == 0 || string(m) == "null" {
		return nil, nil
	}
	s := &scanner{b: m}
	if c, err := s.next(); err != nil || c != '{' {
		return nil, fmt.Errorf("want an object")
	}
	var out []Setting
	err := s.object(func(key string) error {
		v, err := s.raw()
		out = append(out, Setting{key, Raw(bytes.Clone(v))})
		return err
	})
	return out, err
}

// WriteJSONL writes worlds as a JSONL trace.
func WriteJSONL(w io.Writer, worlds []World) error {
	var b []byte
	for i := range worlds {
		b = AppendHeader(b[:0], &worlds[i].Header)
		if err := writeEach(w, &worlds[i], b, AppendJSONL); err != nil {
			return err
		}
	}
	return nil
}

// writeEach appends every event of world with add to b, which holds what
// comes before them, writing b out whenever it passes 64 KB and at the end.
func writeEach(w io.Writer, world *World, b []byte, add func([]byte, *Event) []byte) error {
	var err error
	world.Each(func(e *Event) {
		if err != nil {
			return
		}
		b = add(b, e)
		if len(b) > 1<<16 {
			_, err = w.Write(b)
			b = b[:0]
		}
	})
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
