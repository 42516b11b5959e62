// Package wasmmem grows a js/wasm program's memory ahead of need.
//
// Go grows the WebAssembly memory as its heap grows, a few megabytes at a
// time, and V8 answers each growth with a full collection of the
// JavaScript heap: the grown memory comes back as a new ArrayBuffer, which
// V8 counts as external memory at its whole size. A run of a million
// processes grows the memory about a hundred times and sat through over
// 150 such collections, a fifth of its time under Node. Growing the memory
// once, at start-up, spares them. The pages are handed back to Go's heap
// at once, and a page nothing writes to costs no RAM.
package wasmmem

// ballast holds the reservation until it is dropped: being a package
// variable, it is allocated on the heap, from new memory.
var ballast []byte

// Reserve grows the memory by n bytes and gives them to Go's heap as free
// pages, so that the heap can grow by that much before the memory has to.
// It collects garbage once, so it belongs at start-up, while the heap is
// small. It does nothing elsewhere than under js/wasm.
func Reserve(n int) {
	if !enabled || n <= 0 {
		return
	}
	ballast = make([]byte, n)
	ballast = nil
	collect()
}
