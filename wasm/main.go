//go:build js && wasm

// Command wasm is the browser playground: one WebAssembly binary with two
// roles. Loaded in a Web Worker (no document) it is the engine, which runs
// scenarios so that a long run never freezes the page; loaded in the page it
// is the UI, which renders from the traces the engine sends back.
package main

import (
	"syscall/js"

	_ "dsim/core/algo/all" // every algorithm, registered for scenarios
)

func main() {
	if js.Global().Get("document").IsUndefined() {
		serveEngine()
	} else {
		startUI()
	}
	// The callbacks registered above are the program from now on.
	select {}
}
