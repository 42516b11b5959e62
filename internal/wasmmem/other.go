//go:build !(js && wasm)

package wasmmem

// Natively the operating system maps memory lazily and the collector runs
// on other cores: there is nothing to reserve.
const enabled = false
