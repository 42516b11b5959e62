package script

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/detmath"
	"dsim/core/sim"
)

// The sandbox: what a scenario can reach besides the dsim API.

// libraries are the standard libraries scenarios get.
var libraries = []struct {
	name string
	open lua.LGFunction
}{
	{lua.BaseLibName, lua.OpenBase},
	{lua.TabLibName, lua.OpenTable},
	{lua.StringLibName, lua.OpenString},
	{lua.MathLibName, lua.OpenMath},
}

// removed are the names the sandbox takes away: everything that loads code,
// reaches the host, or depends on the Go heap.
var removed = []string{
	"collectgarbage", "dofile", "getfenv", "load", "loadfile", "loadstring",
	"module", "newproxy", "require", "setfenv", "_printregs", "_GOPHER_LUA_VERSION",
	"string.dump",
}

// replaced are the standard functions the sandbox reimplements, and why.
var replaced = []struct{ name, doc string }{
	{"tostring", "tables and functions print as `table: #3` (a number in order of first appearance) instead of a memory address, so output is the same every run"},
	{"string.format", "the Lua 5.1 conversions (`%d %i %u %c %o %x %X %e %E %f %g %G %q %s %%`), width and precision at most two digits each; `%s` uses `tostring`"},
	{"math.random", "draws from a stream derived from the run seed (`sim.seed`): same seed, same numbers"},
	{"math.randomseed", "restarts that stream from the given number"},
	{"pairs", "also walks the fields of events and messages (see *Hook events*)"},
	{"math.exp, math.log, math.log10, math.pow, math.sinh, math.cosh, math.tanh and `^`", "portable algorithms: the standard ones differ in the last bit between amd64 and WebAssembly, and a number printed or used as a time would differ"},
}

func init() {
	// Before any script compiles: constant folding uses it too.
	lua.Pow = detmath.Pow
}

// portableMath are the math functions that Go computes differently on
// amd64 (assembly) and under js/wasm (Go), in their portable versions.
var portableMath = []struct {
	name string
	fn   lua.LGFunction
}{
	{"cosh", math1(detmath.Cosh)},
	{"exp", math1(detmath.Exp)},
	{"log", math1(detmath.Log)},
	{"log10", math1(detmath.Log10)},
	{"pow", func(L *lua.LState) int {
		L.Push(lua.LNumber(detmath.Pow(float64(L.CheckNumber(1)), float64(L.CheckNumber(2)))))
		return 1
	}},
	{"sinh", math1(detmath.Sinh)},
	{"tanh", math1(detmath.Tanh)},
}

func math1(f func(float64) float64) lua.LGFunction {
	return func(L *lua.LState) int {
		L.Push(lua.LNumber(f(float64(L.CheckNumber(1)))))
		return 1
	}
}

func (r *runner) openSandbox() {
	L := r.L
	for _, lib := range libraries {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	r.rng = sim.Stream(r.opt.Seed, "lua.random", 0)
	r.names = newObjectNames()

	// The libraries register their functions from Go maps, in random
	// order; rebuilding every table in sorted key order keeps pairs()
	// deterministic.
	global := L.G.Global
	libs := map[string]*lua.LTable{}
	for _, lib := range libraries[1:] {
		libs[lib.name] = sortedCopy(L, global.RawGetString(lib.name).(*lua.LTable))
	}
	for _, name := range removed {
		if lib, fn, ok := strings.Cut(name, "."); ok {
			libs[lib].RawSetString(fn, lua.LNil)
		} else {
			global.RawSetString(name, lua.LNil)
		}
	}
	for _, lib := range libraries[1:] {
		global.RawSetString(lib.name, libs[lib.name])
	}
	// gopher-lua's string module is its own __index, so that it can be the
	// strings' metatable: string.__index reached the module unsandboxed
	// (its format printed addresses). Lua 5.1's string table has no
	// __index; the strings' metatable below has the sandboxed module.
	libs[lua.StringLibName].RawSetString("__index", lua.LNil)
	libs[lua.StringLibName].RawSetString("format", L.NewFunction(r.strFormat))
	libs[lua.MathLibName].RawSetString("random", L.NewFunction(r.mathRandom))
	libs[lua.MathLibName].RawSetString("randomseed", L.NewFunction(r.mathRandomseed))
	for _, f := range portableMath {
		libs[lua.MathLibName].RawSetString(f.name, L.NewFunction(f.fn))
	}
	global.RawSetString("pairs", L.NewFunction(r.pairs(global.RawGetString("next"))))
	r.viewMT = r.newViewMT()
	global.RawSetString("tostring", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LString(r.tostring(L.CheckAny(1))))
		return 1
	}))
	// Methods on strings ("x"):rep(3) go through the string metatable.
	mt := L.NewTable()
	mt.RawSetString("__index", libs[lua.StringLibName])
	L.SetMetatable(lua.LString(""), mt)

	r.registerAPI(global)
	r.env = sortedCopy(L, global)
	r.env.RawSetString("_G", r.env)
}

func sortedCopy(L *lua.LState, t *lua.LTable) *lua.LTable {
	var keys []string
	each(t, func(k, v lua.LValue) {
		if s, ok := k.(lua.LString); ok && v != lua.LNil {
			keys = append(keys, string(s))
		}
	})
	sort.Strings(keys)
	out := L.CreateTable(0, len(keys))
	for _, k := range keys {
		out.RawSetString(k, t.RawGetString(k))
	}
	return out
}

// tostring renders any value the same way on every run: tables, functions
// and userdata without __tostring get a number by order of first
// appearance, not their address.
func (r *runner) tostring(v lua.LValue) string {
	switch v.(type) {
	case *lua.LTable, *lua.LUserData, *lua.LFunction:
		if r.L.GetMetaField(v, "__tostring") != lua.LNil {
			// Only a string or a number: any other value's String() is
			// its address, different on every run.
			switch s := r.L.ToStringMeta(v).(type) {
			case lua.LString, lua.LNumber:
				return s.String()
			}
			r.L.RaiseError("'__tostring' must return a string")
		}
		// A name costs a weak pointer and a map entry, a microsecond:
		// charged as a callback, so that a loop naming fresh tables ends
		// on the budget in seconds.
		r.budget.charge(callbackCost, "naming tables and functions")
		return v.Type().String() + ": #" + strconv.Itoa(r.names.name(v))
	}
	return v.String()
}

// maxShow caps what one print or log call renders (joined cuts the rest).
// Without it a hook that logs the log events it sees would double the text
// at every level (quotes escape quotes) in Go code, where no instruction
// budget applies.
const maxShow = 1 << 16

// show renders a value for print and log: strings as they are, tables
// inline (to a depth and length limit), everything else as tostring does.
func (r *runner) show(b *strings.Builder, v lua.LValue, depth int) {
	if b.Len() >= maxShow {
		return
	}
	if vw, ok := asView(v); ok {
		r.showFields(b, vw.names(r), func(name string) lua.LValue { return vw.field(r, name) }, depth)
		return
	}
	t, ok := v.(*lua.LTable)
	if !ok || r.L.GetMetaField(v, "__tostring") != lua.LNil {
		// Only what fits is written (quoted): joined cuts the rest, and
		// printing a 16 MiB string copied (and quoted) all of it.
		room := maxShow + 1 - b.Len()
		if s, isStr := v.(lua.LString); isStr && depth > 0 {
			b.WriteString(strconv.Quote(string(s[:min(len(s), room)])))
			return
		}
		s := r.tostring(v)
		b.WriteString(s[:min(len(s), room)])
		return
	}
	if depth >= 3 {
		b.WriteString("{...}")
		return
	}
	b.WriteByte('{')
	n := t.Len()
	i := 0
	// The walk stops where the text is cut: printing a table of a million
	// entries walked them all.
	for k, val := t.Next(lua.LNil); k != lua.LNil && b.Len() < maxShow; k, val = t.Next(k) {
		if i++; i > 50 {
			b.WriteString(", ...")
			break
		}
		if i > 1 {
			b.WriteString(", ")
		}
		if num, isNum := k.(lua.LNumber); !isNum || float64(num) != math.Trunc(float64(num)) || num < 1 || int(num) > n {
			r.showKey(b, k, depth)
		}
		r.show(b, val, depth+1)
	}
	b.WriteByte('}')
}

// showFields renders a view's fields as show renders a table.
func (r *runner) showFields(b *strings.Builder, names []string, get func(string) lua.LValue, depth int) {
	if depth >= 3 {
		b.WriteString("{...}")
		return
	}
	b.WriteByte('{')
	for i, n := range names {
		if b.Len() >= maxShow {
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		r.showKey(b, lua.LString(n), depth)
		r.show(b, get(n), depth+1)
	}
	b.WriteByte('}')
}

func (r *runner) showKey(b *strings.Builder, k lua.LValue, depth int) {
	if s, isStr := k.(lua.LString); isStr && isIdent(string(s)) {
		b.WriteString(string(s))
	} else {
		b.WriteByte('[')
		r.show(b, k, depth+1)
		b.WriteByte(']')
	}
	b.WriteByte('=')
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// strFormat is Lua 5.1's string.format. gopher-lua hands the Lua values to
// fmt.Sprintf, which prints tables by address and accepts any width.
func (r *runner) strFormat(L *lua.LState) int {
	f := L.CheckString(1)
	var b strings.Builder
	arg := 1
	bad := func(msg string) { L.RaiseError("bad argument #1 to 'format' (%s)", msg) }
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		start := i
		for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
			i++
		}
		if i-start > 5 {
			bad("repeated flags")
		}
		if !skipDigits(f, &i) {
			bad("width too long")
		}
		prec := false
		if i < len(f) && f[i] == '.' {
			prec = true
			i++
			if !skipDigits(f, &i) {
				bad("precision too long")
			}
		}
		if i >= len(f) {
			raise(L, "invalid option '%%' to 'format'")
		}
		spec := "%" + f[start:i]
		arg++
		switch c := f[i]; c {
		case 'd', 'i':
			fmt.Fprintf(&b, spec+"d", checkInt64(L, arg))
		case 'u':
			fmt.Fprintf(&b, spec+"d", uint64(checkInt64(L, arg)))
		case 'o', 'x', 'X':
			fmt.Fprintf(&b, spec+string(c), uint64(checkInt64(L, arg)))
		case 'c':
			b.WriteByte(byte(checkInt64(L, arg))) // as C's (unsigned char)
		case 'e', 'E', 'f', 'g', 'G':
			x := float64(L.CheckNumber(arg))
			if math.IsInf(x, 0) || math.IsNaN(x) { // as C's: inf, -inf, nan
				text := lua.LNumber(x).String()
				if c == 'E' || c == 'G' {
					text = strings.ToUpper(text)
				}
				padBytes(&b, "%"+strings.Split(f[start:i], ".")[0], text)
				break
			}
			if !prec { // C's default; Go's %g would print the shortest form
				spec += ".6"
			}
			fmt.Fprintf(&b, spec+string(c), x)
		case 'q':
			quoteLua(&b, L.CheckString(arg))
		case 's':
			padBytes(&b, spec, r.tostring(L.CheckAny(arg)))
		default:
			L.RaiseError("invalid option '%%%c' to 'format'", c)
		}
		if b.Len() > MaxString {
			L.RaiseError("string.format would make a string of more than the %d bytes allowed", MaxString)
		}
	}
	r.budget.Alloc(L, b.Len())
	r.budget.Work(L, b.Len())
	L.Push(lua.LString(b.String()))
	return 1
}

// padBytes writes s as C's printf does with spec ("%-5.2" and the like):
// the precision cuts it to that many bytes, the width pads it with spaces
// to that many bytes, on the left unless spec has '-'. Go's fmt counts
// runes, so "é" took one column of a width instead of two.
func padBytes(b *strings.Builder, spec, s string) {
	flags := strings.TrimLeft(spec[1:], "-+ #0")
	width, prec, hasPrec := strings.Cut(flags, ".")
	if hasPrec {
		p, _ := strconv.Atoi(prec) // "" is 0, as in C
		s = s[:min(len(s), p)]
	}
	w, _ := strconv.Atoi(width)
	pad := strings.Repeat(" ", max(w-len(s), 0))
	if strings.Contains(spec[:len(spec)-len(flags)], "-") {
		b.WriteString(s)
		b.WriteString(pad)
	} else {
		b.WriteString(pad)
		b.WriteString(s)
	}
}

// skipDigits moves *i past at most two digits; it reports false when there
// are more, as Lua 5.1 does.
func skipDigits(f string, i *int) bool {
	start := *i
	for *i < len(f) && f[*i] >= '0' && f[*i] <= '9' {
		*i++
	}
	return *i-start <= 2
}

// quoteLua writes s as Lua 5.1's %q does: a string Lua reads back as s.
func quoteLua(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '\n':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\000`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// checkInt64 reads argument n as an integer by the one rule of every
// float-to-integer conversion in the sandbox (gopher-lua's libraries
// included): numbers are truncated toward zero, as Lua 5.1 does, and NaN,
// the infinities and numbers outside [-2^63, 2^63) are an error, as in Lua
// 5.3. Go's own conversion is undefined there, and amd64 and wasm answer
// differently.
func checkInt64(L *lua.LState, n int) int64 {
	x := float64(L.CheckNumber(n))
	if !(x >= -(1<<63) && x < 1<<63) {
		L.ArgError(n, "number has no integer representation")
	}
	return int64(x)
}

// maxInterval bounds math.random's interval: the draw is exact up to there.
const maxInterval = 1 << 53

func (r *runner) mathRandom(L *lua.LState) int {
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(r.rng.Float64()))
		return 1
	case 1:
		hi := checkInt64(L, 1)
		if hi < 1 {
			L.ArgError(1, "interval is empty")
		}
		if hi > maxInterval {
			L.ArgError(1, "interval is too large")
		}
		L.Push(lua.LNumber(1 + r.rng.Int64N(hi)))
		return 1
	}
	lo, hi := checkInt64(L, 1), checkInt64(L, 2)
	if lo > hi {
		L.ArgError(2, "interval is empty")
	}
	if hi-lo >= maxInterval || hi-lo < 0 { // the difference overflowed
		L.ArgError(2, "interval is too large")
	}
	L.Push(lua.LNumber(lo + r.rng.Int64N(hi-lo+1)))
	return 1
}

func (r *runner) mathRandomseed(L *lua.LState) int {
	r.rng = sim.Stream(uint64(checkInt64(L, 1)), "lua.random", 0)
	return 0
}
