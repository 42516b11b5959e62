package lua

// dsim: this file is dsim's, not upstream's.

import "math"

// Limits, set in Options, bounds the work and the memory of single VM
// instructions and library calls, which an instruction count cannot see:
// one `s = s .. s` doubles a string, one gsub can make a string of a
// terabyte, one pattern match can backtrack for hours. nil: no limits, as
// upstream.
type Limits interface {
	// MaxString is the longest string the VM and the libraries build, in
	// bytes (0: no limit).
	MaxString() int
	// Alloc is told of a string of size bytes about to be built; it may
	// raise an error to refuse (a memory budget).
	Alloc(L *LState, size int)
	// MatchSteps is how many steps one pattern-matching call may take;
	// Spent is told how many it took.
	MatchSteps(L *LState) int
	Spent(L *LState, steps int)
	// GoCall is told of every call of a Go function from Lua (the
	// libraries, pcall), each of which takes as long as tens of VM
	// instructions; it may raise an error.
	GoCall(L *LState)
	// Work is told of Go work that grows with the size of what one
	// instruction or library call touches, as bytes compared, copied,
	// scanned or written (a value moved counts as ValueBytes, an error
	// caught by pcall as 100 values); it may raise an error. Work under
	// MinWork bytes is not reported.
	Work(L *LState, bytes int)
}

// ValueBytes is the work of moving or pushing one value (a table element,
// an argument, a result), in bytes: it takes about as long as a VM
// instruction (boxing a number allocates), as long as copying 64 bytes.
const ValueBytes = 64

// MinWork is the least work reported to Limits.Work: less takes no longer
// than the instruction or the call itself, which is counted already, and
// a call per short string compared would slow the VM down.
const MinWork = 256

// work reports Go work of n bytes (see Limits.Work).
func (ls *LState) work(n int) {
	if n >= MinWork && ls.Options.Limits != nil {
		ls.Options.Limits.Work(ls, n)
	}
}

// workKey reports the work of a table access by key: the table hashes a
// string key whole, and compares it whole with the key it finds, so a 16
// MiB key costs milliseconds an access.
func (ls *LState) workKey(key LValue) {
	if s, ok := key.(LString); ok {
		ls.work(2 * len(s))
	}
}

// Pow is the power of the VM's ^ and of its constant folding. Go's
// math.Pow calls math.Exp and math.Log, which are assembly on amd64 and Go
// under wasm, and can differ in the last bit: a host that needs the same
// result everywhere sets a portable one before it compiles anything.
var Pow = math.Pow

// checkString raises an error, naming what, when a string of size bytes
// would be longer than the limit.
func (ls *LState) checkString(what string, size int) {
	ls.checkStringSize(what, float64(size))
}

// checkStringSize is checkString for a size that may not fit an int.
func (ls *LState) checkStringSize(what string, size float64) {
	if ls.Options.Limits == nil {
		return
	}
	if max := ls.Options.Limits.MaxString(); max > 0 && size > float64(max) {
		ls.RaiseError("%s would make a string of %.0f bytes, more than the %d allowed", what, size, max)
	}
}

// allocString checks a string of size bytes about to be built, and tells
// the limits of it.
func (ls *LState) allocString(what string, size int) {
	ls.checkString(what, size)
	if ls.Options.Limits != nil {
		ls.Options.Limits.Alloc(ls, size)
	}
	ls.work(size) // writing it
}

// matchSteps is the step budget of one pattern-matching call.
func (ls *LState) matchSteps() int {
	if ls.Options.Limits == nil {
		return int(^uint(0) >> 1)
	}
	return ls.Options.Limits.MatchSteps(ls)
}

// spent reports the steps a pattern-matching call took out of its budget.
func (ls *LState) spent(budget, left int) {
	if ls.Options.Limits != nil {
		ls.Options.Limits.Spent(ls, budget-left) // more than budget when it ran out
	}
}
