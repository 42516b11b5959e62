//go:build js && wasm

package wasmmem

const enabled = true
