// Lua pattern match functions for Go
package pm

import (
	"fmt"
	"math"
)

const EOS = -1
const _UNKNOWN = -2

/* Error {{{ */

type Error struct {
	Pos     int
	Message string
}

func newError(pos int, message string, args ...interface{}) *Error {
	if len(args) == 0 {
		return &Error{pos, message}
	}
	return &Error{pos, fmt.Sprintf(message, args...)}
}

func (e *Error) Error() string {
	switch e.Pos {
	case EOS:
		return fmt.Sprintf("%s at EOS", e.Message)
	case _UNKNOWN:
		return fmt.Sprintf("%s", e.Message)
	default:
		return fmt.Sprintf("%s at %d", e.Message, e.Pos)
	}
}

/* }}} */

/* MatchData {{{ */

type MatchData struct {
	// captured positions
	// layout
	// xxxx xxxx xxxx xxx0 : caputured positions
	// xxxx xxxx xxxx xxx1 : position captured positions
	captures []uint32
}

// dsim: room for the whole match, the one capture every match has
func newMatchState() *MatchData { return &MatchData{make([]uint32, 0, 2)} }

func (st *MatchData) addPosCapture(s, pos int) {
	for s+1 >= len(st.captures) {
		st.captures = append(st.captures, 0)
	}
	st.captures[s] = (uint32(pos) << 1) | 1
	st.captures[s+1] = (uint32(pos) << 1) | 1
}

func (st *MatchData) setCapture(s, pos int) uint32 {
	for s >= len(st.captures) {
		st.captures = append(st.captures, 0)
	}
	v := st.captures[s]
	st.captures[s] = (uint32(pos) << 1)
	return v
}

func (st *MatchData) restoreCapture(s int, pos uint32) { st.captures[s] = pos }

func (st *MatchData) CaptureLength() int { return len(st.captures) }

func (st *MatchData) IsPosCapture(idx int) bool { return (st.captures[idx] & 1) == 1 }

func (st *MatchData) Capture(idx int) int { return int(st.captures[idx] >> 1) }

/* }}} */

/* scanner {{{ */

type scannerState struct {
	Pos     int
	started bool
}

type scanner struct {
	src      []byte
	State    scannerState
	saved    scannerState
	captures int // dsim: how many '(' so far
}

const maxCaptures = 32

func newScanner(src []byte) *scanner {
	return &scanner{
		src: src,
		State: scannerState{
			Pos:     0,
			started: false,
		},
		saved: scannerState{},
	}
}

func (sc *scanner) Length() int { return len(sc.src) }

func (sc *scanner) Next() int {
	if !sc.State.started {
		sc.State.started = true
		if len(sc.src) == 0 {
			sc.State.Pos = EOS
		}
	} else {
		sc.State.Pos = sc.NextPos()
	}
	if sc.State.Pos == EOS {
		return EOS
	}
	return int(sc.src[sc.State.Pos])
}

func (sc *scanner) CurrentPos() int {
	return sc.State.Pos
}

func (sc *scanner) NextPos() int {
	if sc.State.Pos == EOS || sc.State.Pos >= len(sc.src)-1 {
		return EOS
	}
	if !sc.State.started {
		return 0
	} else {
		return sc.State.Pos + 1
	}
}

func (sc *scanner) Peek() int {
	cureof := sc.State.Pos == EOS
	ch := sc.Next()
	if !cureof {
		if sc.State.Pos == EOS {
			sc.State.Pos = len(sc.src) - 1
		} else {
			sc.State.Pos--
			if sc.State.Pos < 0 {
				sc.State.Pos = 0
				sc.State.started = false
			}
		}
	}
	return ch
}

func (sc *scanner) Save() { sc.saved = sc.State }

func (sc *scanner) Restore() { sc.State = sc.saved }

/* }}} */

/* bytecode {{{ */

type opCode int

const (
	opChar opCode = iota
	opMatch
	opTailMatch
	opSplit
	opSave
	opPSave
	opBrace
	opNumber
	opStar // dsim: a greedy repetition of one class (see runVM)
	opLazy // dsim: a lazy repetition of one class
)

type inst struct {
	OpCode   opCode
	Class    class
	Operand1 int
	Operand2 int
}

/* }}} */

/* classes {{{ */

type class interface {
	Matches(ch int) bool
}

type dotClass struct{}

func (pn *dotClass) Matches(ch int) bool { return true }

type charClass struct {
	Ch int
}

func (pn *charClass) Matches(ch int) bool { return pn.Ch == ch }

type singleClass struct {
	Class int
}

func (pn *singleClass) Matches(ch int) bool {
	ret := false
	switch pn.Class {
	case 'a', 'A':
		ret = 'A' <= ch && ch <= 'Z' || 'a' <= ch && ch <= 'z'
	case 'c', 'C':
		ret = (0x00 <= ch && ch <= 0x1F) || ch == 0x7F
	case 'd', 'D':
		ret = '0' <= ch && ch <= '9'
	case 'l', 'L':
		ret = 'a' <= ch && ch <= 'z'
	case 'p', 'P':
		ret = (0x21 <= ch && ch <= 0x2f) || (0x3a <= ch && ch <= 0x40) || (0x5b <= ch && ch <= 0x60) || (0x7b <= ch && ch <= 0x7e)
	case 's', 'S':
		switch ch {
		case ' ', '\f', '\n', '\r', '\t', '\v':
			ret = true
		}
	case 'u', 'U':
		ret = 'A' <= ch && ch <= 'Z'
	case 'w', 'W':
		ret = '0' <= ch && ch <= '9' || 'A' <= ch && ch <= 'Z' || 'a' <= ch && ch <= 'z'
	case 'x', 'X':
		ret = '0' <= ch && ch <= '9' || 'a' <= ch && ch <= 'f' || 'A' <= ch && ch <= 'F'
	case 'z', 'Z':
		ret = ch == 0
	default:
		return ch == pn.Class
	}
	if 'A' <= pn.Class && pn.Class <= 'Z' {
		return !ret
	}
	return ret
}

type setClass struct {
	IsNot   bool
	Classes []class
}

func (pn *setClass) Matches(ch int) bool {
	for _, class := range pn.Classes {
		if class.Matches(ch) {
			return !pn.IsNot
		}
	}
	return pn.IsNot
}

type rangeClass struct {
	Begin class
	End   class
}

func (pn *rangeClass) Matches(ch int) bool {
	switch begin := pn.Begin.(type) {
	case *charClass:
		end, ok := pn.End.(*charClass)
		if !ok {
			return false
		}
		return begin.Ch <= ch && ch <= end.Ch
	}
	return false
}

// }}}

// patterns {{{

type pattern interface{}

type singlePattern struct {
	Class class
}

type seqPattern struct {
	MustHead bool
	MustTail bool
	Patterns []pattern
}

type repeatPattern struct {
	Type  int
	Class class
}

type posCapPattern struct{}

type capPattern struct {
	Pattern pattern
}

type numberPattern struct {
	N int
}

type bracePattern struct {
	Begin int
	End   int
}

// }}}

/* parse {{{ */

func parseClass(sc *scanner, allowset bool) class {
	ch := sc.Next()
	switch ch {
	case '%':
		return &singleClass{sc.Next()}
	case '.':
		if allowset {
			return &dotClass{}
		}
		return &charClass{ch}
	case '[':
		if allowset {
			return parseClassSet(sc)
		}
		return &charClass{ch}
	//case '^' '$', '(', ')', ']', '*', '+', '-', '?':
	//	panic(newError(sc.CurrentPos(), "invalid %c", ch))
	case EOS:
		panic(newError(sc.CurrentPos(), "unexpected EOS"))
	default:
		return &charClass{ch}
	}
}

func parseClassSet(sc *scanner) class {
	set := &setClass{false, []class{}}
	if sc.Peek() == '^' {
		set.IsNot = true
		sc.Next()
	}
	isrange := false
	for {
		ch := sc.Peek()
		switch ch {
		// case '[':
		// 	panic(newError(sc.CurrentPos(), "'[' can not be nested"))
		case EOS:
			panic(newError(sc.CurrentPos(), "unexpected EOS"))
		case ']':
			if len(set.Classes) > 0 {
				sc.Next()
				goto exit
			}
			fallthrough
		case '-':
			if len(set.Classes) > 0 {
				sc.Next()
				isrange = true
				continue
			}
			fallthrough
		default:
			set.Classes = append(set.Classes, parseClass(sc, false))
		}
		if isrange {
			begin := set.Classes[len(set.Classes)-2]
			end := set.Classes[len(set.Classes)-1]
			set.Classes = set.Classes[0 : len(set.Classes)-2]
			set.Classes = append(set.Classes, &rangeClass{begin, end})
			isrange = false
		}
	}
exit:
	if isrange {
		set.Classes = append(set.Classes, &charClass{'-'})
	}

	return set
}

func parsePattern(sc *scanner, toplevel bool) *seqPattern {
	pat := &seqPattern{}
	if toplevel {
		if sc.Peek() == '^' {
			sc.Next()
			pat.MustHead = true
		}
	}
	for {
		ch := sc.Peek()
		switch ch {
		case '%':
			sc.Save()
			sc.Next()
			switch sc.Peek() {
			case '0':
				panic(newError(sc.CurrentPos(), "invalid capture index"))
			case '1', '2', '3', '4', '5', '6', '7', '8', '9':
				pat.Patterns = append(pat.Patterns, &numberPattern{sc.Next() - 48})
			case 'b':
				sc.Next()
				pat.Patterns = append(pat.Patterns, &bracePattern{sc.Next(), sc.Next()})
			default:
				sc.Restore()
				pat.Patterns = append(pat.Patterns, &singlePattern{parseClass(sc, true)})
			}
		case '.', '[', ']':
			pat.Patterns = append(pat.Patterns, &singlePattern{parseClass(sc, true)})
		//case ']':
		//	panic(newError(sc.CurrentPos(), "invalid ']'"))
		case ')':
			if toplevel {
				panic(newError(sc.CurrentPos(), "invalid ')'"))
			}
			return pat
		case '(':
			sc.Next()
			// dsim: Lua's LUA_MAXCAPTURES; it also bounds this recursion
			if sc.captures++; sc.captures > maxCaptures {
				panic(newError(sc.CurrentPos(), "too many captures"))
			}
			if sc.Peek() == ')' {
				sc.Next()
				pat.Patterns = append(pat.Patterns, &posCapPattern{})
			} else {
				ret := &capPattern{parsePattern(sc, false)}
				if sc.Peek() != ')' {
					panic(newError(sc.CurrentPos(), "unfinished capture"))
				}
				sc.Next()
				pat.Patterns = append(pat.Patterns, ret)
			}
		case '*', '+', '-', '?':
			sc.Next()
			if len(pat.Patterns) > 0 {
				spat, ok := pat.Patterns[len(pat.Patterns)-1].(*singlePattern)
				if ok {
					pat.Patterns = pat.Patterns[0 : len(pat.Patterns)-1]
					pat.Patterns = append(pat.Patterns, &repeatPattern{ch, spat.Class})
					continue
				}
			}
			pat.Patterns = append(pat.Patterns, &singlePattern{&charClass{ch}})
		case '$':
			if toplevel && (sc.NextPos() == sc.Length()-1 || sc.NextPos() == EOS) {
				pat.MustTail = true
			} else {
				pat.Patterns = append(pat.Patterns, &singlePattern{&charClass{ch}})
			}
			sc.Next()
		case EOS:
			sc.Next()
			goto exit
		default:
			sc.Next()
			pat.Patterns = append(pat.Patterns, &singlePattern{&charClass{ch}})
		}
	}
exit:
	return pat
}

type iptr struct {
	insts   []inst
	capture int
}

func compilePattern(p pattern, ps ...*iptr) []inst {
	var ptr *iptr
	toplevel := false
	if len(ps) == 0 {
		toplevel = true
		ptr = &iptr{[]inst{inst{opSave, nil, 0, -1}}, 2}
	} else {
		ptr = ps[0]
	}
	switch pat := p.(type) {
	case *singlePattern:
		ptr.insts = append(ptr.insts, inst{opChar, pat.Class, -1, -1})
	case *seqPattern:
		for _, cp := range pat.Patterns {
			compilePattern(cp, ptr)
		}
	case *repeatPattern:
		idx := len(ptr.insts)
		switch pat.Type {
		// dsim: one instruction for *, + and -, which backtracks through
		// one stack entry (see runVM); upstream's split and jump pushed one
		// per character repeated.
		case '*':
			ptr.insts = append(ptr.insts, inst{opStar, pat.Class, -1, -1})
		case '+':
			ptr.insts = append(ptr.insts,
				inst{opChar, pat.Class, -1, -1},
				inst{opStar, pat.Class, -1, -1})
		case '-':
			ptr.insts = append(ptr.insts, inst{opLazy, pat.Class, -1, -1})
		case '?':
			ptr.insts = append(ptr.insts,
				inst{opSplit, nil, idx + 1, idx + 2},
				inst{opChar, pat.Class, -1, -1})
		}
	case *posCapPattern:
		ptr.insts = append(ptr.insts, inst{opPSave, nil, ptr.capture, -1})
		ptr.capture += 2
	case *capPattern:
		c0, c1 := ptr.capture, ptr.capture+1
		ptr.capture += 2
		ptr.insts = append(ptr.insts, inst{opSave, nil, c0, -1})
		compilePattern(pat.Pattern, ptr)
		ptr.insts = append(ptr.insts, inst{opSave, nil, c1, -1})
	case *bracePattern:
		ptr.insts = append(ptr.insts, inst{opBrace, nil, pat.Begin, pat.End})
	case *numberPattern:
		ptr.insts = append(ptr.insts, inst{opNumber, nil, pat.N, -1})
	}
	if toplevel {
		if p.(*seqPattern).MustTail {
			ptr.insts = append(ptr.insts, inst{opSave, nil, 1, -1}, inst{opTailMatch, nil, -1, -1})
		}
		ptr.insts = append(ptr.insts, inst{opSave, nil, 1, -1}, inst{opMatch, nil, -1, -1})
	}
	return ptr.insts
}

/* }}} parse */

/* VM {{{ */

// dsim: upstream's VM recursed once per repetition and capture, as deep
// as the subject is long: `s:find(".*x")` on a string of a few hundred
// kilobytes overflowed the stack under WebAssembly, and nested repetitions
// backtrack exponentially with no bound. This one is the same backtracking
// machine ("Regular Expression Matching: the Virtual Machine Approach",
// https://swtch.com/~rsc/regexp/regexp2.html) with the alternatives and the
// captures to restore on an explicit stack, and it counts its steps.

// ErrSteps is the error of a match that ran out of steps.
var ErrSteps = &Error{_UNKNOWN, "pattern matching took too many steps"}

// backtrack is an entry of the VM's stack: an alternative to try (pc, sp),
// a capture to restore to its old value, or the alternatives left of a
// repetition of one class. A greedy one (opStar) matched as many
// characters as it could and backs off one at a time, down to lo; a lazy
// one (opLazy) matched as few and takes one more at a time. Either is one
// entry however long it runs, as in Lua's matcher, so the stack is as deep
// as the pattern is long: upstream's pushed an entry per character, and
// `s:match("^x*$")` on 16 MiB of x took a GiB.
type backtrack struct {
	kind    btKind
	pc, sp  int
	lo      int
	capture int
	old     uint32
}

type btKind uint8

const (
	btAlt btKind = iota
	btCapture
	btStar
	btLazy
)

// spend takes n steps, or stops the match when they run out.
func spend(steps *int, n int) {
	if *steps -= n; *steps < 0 {
		panic(ErrSteps)
	}
}

// dsim: runVM takes the stack to use from *stack, emptied, and leaves it
// there for the next call: gsub and find run it at every position of the
// subject, and allocating at each took most of their time.
func runVM(src []byte, insts []inst, sp int, steps *int, stack *[]backtrack) (bool, int, *MatchData) {
	m := newMatchState()
	bt := (*stack)[:0]
	defer func() { *stack = bt }()
	pc := 0
	for {
		spend(steps, 1)
		ok := true
		switch inst := insts[pc]; inst.OpCode {
		case opChar:
			if sp >= len(src) || !inst.Class.Matches(int(src[sp])) {
				ok = false
			} else {
				pc++
				sp++
			}
		case opMatch:
			return true, sp, m
		case opTailMatch:
			if sp >= len(src) {
				return true, sp, m
			}
			ok = false
		case opSplit:
			bt = append(bt, backtrack{kind: btAlt, pc: inst.Operand2, sp: sp})
			pc = inst.Operand1
		case opStar:
			n := 0
			for sp+n < len(src) && inst.Class.Matches(int(src[sp+n])) {
				n++
			}
			spend(steps, n)
			if n > 0 {
				bt = append(bt, backtrack{kind: btStar, pc: pc + 1, sp: sp + n - 1, lo: sp})
			}
			pc++
			sp += n
		case opLazy:
			bt = append(bt, backtrack{kind: btLazy, pc: pc, sp: sp})
			pc++
		case opSave:
			old := m.setCapture(inst.Operand1, sp)
			bt = append(bt, backtrack{kind: btCapture, capture: inst.Operand1, old: old})
			pc++
		case opPSave:
			m.addPosCapture(inst.Operand1, sp+1)
			pc++
		case opBrace:
			ok = false
			if sp < len(src) && int(src[sp]) == inst.Operand1 {
				count := 1
				start := sp
				for sp = sp + 1; sp < len(src); sp++ {
					if int(src[sp]) == inst.Operand2 {
						count--
					}
					if count == 0 {
						pc++
						sp++
						ok = true
						break
					}
					if int(src[sp]) == inst.Operand1 {
						count++
					}
				}
				spend(steps, sp-start) // dsim: the scan, a step a character
			}
		case opNumber:
			idx := inst.Operand1 * 2
			if idx >= m.CaptureLength()-1 {
				panic(newError(_UNKNOWN, "invalid capture index"))
			}
			// dsim: a back-reference to a position capture never matches,
			// as in Lua 5.1 (its length is CAP_POSITION); upstream sliced
			// src by the position, one past its end for "()%1" at the end.
			if m.IsPosCapture(idx) || m.Capture(idx) > m.Capture(idx+1) || m.Capture(idx+1) > len(src) {
				ok = false
				break
			}
			capture := src[m.Capture(idx):m.Capture(idx+1)]
			spend(steps, len(capture)) // dsim: the comparison, a step a byte
			for i := 0; i < len(capture); i++ {
				if i+sp >= len(src) || capture[i] != src[i+sp] {
					ok = false
					break
				}
			}
			if ok {
				pc++
				sp += len(capture)
			}
		default:
			panic("should not reach here")
		}
		for !ok {
			if len(bt) == 0 {
				return false, sp, m
			}
			top := &bt[len(bt)-1]
			switch top.kind {
			case btAlt:
				pc, sp, ok = top.pc, top.sp, true
				bt = bt[:len(bt)-1]
			case btCapture:
				m.restoreCapture(top.capture, top.old)
				bt = bt[:len(bt)-1]
			case btStar: // one character fewer
				pc, sp, ok = top.pc, top.sp, true
				if top.sp--; top.sp < top.lo {
					bt = bt[:len(bt)-1]
				}
			case btLazy: // one character more
				if c := top.sp; c < len(src) && insts[top.pc].Class.Matches(int(src[c])) {
					top.sp++
					pc, sp, ok = top.pc+1, top.sp, true
				} else {
					bt = bt[:len(bt)-1]
				}
			}
		}
	}
}

/* }}} */

/* API {{{ */

// Find finds up to limit matches of p in src from offset on (limit < 0: all).
func Find(p string, src []byte, offset, limit int) (matches []*MatchData, err error) {
	steps := math.MaxInt
	return FindSteps(p, src, offset, limit, &steps)
}

// dsim: FindSteps is Find within *steps steps of the VM, which it
// decrements; running out is the error ErrSteps.
func FindSteps(p string, src []byte, offset, limit int, steps *int) (matches []*MatchData, err error) {
	pat, err := Compile(p)
	if err != nil {
		return nil, err
	}
	matches = []*MatchData{}
	for sp := offset; sp <= len(src); {
		ms, nsp, err := pat.MatchAt(src, sp, steps)
		if err != nil {
			return nil, err
		}
		sp++
		if ms != nil {
			if sp < nsp {
				sp = nsp
			}
			matches = append(matches, ms)
		}
		if len(matches) == limit || pat.Anchored {
			break
		}
	}
	return
}

// dsim: Pattern is a compiled pattern, for callers that match at one
// position at a time: gsub builds its result as it finds the matches
// rather than holding them all.
type Pattern struct {
	insts []inst
	stack []backtrack // runVM's
	// Anchored: the pattern starts with '^' and matches only where it is
	// tried first.
	Anchored bool
}

// Compile compiles a pattern.
func Compile(p string) (pat *Pattern, err error) {
	defer catch(&err)
	parsed := parsePattern(newScanner([]byte(p)), true)
	return &Pattern{insts: compilePattern(parsed), Anchored: parsed.MustHead}, nil
}

// MatchAt matches the pattern at src[sp:] within *steps steps, which it
// decrements. It returns the match and where it ends, or nil.
func (pat *Pattern) MatchAt(src []byte, sp int, steps *int) (md *MatchData, end int, err error) {
	defer catch(&err)
	ok, end, md := runVM(src, pat.insts, sp, steps, &pat.stack)
	if !ok {
		return nil, sp, nil
	}
	return md, end, nil
}

// catch turns the panic of a pattern error into *err.
func catch(err *error) {
	if v := recover(); v != nil {
		if perr, ok := v.(*Error); ok {
			*err = perr
		} else {
			panic(v)
		}
	}
}

/* }}} */
