//go:build js && wasm

package main

// A panic in Go code that JavaScript called (an event handler, a timer, an
// animation frame, a message from the engine worker) would end the Go
// program: the page would freeze, and every later event would throw "Go
// program has already exited". So every function the page hands to
// JavaScript is made by callback, which recovers a panic and reports it.

import (
	"fmt"
	"runtime/debug"
	"syscall/js"
)

// panicked shows a recovered panic's message to the user; the UI sets it.
var panicked func(msg string)

// callback is js.FuncOf with the panic recovered and reported.
func callback(fn func(this js.Value, args []js.Value) any) js.Func {
	return js.FuncOf(func(this js.Value, args []js.Value) (ret any) {
		defer func() {
			if p := recover(); p != nil {
				ret = nil
				report(p, debug.Stack())
			}
		}()
		return fn(this, args)
	})
}

// report writes a recovered panic with its stack to the console and tells
// the user.
func report(p any, stack []byte) {
	msg := fmt.Sprint(p)
	js.Global().Get("console").Call("error", "dsim: internal error: "+msg+"\n"+string(stack))
	if panicked != nil {
		defer func() { recover() }() // the page itself is broken: the console has it
		panicked(msg)
	}
}

// setTimeout runs fn once after ms milliseconds.
func setTimeout(fn func(), ms int) {
	var f js.Func
	f = callback(func(js.Value, []js.Value) any {
		f.Release()
		fn()
		return nil
	})
	js.Global().Call("setTimeout", f, ms)
}
