//go:build !(js && wasm)

package wasmmem

const enabled = false

func collect() {}
