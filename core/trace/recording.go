package trace

// logChunk is the number of records per chunk of a Recording.
const logChunk = 1 << 12

// Recording holds events compactly, for runs that record long traces: an Event is
// over 200 bytes, a dozen of them pointers, and keeping Events cost more
// than making them (a copy per event, then the collector scanning every copy
// at each cycle). A record is 64 bytes with no pointers, so its chunks are
// never scanned; strings go to tables (kinds, tags, keys and drop reasons
// are few and stored once) and message and state values to a chunked table
// of their own. Events are rebuilt one at a time as they are read.
type Recording struct {
	recs   [][]logRecord
	vals   [][]any // message values, and a state change's new and old value
	nvals  int
	names  []string         // kinds, tags, keys, drop reasons, command names
	nameIx map[string]int32 // names' indexes
	recent [4]int32         // names looked up last, tried before the map
	texts  []string         // log lines, check messages, command arguments, partitions, warnings
	n      int
	// counts and end answer Count and End without reading every record,
	// which in WebAssembly takes a noticeable part of a big run's time.
	counts [len(typeNames)]int
	end    int64
}

// logRecord is one event of a Recording.
type logRecord struct {
	t, local int64
	seq      uint64
	msgID    uint64
	node     int32
	from, to int32
	line     int32
	name     int32 // kind (message, command), tag or key; -1: none
	text     int32 // texts index (drop: names index of the reason); -1: none
	val      int32 // vals index of the message or new value (old at val+1); -1: none
	typ      Type
	pass     bool
}

// Len is the number of events recorded.
func (l *Recording) Len() int { return l.n }

// Count is the number of events of type t recorded.
func (l *Recording) Count(t Type) int {
	if int(t) < len(l.counts) {
		return l.counts[t]
	}
	return 0
}

// End is the time of the last event recorded (0 if none).
func (l *Recording) End() int64 { return l.end }

// Append adds a copy of e. Node, From, To and Line must fit in 32 bits, as
// they do for every event the kernel and the scenario layer make.
func (l *Recording) Append(e *Event) {
	if l.n%logChunk == 0 {
		l.recs = append(l.recs, make([]logRecord, 0, logChunk))
	}
	c := &l.recs[len(l.recs)-1]
	*c = append(*c, logRecord{
		t: e.T, local: e.Local, seq: e.Seq, msgID: e.MsgID,
		node: int32(e.Node), from: int32(e.From), to: int32(e.To), line: int32(e.Line),
		name: -1, text: -1, val: -1, typ: e.Type, pass: e.Pass,
	})
	rec := &(*c)[len(*c)-1]
	switch e.Type {
	case Send, Deliver, Drop:
		rec.name = l.intern(e.Kind)
		rec.val = l.value(e.Msg)
		if e.Type == Drop {
			rec.text = l.intern(e.Reason)
		}
	case Timer:
		rec.name = l.intern(e.Tag)
	case State:
		rec.name = l.intern(e.Key)
		rec.val = l.value(e.New)
		l.value(e.Old)
	case Command:
		rec.name = l.intern(e.Kind)
		rec.text = l.addText(e.Text)
	case Log, Check, Partition, Heal, Warning:
		rec.text = l.addText(e.Text)
	case Clock:
		// Clock events are few: their numbers go to the value table
		// rather than widening every record.
		rec.name = l.intern(e.Kind)
		rec.val = l.value(clockNumbers{e.Delta, e.Over})
	}
	l.n++
	if int(e.Type) < len(l.counts) {
		l.counts[e.Type]++
	}
	l.end = e.T
}

func (l *Recording) intern(s string) int32 {
	for _, i := range l.recent {
		if int(i) < len(l.names) && l.names[i] == s {
			return i
		}
	}
	i, ok := l.nameIx[s]
	if !ok {
		if l.nameIx == nil {
			l.nameIx = map[string]int32{}
		}
		i = int32(len(l.names))
		l.names = append(l.names, s)
		l.nameIx[s] = i
	}
	copy(l.recent[1:], l.recent[:])
	l.recent[0] = i
	return i
}

func (l *Recording) value(v any) int32 {
	if l.nvals%logChunk == 0 {
		l.vals = append(l.vals, make([]any, 0, logChunk))
	}
	c := &l.vals[len(l.vals)-1]
	*c = append(*c, v)
	l.nvals++
	return int32(l.nvals - 1)
}

func (l *Recording) addText(s string) int32 {
	l.texts = append(l.texts, s)
	return int32(len(l.texts) - 1)
}

func (l *Recording) val(i int32) any { return l.vals[i/logChunk][i%logChunk] }

// fill sets e, which must be zero, to the event of rec. The fields are set
// one by one: building an Event aside and copying it costs a copy with
// write barriers.
func (l *Recording) fill(rec *logRecord, e *Event) {
	e.T, e.Seq, e.Type, e.Node, e.Local = rec.t, rec.seq, rec.typ, int(rec.node), rec.local
	e.From, e.To, e.MsgID, e.Pass, e.Line = int(rec.from), int(rec.to), rec.msgID, rec.pass, int(rec.line)
	switch rec.typ {
	case Send, Deliver, Drop:
		e.Kind, e.Msg = l.names[rec.name], l.val(rec.val)
		if rec.typ == Drop {
			e.Reason = l.names[rec.text]
		}
	case Timer:
		e.Tag = l.names[rec.name]
	case State:
		e.Key, e.New, e.Old = l.names[rec.name], l.val(rec.val), l.val(rec.val+1)
	case Command:
		e.Kind, e.Text = l.names[rec.name], l.texts[rec.text]
	case Log, Check, Partition, Heal, Warning:
		e.Text = l.texts[rec.text]
	case Clock:
		c := l.val(rec.val).(clockNumbers)
		e.Kind, e.Delta, e.Over = l.names[rec.name], c.delta, c.over
	}
}

// clockNumbers are a clock event's own numbers in a Recording.
type clockNumbers struct{ delta, over int64 }

// Each calls fn with every event in order. The event is reused after fn
// returns: copy it to keep it.
func (l *Recording) Each(fn func(e *Event)) { l.EachIn(0, l.n, fn) }

// EachIn calls fn with events from (included) to to (excluded), in order,
// without reading those before from; the bounds are clamped to the
// recording. The event is reused after fn returns.
func (l *Recording) EachIn(from, to int, fn func(e *Event)) {
	from, to = max(from, 0), min(to, l.n)
	var e Event
	for i := from; i < to; i++ {
		e = Event{}
		l.fill(&l.recs[i/logChunk][i%logChunk], &e)
		fn(&e)
	}
}

// Events returns the events as a slice.
func (l *Recording) Events() []Event {
	out := make([]Event, l.n)
	k := 0
	for _, c := range l.recs {
		for i := range c {
			l.fill(&c[i], &out[k])
			k++
		}
	}
	return out
}
