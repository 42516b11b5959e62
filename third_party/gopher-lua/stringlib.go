package lua

import (
	"fmt"
	"strings"

	"github.com/yuin/gopher-lua/pm"
)

const emptyLString LString = LString("")

func OpenString(L *LState) int {
	var mod *LTable
	//_, ok := L.G.builtinMts[int(LTString)]
	//if !ok {
	mod = L.RegisterModule(StringLibName, strFuncs).(*LTable)
	gmatch := L.NewClosure(strGmatch, L.NewFunction(strGmatchIter))
	mod.RawSetString("gmatch", gmatch)
	mod.RawSetString("gfind", gmatch)
	mod.RawSetString("__index", mod)
	L.G.builtinMts[int(LTString)] = mod
	//}
	L.Push(mod)
	return 1
}

var strFuncs = map[string]LGFunction{
	"byte":    strByte,
	"char":    strChar,
	"dump":    strDump,
	"find":    strFind,
	"format":  strFormat,
	"gsub":    strGsub,
	"len":     strLen,
	"lower":   strLower,
	"match":   strMatch,
	"rep":     strRep,
	"reverse": strReverse,
	"sub":     strSub,
	"upper":   strUpper,
}

func strByte(L *LState) int {
	str := L.CheckString(1)
	start := L.OptInt(2, 1) - 1
	end := L.OptInt(3, -1)
	l := len(str)
	if start < 0 {
		start = l + start + 1
	}
	if end < 0 {
		end = l + end + 1
	}

	if L.GetTop() == 2 {
		if start < 0 || start >= l {
			return 0
		}
		L.Push(LNumber(str[start]))
		return 1
	}

	start = intMax(start, 0)
	end = intMin(end, l)
	if end < 0 || end <= start || start >= l {
		return 0
	}

	L.work((end - start) * ValueBytes) // dsim: the values pushed
	for i := start; i < end; i++ {
		L.Push(LNumber(str[i]))
	}
	return end - start
}

func strChar(L *LState) int {
	top := L.GetTop()
	bytes := make([]byte, L.GetTop())
	for i := 1; i <= top; i++ {
		c := L.CheckInt(i)
		if c < 0 || c > 255 { // dsim: Lua 5.1's check; upstream wrapped around
			L.ArgError(i, "invalid value")
		}
		bytes[i-1] = uint8(c)
	}
	L.Push(LString(string(bytes)))
	return 1
}

func strDump(L *LState) int {
	L.RaiseError("GopherLua does not support the string.dump")
	return 0
}

func strFind(L *LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	if len(pattern) == 0 {
		L.Push(LNumber(1))
		L.Push(LNumber(0))
		return 2
	}
	init := luaIndex2StringIndex(str, L.OptInt(3, 1), true)
	plain := false
	if L.GetTop() == 4 {
		plain = LVAsBool(L.Get(4))
	}

	if plain {
		L.work(len(str) - init) // dsim: the scan
		pos := strings.Index(str[init:], pattern)
		if pos < 0 {
			L.Push(LNil)
			return 1
		}
		L.Push(LNumber(init+pos) + 1)
		L.Push(LNumber(init + pos + len(pattern)))
		return 2
	}

	mds, err := L.find(pattern, str, init, 1)
	if err != nil {
		L.RaiseError("%s", err.Error()) // dsim: the message is no format
	}
	if len(mds) == 0 {
		L.Push(LNil)
		return 1
	}
	md := mds[0]
	L.Push(LNumber(md.Capture(0) + 1))
	L.Push(LNumber(md.Capture(1)))
	for i := 2; i < md.CaptureLength(); i += 2 {
		if md.IsPosCapture(i) {
			L.Push(LNumber(md.Capture(i)))
		} else {
			L.Push(LString(str[md.Capture(i):md.Capture(i+1)]))
		}
	}
	return md.CaptureLength()/2 + 1
}

func strFormat(L *LState) int {
	str := L.CheckString(1)
	args := make([]interface{}, L.GetTop()-1)
	top := L.GetTop()
	for i := 2; i <= top; i++ {
		args[i-2] = L.Get(i)
	}
	npat := strings.Count(str, "%") - strings.Count(str, "%%")
	L.Push(LString(fmt.Sprintf(str, args[:intMin(npat, len(args))]...)))
	return 1
}

// dsim: strGsub builds the result as it finds the matches, as Lua's does:
// upstream found them all first, holding a MatchData for each (a gsub on
// 16 MiB of x held 16M of them), then a replacement for each, then copied.
// The result's size is checked as it grows, and each match's steps are
// accounted before a replacement function runs on the same budget.
func strGsub(L *LState) int {
	str := L.CheckString(1)
	pat := L.CheckString(2)
	L.CheckTypes(3, LTString, LTTable, LTFunction)
	repl := L.CheckAny(3)
	limit := L.OptInt(4, len(str)+1) // dsim: as Lua's, at most limit (none if < 1)

	p, err := pm.Compile(pat)
	if err != nil {
		L.RaiseError("%s", err.Error()) // dsim: the message is no format
	}
	src := unsafeFastStringToReadOnlyBytes(str)
	var b strings.Builder
	write := func(s string) {
		L.checkString("string.gsub", b.Len()+len(s))
		b.WriteString(s)
	}
	n, copied := 0, 0 // str[copied:] is not in b yet
	for sp := 0; sp <= len(str) && n < limit; {
		md, end := L.matchAt(p, src, sp)
		if md != nil {
			n++
			if r, ok := gsubReplacement(L, str, repl, md); ok {
				write(str[copied:sp])
				write(r)
				copied = end
			}
		}
		if md != nil && end > sp {
			sp = end
		} else {
			sp++
		}
		if p.Anchored {
			break
		}
	}
	if n == 0 {
		L.SetTop(1)
		L.Push(LNumber(0))
		return 2
	}
	write(str[copied:])
	L.allocString("string.gsub", b.Len())
	L.Push(LString(b.String()))
	L.Push(LNumber(n))
	return 2
}

// dsim: matchAt is p.MatchAt within the step budget of Limits.
func (ls *LState) matchAt(p *pm.Pattern, src []byte, sp int) (*pm.MatchData, int) {
	budget := ls.matchSteps()
	steps := budget
	md, end, err := p.MatchAt(src, sp, &steps)
	ls.spent(budget, steps)
	if err != nil {
		ls.RaiseError("%s", err.Error())
	}
	return md, end
}

// gsubReplacement is what replaces the match md of gsub, or false to keep
// the match as it is.
func gsubReplacement(L *LState, str string, repl LValue, md *pm.MatchData) (string, bool) {
	switch repl := repl.(type) {
	case LString:
		sc := newFlagScanner('%', "", "", string(repl))
		for c, eos := sc.Next(); !eos; c, eos = sc.Next() {
			if !sc.ChangeFlag {
				if sc.HasFlag {
					if c >= '0' && c <= '9' {
						sc.AppendString(capturedString(L, md, str, 2*(int(c)-48)))
					} else {
						sc.AppendChar('%')
						sc.AppendChar(c)
					}
					sc.HasFlag = false
				} else {
					sc.AppendChar(c)
				}
			}
		}
		return sc.String(), true
	case *LTable:
		idx := 0
		if md.CaptureLength() > 2 { // has captures
			idx = 2
		}
		var value LValue
		if md.IsPosCapture(idx) {
			value = L.GetTable(repl, LNumber(md.Capture(idx)))
		} else {
			value = L.GetField(repl, str[md.Capture(idx):md.Capture(idx+1)])
		}
		return LVAsString(value), !LVIsFalse(value)
	case *LFunction:
		L.Push(repl)
		nargs := 0
		if md.CaptureLength() > 2 { // has captures
			for i := 2; i < md.CaptureLength(); i += 2 {
				if md.IsPosCapture(i) {
					L.Push(LNumber(md.Capture(i)))
				} else {
					L.Push(LString(capturedString(L, md, str, i)))
				}
				nargs++
			}
		} else {
			L.Push(LString(capturedString(L, md, str, 0)))
			nargs++
		}
		L.Call(nargs, 1)
		ret := L.reg.Pop()
		return LVAsString(ret), !LVIsFalse(ret)
	}
	return "", false
}

func checkCaptureIndex(L *LState, m *pm.MatchData, idx int) {
	if idx <= 2 {
		return
	}
	if idx >= m.CaptureLength() {
		L.RaiseError("invalid capture index")
	}
}

func capturedString(L *LState, m *pm.MatchData, str string, idx int) string {
	checkCaptureIndex(L, m, idx)
	if idx >= m.CaptureLength() && idx == 2 {
		idx = 0
	}
	if m.IsPosCapture(idx) {
		return fmt.Sprint(m.Capture(idx))
	} else {
		return str[m.Capture(idx):m.Capture(idx+1)]
	}

}

type strMatchData struct {
	str     string
	pos     int
	pattern string // dsim: see strGmatchIter
}

// dsim: find is pm.Find within the step budget of Limits.
func (ls *LState) find(pattern, str string, offset, limit int) ([]*pm.MatchData, error) {
	budget := ls.matchSteps()
	steps := budget
	mds, err := pm.FindSteps(pattern, unsafeFastStringToReadOnlyBytes(str), offset, limit, &steps)
	ls.spent(budget, steps)
	return mds, err
}

// dsim: gmatch finds one match per call of its iterator; upstream found
// them all at the first call, a MatchData for every character of a long
// string.
func strGmatchIter(L *LState) int {
	md := L.CheckUserData(1).Value.(*strMatchData)
	str := md.str
	if md.pos > len(str) {
		return 0
	}
	matches, err := L.find(md.pattern, str, md.pos, 1)
	if err != nil {
		L.RaiseError("%s", err.Error()) // dsim: the message is no format
	}
	if len(matches) == 0 || len(md.pattern) > 0 && md.pattern[0] == '^' {
		md.pos = len(str) + 1 // an anchored pattern matches once, as upstream's did
	}
	if len(matches) == 0 {
		return 0
	}
	match := matches[0]
	md.pos = max(match.Capture(0)+1, match.Capture(1))
	L.Push(L.Get(1))
	if match.CaptureLength() == 2 {
		L.Push(LString(str[match.Capture(0):match.Capture(1)]))
		return 1
	}

	for i := 2; i < match.CaptureLength(); i += 2 {
		if match.IsPosCapture(i) {
			L.Push(LNumber(match.Capture(i)))
		} else {
			L.Push(LString(str[match.Capture(i):match.Capture(i+1)]))
		}
	}
	return match.CaptureLength()/2 - 1
}

func strGmatch(L *LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	L.Push(L.Get(UpvalueIndex(1)))
	ud := L.NewUserData()
	ud.Value = &strMatchData{str: str, pattern: pattern} // dsim: see strGmatchIter
	L.Push(ud)
	return 2
}

func strLen(L *LState) int {
	str := L.CheckString(1)
	L.Push(LNumber(len(str)))
	return 1
}

func strLower(L *LState) int {
	str := L.CheckString(1)
	L.Push(LString(mapASCII(L, str, false)))
	return 1
}

// dsim: byteLoopWork is the work of a loop over a string a byte at a time,
// per byte, besides building the result (see Limits.Work): seven times
// the work of copying it.
const byteLoopWork = 7

// dsim: mapASCII is upper and lower in the C locale, as Lua's: byte by
// byte, ASCII letters only. Go's strings.ToUpper reads UTF-8 and turned
// every invalid byte into three, so the result could be three times the
// size (and differ from Lua's).
func mapASCII(L *LState, str string, upper bool) string {
	L.allocString("string.upper/lower", len(str))
	L.work(byteLoopWork * len(str))
	out := []byte(str)
	for i, c := range out {
		switch {
		case upper && 'a' <= c && c <= 'z':
			out[i] = c - 'a' + 'A'
		case !upper && 'A' <= c && c <= 'Z':
			out[i] = c - 'A' + 'a'
		}
	}
	return string(out)
}

func strMatch(L *LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	offset := L.OptInt(3, 1)
	l := len(str)
	if offset < 0 {
		offset = l + offset + 1
	}
	offset--
	if offset < 0 {
		offset = 0
	}

	mds, err := L.find(pattern, str, offset, 1)
	if err != nil {
		L.RaiseError("%s", err.Error()) // dsim: the message is no format
	}
	if len(mds) == 0 {
		L.Push(LNil)
		return 1 // dsim: nil, as Lua's; upstream returned nothing
	}
	md := mds[0]
	nsubs := md.CaptureLength() / 2
	switch nsubs {
	case 1:
		L.Push(LString(str[md.Capture(0):md.Capture(1)]))
		return 1
	default:
		for i := 2; i < md.CaptureLength(); i += 2 {
			if md.IsPosCapture(i) {
				L.Push(LNumber(md.Capture(i)))
			} else {
				L.Push(LString(str[md.Capture(i):md.Capture(i+1)]))
			}
		}
		return nsubs - 1
	}
}

func strRep(L *LState) int {
	str := L.CheckString(1)
	n := L.CheckInt(2)
	if n <= 0 || len(str) == 0 {
		L.Push(emptyLString)
	} else {
		// dsim: bounded before it allocates, in floats where the size
		// overflows int
		L.checkStringSize("string.rep", float64(len(str))*float64(n))
		L.allocString("string.rep", len(str)*n)
		L.Push(LString(strings.Repeat(str, n)))
	}
	return 1
}

func strReverse(L *LState) int {
	str := L.CheckString(1)
	L.allocString("string.reverse", len(str)) // dsim
	L.work(byteLoopWork * len(str))
	bts := []byte(str)
	out := make([]byte, len(bts))
	for i, j := 0, len(bts)-1; j >= 0; i, j = i+1, j-1 {
		out[i] = bts[j]
	}
	L.Push(LString(string(out)))
	return 1
}

func strSub(L *LState) int {
	str := L.CheckString(1)
	start := luaIndex2StringIndex(str, L.CheckInt(2), true)
	end := luaIndex2StringIndex(str, L.OptInt(3, -1), false)
	l := len(str)
	if start >= l || end < start {
		L.Push(emptyLString)
	} else {
		L.Push(LString(str[start:end]))
	}
	return 1
}

func strUpper(L *LState) int {
	str := L.CheckString(1)
	L.Push(LString(mapASCII(L, str, true)))
	return 1
}

func luaIndex2StringIndex(str string, i int, start bool) int {
	if start && i != 0 {
		i -= 1
	}
	l := len(str)
	if i < 0 {
		i = l + i + 1
	}
	i = intMax(0, i)
	if !start && i > l {
		i = l
	}
	return i
}

//
