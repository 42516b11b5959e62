//go:build js && wasm

package main

import (
	"syscall/js"
	"testing"
)

// A panic in a callback is reported and the program goes on: without the
// recovery, the panic would end the Go program (and this test binary).
func TestCallbackRecovers(t *testing.T) {
	var got []string
	panicked = func(msg string) { got = append(got, msg) }
	defer func() { panicked = nil }()
	f := callback(func(this js.Value, args []js.Value) any {
		var s []int
		return s[args[0].Int()] // index out of range
	})
	defer f.Release()
	if v := f.Invoke(3); !v.IsNull() {
		t.Errorf("a panicking callback returned %v, want null", v)
	}
	if len(got) != 1 || got[0] != "runtime error: index out of range [3] with length 0" {
		t.Errorf("reported %q", got)
	}
	ok := callback(func(this js.Value, args []js.Value) any { return args[0].Int() + 1 })
	defer ok.Release()
	if v := ok.Invoke(41); v.Int() != 42 {
		t.Errorf("callback returned %v, want 42", v)
	}
}
