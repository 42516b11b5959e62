// Package script runs Lua scenarios against the simulator. It is the only
// package that imports gopher-lua.
//
// A scenario runs in a sandbox (base, table, string and math only, no way to
// load code or reach the host), under an instruction budget that counts VM
// instructions rather than wall-clock time, so it stops an endless loop at
// the same instruction natively and in WebAssembly. Every error the script
// causes comes back as an *Error naming the script file and line.
package script

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"dsim/core/trace"
)

// Options configure a run.
type Options struct {
	Seed    uint64 // the run seed (the CLI's --seed, default 1)
	SeedSet bool   // the user forced Seed: it overrides every world's `seed` key
	// Limits are the host's defaults and ceilings (zero: CLI).
	Limits    Limits
	Budget    int64     // instruction budget; 0: the host's
	MaxMemory uint64    // memory budget in bytes; 0: the host's; at most its ceiling
	Out       io.Writer // where print, log and report write (nil: discard)
	NoTrace   bool      // record no traces (benchmarks); w:count and w:events then fail
	// MaxEvents caps every world's max_events below the host's ceiling (0:
	// the ceiling). The budget bounds Lua and this bounds the kernel: a
	// server running untrusted scenarios needs both.
	MaxEvents uint64
	// Progress, when set, is called every ProgressEvery events a world
	// observes (traced or hooked), with the run's event count so far and the
	// virtual time of the latest event: the playground's progress bar.
	Progress func(events uint64, t int64)
	// Report, when set, is told of each table report prints, just before
	// its text goes to Out: the cells (the header first), which columns
	// hold numbers, and the text. The playground draws such a table as a
	// table rather than as aligned text.
	Report func(cells [][]string, numeric []bool, text string)
}

// ProgressEvery is how many observed events pass between Progress calls.
const ProgressEvery = 20_000

// Check is one expect() call.
type Check struct {
	World int    // 1-based world the check was recorded in (0: no world yet)
	Seq   uint64 // seq of the check event in that world's trace (0 when not traced)
	Line  int    // script line of the expect() call, or of the sim.world call for a property
	Text  string
	Pass  bool
	// Property names the property (e.g. "mutex.safety") of a check the
	// world recorded at the end of the script; "" for expect().
	Property string
	// At is the seq of the event where a property that must hold at every
	// event first failed (0: none): where a reader should look, while Seq
	// is where the check was recorded, at the end.
	At uint64
}

// Result is everything a run produced. On an error it holds what was done
// before the error.
type Result struct {
	Worlds []trace.World // every world's header and recorded events (in Rec), in creation order
	Checks []Check       // every expect(), in order, then every world's properties
	Notes  []string      // run limits that were hit, e.g. "world 1: stopped by the event limit ..."
	// Warnings are the worlds' departures from their algorithms'
	// assumptions, in the order they happened.
	Warnings []Warning
}

// Error is a script error at a line of the script.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Msg }

// maxSource bounds the script size: the parser recurses on nesting, and no
// scenario comes near this.
const maxSource = 1 << 20

// Run executes a scenario. name is the file name used in error messages. On
// a script error it returns the partial Result and an *Error.
func Run(name string, src []byte, opt Options) (*Result, error) {
	r := newRunner(name, opt)
	defer r.L.Close()
	err := r.exec(src)
	r.recordChecks()
	if e, ok := err.(*Error); ok {
		e.Msg = errorLine(e.Msg)
	}
	return r.result(), err
}

// maxErrorMsg is the longest error message Run returns.
const maxErrorMsg = 1000

// errorLine is msg with its line breaks escaped, cut at maxErrorMsg bytes
// with its escaped length after it: error(s) with a long s is one line to
// read, not megabytes. Only the part kept is escaped; s may be 16 MiB.
func errorLine(msg string) string {
	escaped := len(msg) + strings.Count(msg, "\r") + strings.Count(msg, "\n")
	var b strings.Builder
	for i := 0; i < len(msg) && b.Len() <= maxErrorMsg; i++ {
		switch c := msg[i]; c {
		case '\r':
			b.WriteString(`\r`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteByte(c)
		}
	}
	if escaped <= maxErrorMsg {
		return b.String()
	}
	return trace.Prefix(b.String(), maxErrorMsg) + fmt.Sprintf("... (%d bytes)", escaped)
}

// runner is the state of one Run.
type runner struct {
	name   string
	opt    Options
	limits Limits
	out    io.Writer
	L      *lua.LState
	budget *budget
	env    *lua.LTable
	rng    *rand.Rand   // math.random
	names  *objectNames // tostring of tables and functions

	fieldCache map[reflect.Type][]trace.Field
	typeNames  []lua.LValue // by trace.Type

	// interventions are the sim.intervene calls for worlds not built yet.
	interventions []intervention

	worlds []*world
	checks []Check
	notes  []string
	// warnings are every world's, as Result.Warnings.
	warnings []Warning
	seen     uint64 // events observed by every world so far, for Options.Progress
	output   uint64 // bytes of output so far (see countOutput)
	held     uint64 // the estimates of every world built (see admit)

	// fatal is an error that ends the script whatever it does: an error
	// escaping a hook or callback, a panic in Go code, the budget or the
	// memory guard. Every API function raises it again, so pcall in the
	// script cannot swallow it.
	fatal *Error
	// handled holds one slot per protected call from Go in progress; the
	// message handler fills the innermost.
	handled []*Error
	handler *lua.LFunction
	// inCallback counts the hooks and callbacks being run from Go; worlds
	// cannot be run from inside one.
	inCallback int

	worldMT, nodeMT, viewMT *lua.LTable
}

func newRunner(name string, opt Options) *runner {
	r := &runner{name: name, opt: opt, out: opt.Out, fieldCache: map[reflect.Type][]trace.Field{}, typeNames: typeNameValues()}
	if r.out == nil {
		r.out = io.Discard
	}
	r.limits = opt.Limits
	if r.limits == (Limits{}) {
		r.limits = CLI
	}
	instructions, memory := opt.Budget, opt.MaxMemory
	if instructions <= 0 {
		instructions = r.limits.Instructions
	}
	if memory == 0 {
		memory = r.limits.Memory
	}
	r.budget = newBudget(instructions, newMemoryGuard(min(memory, r.limits.MaxMemory), r.holding))
	r.L = lua.NewState(lua.Options{
		SkipOpenLibs: true,
		// Lua-to-Lua calls do not recurse in Go, so a deeper call stack
		// costs only its frames; 1000 levels leave room for recursive
		// helpers while nested Go-Lua-Go calls stay far from Go's limit.
		CallStackSize: 1000,
		// The stack of values grows up to 4 MiB; beyond, a script gets
		// "too many values on the stack".
		RegistrySize:    1 << 14,
		RegistryMaxSize: 1 << 18,
		Limits:          r.budget,
	})
	// The budget and the memory guard are fatal at the line where they ran
	// out, whatever pcall in the script does afterwards.
	r.budget.onExhaust = func(err error) { r.fail(r.errorHere(err.Error())) }
	r.handler = r.L.NewFunction(r.onError)
	// Opening the libraries calls Go functions, which the budget charges
	// as the script's calls: that work is the host's, and with a budget of
	// a few instructions it would raise an error outside any protected
	// call. The script's budget starts after it.
	r.budget.left = math.MaxInt64
	r.openSandbox()
	r.budget.left = r.budget.limit
	r.L.SetContext(r.budget)
	return r
}

func (r *runner) exec(src []byte) error {
	if len(src) > maxSource {
		return &Error{File: r.name, Line: 1, Msg: fmt.Sprintf("the script is %d bytes, more than the %d allowed", len(src), maxSource)}
	}
	fn, err := r.load(src)
	if err != nil {
		return err
	}
	fn.Env = r.env
	if err := r.call(fn, 0); err != nil {
		if r.fatal != nil {
			return r.fatal
		}
		return err
	}
	return nil
}

func (r *runner) result() *Result {
	res := &Result{Checks: r.checks, Notes: r.notes, Warnings: r.warnings}
	for _, w := range r.worlds {
		tw := trace.World{Header: w.header, Rec: w.rec}
		res.Worlds = append(res.Worlds, tw)
	}
	return res
}

// call runs fn protected with args, leaving nret results on the stack. An
// error comes back as an *Error with the line that raised it.
func (r *runner) call(fn *lua.LFunction, nret int, args ...lua.LValue) error {
	depth := len(r.handled)
	r.handled = append(r.handled, nil)
	err := r.L.CallByParam(lua.P{Fn: fn, NRet: nret, Protect: true, Handler: r.handler}, args...)
	handled := r.handled[depth]
	r.handled = r.handled[:depth]
	if err == nil {
		return nil
	}
	if handled != nil {
		return handled
	}
	// The handler could not run (the call stack was full); the error value
	// still names its line.
	if ae, ok := err.(*lua.ApiError); ok {
		return r.newError(ae.Object)
	}
	return &Error{File: r.name, Msg: err.Error()}
}

// callback runs a hook or a scheduled callback from Go. Its error is fatal:
// it stops the world (if any) and is raised again at the next API call.
func (r *runner) callback(w *world, fn *lua.LFunction, args ...lua.LValue) (lua.LValue, bool) {
	if r.fatal != nil {
		return lua.LNil, false
	}
	if r.budget.charge(callbackCost, "in hooks and callbacks"); r.fatal != nil {
		if w != nil {
			w.s.Stop()
		}
		return lua.LNil, false
	}
	r.inCallback++
	err := r.call(fn, 1, args...)
	r.inCallback--
	if err != nil {
		r.fail(err.(*Error))
		if w != nil {
			w.s.Stop()
		}
		return lua.LNil, false
	}
	ret := r.L.Get(-1)
	r.L.Pop(1)
	return ret, true
}

// maxEvents is the most events a world may run: the host's ceiling, or
// Options.MaxEvents below it.
func (r *runner) maxEvents() uint64 {
	if capped := r.opt.MaxEvents; capped > 0 && capped < r.limits.MaxEvents {
		return capped
	}
	return r.limits.MaxEvents
}

// fail records a fatal error (the first one wins).
func (r *runner) fail(e *Error) {
	if r.fatal == nil {
		r.fatal = e
	}
	// Stop the Lua side as well: every further instruction raises.
	r.budget.exhaust(errors.New(e.Msg))
}

// raiseFatal raises the fatal error as a Lua error, keeping its own line.
func (r *runner) raiseFatal() {
	r.L.Error(lua.LString(r.fatal.Error()), 0)
}

// onError is the message handler of every protected call: it runs while the
// failing frames are still on the stack, so errors raised without a
// position (error("x", 0), error({})) still get the line that raised them.
func (r *runner) onError(L *lua.LState) int {
	e := r.newError(L.Get(1))
	if e.Line == 0 {
		e.Line = r.currentLine(L, 0)
	}
	r.handled[len(r.handled)-1] = e
	L.Push(lua.LString(e.Error()))
	return 1
}

// newError makes an *Error of a Lua error value; Line is 0 when the value
// does not name one.
func (r *runner) newError(v lua.LValue) *Error {
	e := &Error{File: r.name}
	switch s := v.(type) {
	case lua.LString:
		e.Msg = string(s)
		if line, msg, ok := r.splitPosition(e.Msg); ok {
			e.Line, e.Msg = line, msg
		}
	case *lua.LNilType:
		e.Msg = "error called with nil"
	default:
		e.Msg = "error object is a " + v.Type().String() + " value"
	}
	return e
}

// splitPosition takes the "name:12: " prefix off an error message raised at
// a position in this script.
func (r *runner) splitPosition(msg string) (int, string, bool) {
	rest, ok := strings.CutPrefix(msg, r.name+":")
	if !ok {
		return 0, msg, false
	}
	num, text, ok := strings.Cut(rest, ":")
	if !ok {
		return 0, msg, false
	}
	line, err := strconv.Atoi(num)
	if err != nil || line < 1 {
		return 0, msg, false
	}
	return line, strings.TrimPrefix(text, " "), true
}

// currentLine is the line being run by the innermost Lua function at or
// above stack level (0: the running function; Go functions are skipped).
func (r *runner) currentLine(L *lua.LState, level int) int {
	for ; ; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			return 0
		}
		if _, err := L.GetInfo("l", dbg, lua.LNil); err == nil && dbg.CurrentLine > 0 {
			return dbg.CurrentLine
		}
	}
}

// errorHere makes an *Error at the script line that called the running Go
// function.
func (r *runner) errorHere(msg string) *Error {
	return &Error{File: r.name, Line: r.currentLine(r.L, 0), Msg: msg}
}

// maxNesting bounds how deeply statements and expressions nest, as Lua's
// LUAI_MAXCCALLS (200) does. gopher-lua's compiler recurses once or more per
// level: under WebAssembly a few tens of thousands of levels (a 60 KB table
// constructor {{{...}}}, `not` repeated) overflow the engine's stack and
// kill the process without a message, and natively nesting costs quadratic
// time. Scenarios nest a handful of levels.
const maxNesting = 200

// load compiles the chunk. The compiler re-panics on anything but its own
// errors, so a bug there must not take the process down either.
func (r *runner) load(src []byte) (fn *lua.LFunction, err error) {
	defer func() {
		if p := recover(); p != nil {
			fn, err = nil, &Error{File: r.name, Line: 1, Msg: fmt.Sprintf("the Lua compiler failed: %v", p)}
		}
	}()
	chunk, err := parse.Parse(bytes.NewReader(src), r.name)
	if err != nil {
		return nil, r.syntaxError(err, src)
	}
	if line := tooDeep(chunk); line > 0 {
		return nil, &Error{File: r.name, Line: line, Msg: fmt.Sprintf("statements and expressions nested more than %d levels deep", maxNesting)}
	}
	proto, err := lua.Compile(chunk, r.name)
	if err != nil {
		return nil, r.syntaxError(err, src)
	}
	return r.L.NewFunctionFromProto(proto), nil
}

var (
	stmtType = reflect.TypeOf((*ast.Stmt)(nil)).Elem()
	exprType = reflect.TypeOf((*ast.Expr)(nil)).Elem()
)

// tooDeep walks the syntax tree and returns the line of a statement or
// expression nested more than maxNesting deep, or 0. It keeps its own stack
// rather than recursing, since the tree it checks may be as deep as the
// parser allows.
func tooDeep(chunk []ast.Stmt) int {
	type item struct {
		v     reflect.Value
		depth int
	}
	stack := []item{{reflect.ValueOf(chunk), 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v, depth := it.v, it.depth
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				stack = append(stack, item{v.Elem(), depth})
			}
		case reflect.Pointer:
			if v.IsNil() {
				continue
			}
			if t := v.Type(); t.Implements(stmtType) || t.Implements(exprType) {
				if depth++; depth > maxNesting {
					return max(nodeLine(v), 1)
				}
			}
			// An elseif is an if alone in the else of the one before:
			// a chain of them is flat code, which the compiler
			// compiles in a loop, and is as deep as its first if.
			if s, ok := v.Interface().(*ast.IfStmt); ok && len(s.Else) == 1 {
				if next, ok := s.Else[0].(*ast.IfStmt); ok {
					stack = append(stack, item{reflect.ValueOf(next), depth - 1},
						item{reflect.ValueOf(s.Then), depth}, item{reflect.ValueOf(s.Condition), depth})
					continue
				}
			}
			stack = append(stack, item{v.Elem(), depth})
		case reflect.Slice:
			for i := v.Len() - 1; i >= 0; i-- {
				stack = append(stack, item{v.Index(i), depth})
			}
		case reflect.Struct:
			for i := v.NumField() - 1; i >= 0; i-- {
				if v.Type().Field(i).IsExported() {
					stack = append(stack, item{v.Field(i), depth})
				}
			}
		}
	}
	return 0
}

// nodeLine is the line a statement or expression node starts on.
func nodeLine(v reflect.Value) int {
	if n, ok := v.Interface().(interface{ Line() int }); ok {
		return n.Line()
	}
	return 0
}

func (r *runner) syntaxError(err error, src []byte) *Error {
	if ae, ok := err.(*lua.ApiError); ok && ae.Cause != nil {
		err = ae.Cause
	}
	e := &Error{File: r.name, Line: 1, Msg: strings.TrimSpace(err.Error())}
	var pe *parse.Error
	var ce *lua.CompileError
	switch {
	case errors.As(err, &pe):
		e.Msg, e.Line = pe.Message, pe.Pos.Line
		switch {
		case e.Line < 1: // the parser reached the end of the file
			e.Line = max(bytes.Count(bytes.TrimSuffix(src, []byte("\n")), []byte("\n"))+1, 1)
			e.Msg += " at the end of the file"
			if pe.Token != "" {
				e.Msg += " (after '" + pe.Token + "')"
			}
		case pe.Token != "":
			e.Msg += " near '" + pe.Token + "'"
		}
	case errors.As(err, &ce):
		e.Line, e.Msg = max(ce.Line, 1), ce.Message
	}
	return e
}
