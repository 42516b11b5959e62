//go:build js && wasm

package wasmmem

import "runtime"

const enabled = true

func collect() { runtime.GC() }
