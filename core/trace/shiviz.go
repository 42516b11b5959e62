package trace

import (
	"io"
)

// ShiViz's file format (what its "upload a log" reads): the parser regular
// expression on the first line, the delimiter between executions on the
// second, then the log. Each event of a process takes two lines, as
// GoVector writes them:
//
//	P3 {"P3":4,"P5":2}
//	t=12 send ELECTION id=3 -> P5 [m7]
//
// The clock is a vector clock: a process's own entry steps by exactly one
// per event of that process (sends, deliveries and local events alike), and
// a delivery first merges the clock the message was sent with. Events that
// belong to no process (scenario logs, checks, partitions, warnings) have no
// place on a ShiViz timeline and are left out: the text and JSONL forms
// keep them.
const (
	ShiVizRegex     = `(?<host>\S*) (?<clock>{.*})\n(?<event>.*)`
	ShiVizDelimiter = `^=== (?<trace>.*) ===$`
)

// ShiViz turns the events of one world into ShiViz log lines, keeping the
// vector clocks.
type ShiViz struct {
	index  map[int]int // process id -> position in the vectors
	hosts  []int       // ids by position
	clocks [][]uint64  // each process's vector clock
	sent   map[uint64][]uint64
}

// NewShiViz starts a world. ids (optional) fixes the order of the clock
// entries; processes met later are appended.
func NewShiViz(ids []int) *ShiViz {
	v := &ShiViz{index: map[int]int{}, sent: map[uint64][]uint64{}}
	for _, id := range ids {
		v.host(id)
	}
	return v
}

func (v *ShiViz) host(id int) int {
	if i, ok := v.index[id]; ok {
		return i
	}
	i := len(v.hosts)
	v.index[id] = i
	v.hosts = append(v.hosts, id)
	v.clocks = append(v.clocks, nil)
	return i
}

// Append appends e's two lines, or nothing for an event at no process.
func (v *ShiViz) Append(b []byte, e *Event) []byte {
	if e.Node == NoNode {
		return b
	}
	i := v.host(e.Node)
	c := v.clocks[i]
	if len(c) < len(v.hosts) {
		c = append(c, make([]uint64, len(v.hosts)-len(c))...)
	}
	if e.Type == Deliver {
		for k, x := range v.sent[e.MsgID] {
			c[k] = max(c[k], x)
		}
	}
	c[i]++
	v.clocks[i] = c
	if e.Type == Send {
		v.sent[e.MsgID] = append([]uint64(nil), c...)
	}
	b = appendHost(b, e.Node)
	b = append(b, " {"...)
	first := true
	for k, x := range c {
		if x == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = appendHost(b, v.hosts[k])
		b = append(b, `":`...)
		b = appendUint(b, x)
	}
	b = append(b, "}\nt="...)
	b = appendInt(b, e.T)
	b = append(b, ' ')
	b = appendTextBody(b, e)
	return append(b, '\n')
}

func appendHost(b []byte, id int) []byte {
	return appendInt(append(b, 'P'), int64(id))
}

// AppendShiVizHeader appends the parser and delimiter lines that open a
// ShiViz file.
func AppendShiVizHeader(b []byte) []byte {
	b = append(b, ShiVizRegex...)
	b = append(b, '\n')
	b = append(b, ShiVizDelimiter...)
	return append(b, '\n')
}

// AppendShiVizWorld appends the delimiter line that names a world's
// execution in ShiViz.
func AppendShiVizWorld(b []byte, h *Header) []byte {
	b = append(b, "=== world "...)
	b = appendInt(b, int64(h.World))
	b = append(b, ": "...)
	b = appendPlain(b, h.Algorithm)
	b = append(b, " seed "...)
	b = appendUint(b, h.Seed)
	return append(b, " ===\n"...)
}

// WriteShiViz writes worlds as a ShiViz file, one execution per world.
func WriteShiViz(w io.Writer, worlds []World) error {
	b := AppendShiVizHeader(nil)
	for i := range worlds {
		b = AppendShiVizWorld(b, &worlds[i].Header)
		v := NewShiViz(worlds[i].Header.IDs)
		if err := writeEach(w, &worlds[i], b, v.Append); err != nil {
			return err
		}
		b = b[:0]
	}
	return nil
}
