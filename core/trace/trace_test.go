package trace

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

type election struct {
	ID int
}

type hostile struct {
	Text  string            `json:"text"`
	Names map[string]string `json:"names"`
	Tags  []string          `json:"tags"`
}

// sample is a world with one event of every type.
func sample() World {
	return World{
		Header: Header{Schema: Schema, World: 1, Algorithm: "election.bully", Seed: 42, Topology: "ring",
			IDs: []int{3, 5, 0}, Adj: [][]int{{5}, {0}, {3}}, Config: []Setting{{"T", 10}, {"name", "x"}}},
		Events: []Event{
			{T: 0, Seq: 0, Type: State, Node: 3, Local: 100, Key: "role", New: "candidate"},
			{T: 12, Seq: 1, Type: Send, Node: 3, Local: 112, From: 3, To: 5, Kind: "ELECTION", MsgID: 7, Msg: election{3}},
			{T: 13, Seq: 2, Type: Deliver, Node: 5, Local: 13, From: 3, To: 5, Kind: "ELECTION", MsgID: 7, Msg: election{3}},
			{T: 14, Seq: 3, Type: Drop, Node: 0, Local: 14, From: 5, To: 0, Kind: "OK", MsgID: 8, Msg: struct{}{}, Reason: "crashed"},
			{T: 15, Seq: 4, Type: Timer, Node: 5, Local: 15, Tag: "T'"},
			{T: 16, Seq: 5, Type: Crash, Node: 0, Local: 16},
			{T: 17, Seq: 6, Type: Recover, Node: 0, Local: 17},
			{T: 18, Seq: 7, Type: State, Node: 5, Local: 18, Key: "active", Old: []int{1}, New: []int{1, 2}},
			{T: 19, Seq: 8, Type: Log, Node: 5, Local: 19, Text: "hello"},
			{T: 19, Seq: 9, Type: Log, Node: NoNode, Text: "scenario", Line: 4},
			{T: 20, Seq: 10, Type: Command, Node: 3, Local: 120, Kind: "elect", Text: "n=2", Line: 7},
			{T: 21, Seq: 11, Type: Check, Node: NoNode, Pass: true, Text: "6 wins", Line: 9},
			{T: 21, Seq: 12, Type: Check, Node: NoNode, Pass: false, Text: "fast", Line: 10},
			{T: 22, Seq: 13, Type: Suspect, Node: 0, Local: 22},
			{T: 23, Seq: 14, Type: Trust, Node: 0, Local: 23},
			{T: 24, Seq: 15, Type: Partition, Node: NoNode, Text: "[3,5] | [0]"},
			{T: 25, Seq: 16, Type: Heal, Node: NoNode, Text: "all"},
			{T: 25, Seq: 17, Type: Warning, Node: NoNode, Text: "mutex.lamport assumes FIFO links"},
			{T: 26, Seq: 18, Type: Clock, Node: 5, Local: 1040, Kind: "step", Delta: -40},
			{T: 27, Seq: 19, Type: Clock, Node: 3, Local: 127, Kind: "slew", Delta: -10, Over: 400},
		},
	}
}

func encode(t testing.TB, worlds []World) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, worlds); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestJSONLRoundTrip(t *testing.T) {
	w2 := sample()
	w2.Header.World, w2.Header.Adj = 2, nil
	first := encode(t, []World{sample(), w2})
	worlds, err := ReadJSONL(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if len(worlds) != 2 || len(worlds[0].Events) != len(sample().Events) || worlds[1].Header.Adj != nil {
		t.Fatalf("read back %d worlds", len(worlds))
	}
	if second := encode(t, worlds); !bytes.Equal(first, second) {
		t.Fatalf("encode -> read -> encode differs:\n%s\n---\n%s", first, second)
	}
	for i, line := range bytes.Split(bytes.TrimSpace(first), []byte("\n")) {
		if !json.Valid(line) {
			t.Fatalf("line %d is not JSON: %s", i+1, line)
		}
	}
}

func TestJSONLSchemaExamples(t *testing.T) {
	w := sample()
	got := strings.Split(string(encode(t, []World{w})), "\n")
	want := map[int]string{
		0:  `{"type":"world","schema":1,"world":1,"algorithm":"election.bully","seed":42,"topology":"ring","ids":[3,5,0],"adj":[[5],[0],[3]],"arity":0,"cols":0,"config":{"T":10,"name":"x"}}`,
		2:  `{"t":12,"seq":1,"type":"send","node":3,"local":112,"from":3,"to":5,"kind":"ELECTION","id":7,"msg":{"id":3}}`,
		4:  `{"t":14,"seq":3,"type":"drop","node":0,"local":14,"from":5,"to":0,"kind":"OK","id":8,"msg":{},"reason":"crashed"}`,
		8:  `{"t":18,"seq":7,"type":"state","node":5,"local":18,"key":"active","old":[1],"value":[1,2]}`,
		10: `{"t":19,"seq":9,"type":"log","text":"scenario","line":4}`,
		11: `{"t":20,"seq":10,"type":"command","node":3,"local":120,"name":"elect","args":"n=2","line":7}`,
		12: `{"t":21,"seq":11,"type":"check","pass":true,"text":"6 wins","line":9}`,
		19: `{"t":26,"seq":18,"type":"clock","node":5,"local":1040,"mode":"step","old":1040,"new":1000,"delta":-40}`,
		20: `{"t":27,"seq":19,"type":"clock","node":3,"local":127,"mode":"slew","old":127,"new":127,"delta":-10,"over":400}`,
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], w)
		}
	}
}

func TestTextExamples(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, []World{sample()}); err != nil {
		t.Fatal(err)
	}
	want := `# world 1: election.bully on ring [3,5,0], seed 42
t=0      P3 state role: null -> "candidate"
t=12     P3 send ELECTION id=3 -> P5 [m7]
t=13     P5 deliver ELECTION id=3 <- P3 [m7]
t=14     P0 drop OK P5 -> P0 [m8]: crashed
t=15     P5 timer T'
t=16     P0 crash
t=17     P0 recover
t=18     P5 state active: [1] -> [1,2]
t=19     P5 log hello
t=19     log scenario (line 4)
t=20     P3 command elect n=2 (line 7)
t=21     check PASS 6 wins (line 9)
t=21     check FAIL fast (line 10)
t=22     P0 suspect
t=23     P0 trust
t=24     partition [3,5] | [0]
t=25     heal all
t=25     warning mutex.lamport assumes FIFO links
t=26     P5 clock step 1040 -> 1000
t=27     P3 clock slew 127 by -10 over 400
`
	if b.String() != want {
		t.Fatalf("text form:\n%s\nwant:\n%s", b.String(), want)
	}
}

// Strings from scripts can hold anything; every encoding must stay valid
// and one line per event.
func TestHostileStrings(t *testing.T) {
	evil := []string{`"quoted" \ back\slash`, "new\nline\r\n", "bad\xffutf8\xc3", `<img src=x onerror=alert(1)>`,
		"nul\x00 and del\x7f", "sep\u2028arators\u2029", "emoji 🎉 and U+FFFD \ufffd"}
	var events []Event
	for i, s := range evil {
		events = append(events,
			Event{Seq: uint64(5 * i), Type: Log, Node: 1, Text: s},
			Event{Seq: uint64(5*i + 1), Type: Send, Node: 1, From: 1, To: 2, Kind: s, Msg: hostile{s, map[string]string{s: s}, []string{s}}},
			Event{Seq: uint64(5*i + 2), Type: State, Node: 1, Key: s, Old: s, New: []string{s}},
			Event{Seq: uint64(5*i + 3), Type: Timer, Node: 1, Tag: s},
			Event{Seq: uint64(5*i + 4), Type: Command, Node: 1, Kind: s, Text: s},
		)
	}
	w := World{Header: Header{World: 1, Algorithm: evil[3], Topology: evil[1], IDs: []int{1, 2}}, Events: events}
	out := encode(t, []World{w})
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 1+len(events) {
		t.Fatalf("%d lines for %d events and a header", len(lines), len(events))
	}
	for i, line := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil || !json.Valid([]byte(line)) {
			t.Fatalf("line %d is not valid JSON (%v): %q", i+1, err, line)
		}
		if i > 0 && i%5 == 1 {
			if want := strings.ToValidUTF8(evil[(i-1)/5], "\ufffd"); v["text"] != want {
				t.Errorf("log text read back as %q, want %q", v["text"], want)
			}
		}
	}
	worlds, err := ReadJSONL(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if again := encode(t, worlds); !bytes.Equal(out, again) {
		t.Fatal("hostile trace does not round-trip")
	}
	var txt bytes.Buffer
	if err := WriteText(&txt, []World{w}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(txt.String(), "\n"); n != 1+len(events) {
		t.Fatalf("text form has %d lines for %d events and a header:\n%s", n, len(events), txt.String())
	}
	if strings.ContainsAny(txt.String(), "\r\x00\x7f\u2028") || !strings.Contains(txt.String(), `new\nline\r\n`) {
		t.Fatalf("control characters not escaped in the text form:\n%s", txt.String())
	}
}

func TestReadJSONLErrors(t *testing.T) {
	header := `{"type":"world","schema":1,"world":1}` + "\n"
	for name, c := range map[string]struct{ in, want string }{
		"not json":      {header + "{oops\n", "line 2:"},
		"before header": {`{"t":1,"seq":0,"type":"log"}`, "line 1: event before the first world header"},
		"schema":        {`{"type":"world","schema":99}`, "schema 99 is not supported"},
		"unknown type":  {header + `{"t":1,"seq":0,"type":"teleport"}`, `unknown event type "teleport"`},
		"missing t":     {header + `{"seq":0,"type":"log"}`, "missing t or seq"},
		"negative line": {header + `{"t":1,"seq":0,"type":"log","line":-3}`, "negative script line"},
		"no-node id":    {header + `{"t":1,"seq":0,"type":"crash","node":-2147483648}`, "reserved"},
		"bad utf8":      {header + "{\"t\":1,\"seq\":0,\"type\":\"log\",\"text\":\"\xff\"}", "line 2: not valid UTF-8"},
		"bad config":    {`{"type":"world","schema":1,"config":[1]}`, "config: want an object"},
	} {
		_, err := ReadJSONL(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}

func TestFieldNames(t *testing.T) {
	for in, want := range map[string]string{"ID": "id", "IDs": "ids", "TS": "ts", "ReqTS": "reqTS", "Active": "active",
		"HTTPServer": "httpServer", "A": "a", "URLs": "urls", "X1": "x1"} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
	type m struct {
		ID      int
		Leader  int `json:"leader_id"`
		Skip    int `json:"-"`
		private int
		Opt     int `json:"opt,omitempty"`
		Bare    int `json:",omitempty"`
	}
	fs := Fields(reflect.TypeFor[m]())
	if len(fs) != 4 || fs[0].Name != "id" || fs[1].Name != "leader_id" || fs[1].Index != 1 || fs[2].Name != "opt" || fs[3].Name != "bare" {
		t.Fatalf("fields %+v", fs)
	}
}

// tree contains itself, through a slice and a pointer: its cached encoder
// must not recurse while it is being made.
type tree struct {
	Name  string `json:"name"`
	Kids  []tree
	Up    *tree
	Extra any
}

func TestAppendJSONValues(t *testing.T) {
	type inner struct{ A []int }
	type ids []int
	for _, c := range []struct {
		v    any
		want string
	}{
		{tree{Name: "r", Kids: []tree{{Name: "k", Up: &tree{Name: "u"}}}, Extra: inner{}},
			`{"name":"r","kids":[{"name":"k","kids":[],"up":{"name":"u","kids":[],"up":null,"extra":null},"extra":null}],"up":null,"extra":{"a":[]}}`},
		{[]any{ids{1, 2}, nil, map[string]tree{}}, `[[1,2],null,{}]`},
		{nil, "null"}, {3.5, "3.5"}, {1e21, "1e+21"}, {float32(0.1), "0.10000000149011612"},
		{map[string]int{"b": 2, "a": 1}, `{"a":1,"b":2}`}, {map[int]bool{10: true, 9: false}, `{"10":true,"9":false}`},
		{inner{}, `{"a":[]}`}, {&inner{[]int{1}}, `{"a":[1]}`}, {[2]string{"x", "y"}, `["x","y"]`},
		{uint8(7), "7"}, {Raw(`{"k":1}`), `{"k":1}`},
	} {
		if got := string(AppendJSON(nil, c.v)); got != c.want {
			t.Errorf("AppendJSON(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
}

// FuzzReadJSONL: arbitrary input never panics the reader, and whatever it
// accepts writes out and reads back to the same events and the same bytes.
func FuzzReadJSONL(f *testing.F) {
	f.Add(string(encode(f, []World{sample()})))
	f.Add(`{"type":"world","schema":1}` + "\n" + `{"t":1,"seq":2,"type":"send","msg":{"a" : [1, 2]},"reason":"x","local":4}`)
	f.Add(`{"type":"world","schema":1,"ids":null,"adj":[[1],null],"config":{"k":{"n":null}}}`)
	f.Add("\n\n{}\n")
	f.Fuzz(func(t *testing.T, in string) {
		worlds, err := ReadJSONL(strings.NewReader(in))
		if err != nil {
			return
		}
		first := encode(t, worlds)
		again, err := ReadJSONL(bytes.NewReader(first))
		if err != nil {
			t.Fatalf("re-reading our own output: %v\n%s", err, first)
		}
		if len(again) != len(worlds) {
			t.Fatalf("%d worlds, then %d", len(worlds), len(again))
		}
		for i := range worlds {
			if !reflect.DeepEqual(worlds[i].Events, again[i].Events) {
				t.Fatalf("world %d events changed:\n%+v\n%+v", i, worlds[i].Events, again[i].Events)
			}
		}
		if second := encode(t, again); !bytes.Equal(first, second) {
			t.Fatalf("second encoding differs:\n%s\n%s", first, second)
		}
	})
}

// A Recording gives back exactly the events it was given, however many
// chunks they fill, and every writer writes the same bytes from it as from
// the events themselves.
func TestRecordingRoundTrip(t *testing.T) {
	w := sample()
	var events []Event
	for len(events) < 3*logChunk {
		for _, e := range w.Events {
			e.Seq = uint64(len(events))
			events = append(events, e)
		}
	}
	rec := &Recording{}
	for i := range events {
		rec.Append(&events[i])
	}
	if got := rec.Events(); rec.Len() != len(events) || !reflect.DeepEqual(got, events) {
		t.Fatalf("%d events back, want %d equal ones", rec.Len(), len(events))
	}
	i := 0
	rec.Each(func(e *Event) {
		if !reflect.DeepEqual(*e, events[i]) {
			t.Fatalf("Each: event %d is %+v, want %+v", i, *e, events[i])
		}
		i++
	})
	plain := []World{{Header: w.Header, Events: events}}
	compact := []World{{Header: w.Header, Rec: rec}}
	// The recording's counts and end are the events'.
	for _, typ := range Types() {
		if a, b := plain[0].Count(typ), compact[0].Count(typ); a != b {
			t.Errorf("%s: %d events, the recording counts %d", typ, a, b)
		}
	}
	if plain[0].Count(Send) == 0 || plain[0].End() != compact[0].End() || plain[0].End() != events[len(events)-1].T {
		t.Errorf("ends at %d, the recording says %d, want %d (and some sends)", plain[0].End(), compact[0].End(), events[len(events)-1].T)
	}
	// EachIn reads a stretch, across chunks, clamped to the recording.
	var got []Event
	compact[0].EachIn(logChunk-2, logChunk+3, func(e *Event) { got = append(got, *e) })
	if !reflect.DeepEqual(got, events[logChunk-2:logChunk+3]) {
		t.Errorf("EachIn(%d, %d): %d events, not the recording's", logChunk-2, logChunk+3, len(got))
	}
	got = nil
	plain[0].EachIn(-5, 2, func(e *Event) { got = append(got, *e) })
	compact[0].EachIn(len(events)-1, len(events)+9, func(e *Event) { got = append(got, *e) })
	if !reflect.DeepEqual(got, []Event{events[0], events[1], events[len(events)-1]}) {
		t.Errorf("EachIn past the ends: %d events, want 3", len(got))
	}
	for name, write := range map[string]func(io.Writer, []World) error{"jsonl": WriteJSONL, "text": WriteText, "shiviz": WriteShiViz} {
		var a, b bytes.Buffer
		if err := write(&a, plain); err != nil {
			t.Fatal(err)
		}
		if err := write(&b, compact); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: the recording writes differently from its events", name)
		}
	}
}

func TestAppendNumbers(t *testing.T) {
	for _, n := range []int64{0, 9, 10, 99, 100, 12345, -1, -10, -987654321, math.MaxInt64, math.MinInt64} {
		if got, want := string(appendInt([]byte("x"), n)), "x"+strconv.FormatInt(n, 10); got != want {
			t.Errorf("appendInt(%d) = %s, want %s", n, got, want)
		}
	}
	ns := []uint64{0, 7, 10, 1 << 40, math.MaxUint64}
	for p := uint64(1); p <= 1e19; p *= 10 {
		ns = append(ns, p-1, p, p+1, 2*p-1)
	}
	for _, n := range ns {
		if got, want := string(appendUint(nil, n)), strconv.FormatUint(n, 10); got != want {
			t.Errorf("appendUint(%d) = %s, want %s", n, got, want)
		}
	}
	for _, s := range []string{"", "ELECTION", `a"b`, `back\slash`, "tab\t", "del\x7f", "é", "\u2028"} {
		if got, want := string(AppendString(nil, s)), string(appendStringSlow(s)); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// appendStringSlow is AppendString without its fast path.
func appendStringSlow(s string) []byte {
	if s == "" {
		return []byte(`""`)
	}
	b := AppendString(nil, s+"\x01")
	return append(b[:len(b)-len(`\u0001"`)], '"')
}
