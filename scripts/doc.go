// Package scripts holds the Lua scenarios (examples/, and later exercises/).
// Its tests run every scenario, check its expectations, run it twice to
// compare the traces, compare the text trace with a golden file and the
// JSONL trace hash with testdata/hashes.txt. The same tests run in the
// js/wasm build under Node, against the same files, which is how a
// difference between the native and the WebAssembly engine shows up.
//
// After an intended change of behaviour, rewrite the golden files with
//
//	go test ./scripts -update
package scripts
