package replay

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"dsim/core/trace"
)

func jsonlOf(t *testing.T, ws ...*trace.World) string {
	t.Helper()
	var list []trace.World
	for _, w := range ws {
		list = append(list, *w)
	}
	var b bytes.Buffer
	if err := trace.WriteJSONL(&b, list); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func readAll(t *testing.T, text string, n int) ([]trace.World, error) {
	t.Helper()
	r := NewReader(text)
	for steps := 0; !r.Done(); steps++ {
		if steps > len(text)+1 {
			t.Fatal("the reader makes no progress")
		}
		if err := r.Next(n); err != nil {
			return nil, err
		}
	}
	return r.Worlds(), nil
}

// Reading in slices of any size gives what one trace.ReadJSONL gives.
func TestReaderMatchesReadJSONL(t *testing.T) {
	w1, w2 := randomRun(7, 4, 300), randomRun(8, 3, 5)
	w2.Header.World = 2
	empty := &trace.World{Header: trace.Header{World: 3, Topology: "ring", IDs: []int{1}}}
	text := jsonlOf(t, w1, w2, empty)
	want, err := trace.ReadJSONL(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 7, 120, 100000} {
		got, err := readAll(t, text, n)
		if err != nil {
			t.Fatalf("slices of %d: %v", n, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("slices of %d lines read differently", n)
		}
	}
}

func TestReaderErrorsNameTheLine(t *testing.T) {
	good := jsonlOf(t, smallRun())
	lines := strings.SplitAfter(good, "\n")
	bad := strings.Join(lines[:5], "") + "{not json}\n" + strings.Join(lines[5:], "")
	_, want := trace.ReadJSONL(strings.NewReader(bad))
	if _, err := readAll(t, bad, 3); err == nil || err.Error() != want.Error() || !strings.Contains(err.Error(), "line 6") {
		t.Errorf("error %v, want %v", err, want)
	}
	noHeader := strings.Join(lines[1:], "")
	if _, err := readAll(t, noHeader, 4); err == nil || !strings.Contains(err.Error(), "before the first world header") {
		t.Errorf("events without a header: %v", err)
	}
	if ws, err := readAll(t, "", 4); err != nil || len(ws) != 0 {
		t.Errorf("empty text: %v %v", ws, err)
	}
}
