package script

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/algo"
	"dsim/core/trace"
)

// entry is one function of the Lua API. The same tables register the
// functions and render the reference (Reference), so the two cannot drift.
type entry[T any] struct {
	name string // "sim.world", "expect"; for methods the bare method name
	args string // the parameter list as the reference shows it
	ret  string // what it returns, "" for nothing
	doc  string
	fn   func(T, *lua.LState) int
}

// globals are the functions a scenario finds in its global table.
var globals = []entry[*runner]{
	{"sim.world", "{key=value, ...}", "world", "Builds a world: a system of processes running one algorithm. The keys are listed under *World keys*; an unknown key is an error.", apiWorld},
	{"sim.algorithms", "()", "list of names", "The registered algorithms, sorted.", apiAlgorithms},
	{"sim.intervene", "{world=1, t=T, crash=ID | recover=ID | cut={A, B} | command=NAME, node=ID}", "", "Crashes or recovers a process, cuts a link, or gives process `node` the command NAME (without args: w:at with w:command gives them), in world `world` (default 1) at time t (default 0), whenever that world is built; a log event names it when it happens. The playground's *Fork from here* and its process menu write these lines at the top of a scenario.", apiIntervene},
	{"expect", "(cond, msg)", "cond", "Records a check: passes when cond is true (not nil or false). It is written to the current (latest) world's trace as a `check` event and to the run's results; the script goes on either way.", apiExpect},
	{"assert", "(cond, msg, ...)", "cond, msg, ...", "Stops the script with `FILE:LINE: assertion failed: msg` when cond is nil or false; otherwise returns its arguments.", apiAssert},
	{"print", "(...)", "", "Writes its arguments, tab-separated, as one line to the output. Tables are shown inline, e.g. `{1, 2, kind=\"ELECTION\"}`; a line is cut at 64 KiB.", apiPrint},
	{"log", "(...)", "", "Like print, and also records a `log` event (with the line) in the current world's trace.", apiLog},
	{"sweep", "(params, fn)", "list of rows", "Calls fn(p) for every combination of params, a table of name -> list of values (names sorted, the last one varying fastest). Each row is the table fn returned (or an empty one) with the parameters filled in.", apiSweep},
	{"report", "(rows[, columns])", "", "Prints rows (a list of tables) as an aligned text table with the given columns (default: the first row's keys in order). Numbers are right-aligned; a cell longer than 200 bytes is cut.", apiReport},
}

// values are the non-function globals.
var values = []struct {
	name, doc string
	get       func(r *runner) lua.LValue
}{
	{"sim.seed", "The run seed. Worlds use it unless they set `seed`; `math.random` draws from it.", func(r *runner) lua.LValue { return lua.LNumber(r.opt.Seed) }},
}

func (r *runner) registerAPI(global *lua.LTable) {
	L := r.L
	simT := L.NewTable()
	for _, e := range globals {
		fn := L.NewFunction(r.wrap(e.fn))
		if name, ok := strings.CutPrefix(e.name, "sim."); ok {
			simT.RawSetString(name, fn)
		} else {
			global.RawSetString(e.name, fn)
		}
	}
	for _, v := range values {
		simT.RawSetString(strings.TrimPrefix(v.name, "sim."), v.get(r))
	}
	global.RawSetString("sim", simT)
	r.worldMT = methodTable(r, "world", worldMethods, r.checkWorld, func(w *world) string {
		return fmt.Sprintf("world %d (%s)", w.index, w.spec.Name)
	})
	r.nodeMT = methodTable(r, "node", nodeMethods, r.checkNode, func(n node) string {
		return fmt.Sprintf("node %d of world %d", n.id, n.w.index)
	})
}

// methodTable makes the metatable of a userdata type from its entries.
func methodTable[T any](r *runner, what string, entries []entry[T], check func(L *lua.LState, method string) (T, *world), str func(T) string) *lua.LTable {
	L := r.L
	methods := L.NewTable()
	for _, e := range entries {
		methods.RawSetString(e.name, L.NewFunction(func(L *lua.LState) int {
			self, w := check(L, e.name)
			return r.guard(w, func() int { return e.fn(self, L) })
		}))
	}
	mt := L.NewTable()
	mt.RawSetString("__index", methods)
	mt.RawSetString("__metatable", lua.LString(what))
	mt.RawSetString("__tostring", L.NewFunction(func(L *lua.LState) int {
		self, _ := check(L, "__tostring")
		L.Push(lua.LString(str(self)))
		return 1
	}))
	return mt
}

func (r *runner) wrap(fn func(*runner, *lua.LState) int) lua.LGFunction {
	return func(L *lua.LState) int {
		return r.guard(nil, func() int { return fn(r, L) })
	}
}

// guard runs the body of an API function. It raises a pending fatal error
// first (pcall in the script cannot swallow one), turns a Go panic into a
// fatal error at the calling line, and raises any fatal error the body
// caused, e.g. in a hook that ran during w:run.
func (r *runner) guard(w *world, body func() int) int {
	if r.fatal != nil {
		r.raiseFatal()
	}
	n := func() (n int) {
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if _, isLua := p.(*lua.ApiError); isLua {
				panic(p) // a Lua error on its way to the enclosing pcall
			}
			if w != nil {
				r.fail(r.errorHere(fmt.Sprintf("algorithm %s panicked at t=%d: %v", w.spec.Name, w.s.Now(), p)))
			} else {
				r.fail(r.errorHere(fmt.Sprintf("internal error: %v", p)))
			}
		}()
		return body()
	}()
	if w != nil && r.fatal == nil {
		w.paceMemory()
	}
	if r.fatal != nil {
		r.raiseFatal()
	}
	return n
}

// raise stops the API function with an error at the calling line.
func raise(L *lua.LState, format string, args ...any) {
	L.RaiseError("%s", fmt.Sprintf(format, args...))
}

// current is the latest world, where expect and log record their events.
func (r *runner) current() *world {
	if len(r.worlds) == 0 {
		return nil
	}
	return r.worlds[len(r.worlds)-1]
}

// write writes s, what print or log (named by what) made, to the output.
func (r *runner) write(what, s string) {
	r.countOutput(what, shownSize(s))
	io.WriteString(r.out, s)
}

// maxOutput bounds a run's output: what print, log and report write, and
// the expect messages, which dsim check prints and a trace repeats. A host
// may keep the output in memory, where it counts against the memory
// budget, so a run may write a quarter of its budget at most. Counted in
// bytes, the limit stops a script at the same call on every platform.
const maxOutput = 16 << 20

func (r *runner) outputLimit() uint64 { return min(maxOutput, r.memoryBudget()/4) }

// countOutput counts n more bytes of output, made by what, before they are
// written; a script that would write more than the limit stops there, with
// everything before it written. The bytes also pace the memory guard, as
// the strings a script builds do.
func (r *runner) countOutput(what string, n int) {
	if r.output += uint64(n); r.output > r.outputLimit() {
		r.fail(r.errorHere(fmt.Sprintf("output limit of %s reached: %s would take the run's output (print, log, report and expect messages) to %d bytes", formatBytes(r.outputLimit()), what, r.output)))
		r.raiseFatal()
	}
	r.budget.Alloc(r.L, n)
}

// shownSize is the bytes s takes once a terminal or a report escapes it:
// a control byte (other than a line break or a tab) shows as \xNN, four
// bytes, so that a script cannot multiply its output by four past the
// limit.
func shownSize(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			n += 3
		}
	}
	return n
}

// joined renders print's and log's arguments.
func (r *runner) joined(L *lua.LState) string {
	var b strings.Builder
	for i := 1; i <= L.GetTop(); i++ {
		if i > 1 {
			b.WriteByte('\t')
		}
		r.show(&b, L.Get(i), 0)
	}
	return trace.Truncate(b.String(), maxShow)
}

func apiWorld(r *runner, L *lua.LState) int {
	w, err := r.newWorld(L.Get(1))
	if err != nil {
		raise(L, "sim.world: %v", err)
	}
	L.Push(w.ud)
	return 1
}

func apiAlgorithms(r *runner, L *lua.LState) int {
	t := L.NewTable()
	for _, n := range algo.Names() {
		t.Append(lua.LString(n))
	}
	L.Push(t)
	return 1
}

func apiExpect(r *runner, L *lua.LState) int {
	cond := L.Get(1)
	line := r.currentLine(L, 0)
	c := Check{Line: line, Pass: lua.LVAsBool(cond), Text: "expectation at line " + strconv.Itoa(line)}
	if msg := L.Get(2); msg != lua.LNil {
		c.Text = r.tostring(msg)
	}
	c.Text = trace.Truncate(c.Text, maxShow) // cut as log cuts its text (see joined)
	r.countOutput("expect", shownSize(c.Text))
	i := len(r.checks)
	r.checks = append(r.checks, c)
	if w := r.current(); w != nil {
		r.checks[i].World = w.index
		seq := w.emit(trace.Event{Type: trace.Check, Node: trace.NoNode, Text: c.Text, Pass: c.Pass, Line: line})
		r.checks[i].Seq = seq
	}
	L.Push(cond)
	return 1
}

func apiAssert(r *runner, L *lua.LState) int {
	if lua.LVAsBool(L.Get(1)) {
		return L.GetTop()
	}
	if msg := L.Get(2); msg != lua.LNil {
		raise(L, "assertion failed: %s", trace.Truncate(r.tostring(msg), maxErrorMsg))
	}
	raise(L, "assertion failed")
	return 0
}

func apiPrint(r *runner, L *lua.LState) int {
	r.write("print", r.joined(L)+"\n")
	return 0
}

func apiLog(r *runner, L *lua.LState) int {
	text := r.joined(L)
	r.write("log", text+"\n")
	if w := r.current(); w != nil {
		w.emit(trace.Event{Type: trace.Log, Node: trace.NoNode, Text: text, Line: r.currentLine(L, 0)})
	}
	return 0
}

func apiSweep(r *runner, L *lua.LState) int {
	keys, params, err := fields(L.Get(1))
	if err != nil {
		raise(L, "sweep: params: %v", err)
	}
	fn := L.Get(2)
	if _, ok := fn.(*lua.LFunction); !ok {
		raise(L, "sweep: fn: want a function, got %s", describe(fn))
	}
	lists := make([][]lua.LValue, len(keys))
	for i, k := range keys {
		if lists[i], err = toList(params.RawGetString(k)); err == nil && len(lists[i]) == 0 {
			err = fmt.Errorf("no values")
		}
		if err != nil {
			raise(L, "sweep: params.%s: %v", trace.Truncate(k, trace.MaxQuoted), err)
		}
	}
	rows := L.NewTable()
	idx := make([]int, len(keys))
	for {
		p := L.CreateTable(0, len(keys))
		for i, k := range keys {
			p.RawSetString(k, lists[i][idx[i]])
		}
		L.Push(fn)
		L.Push(p)
		L.Call(1, 1)
		ret := L.Get(-1)
		L.Pop(1)
		row, ok := ret.(*lua.LTable)
		switch {
		case ret == lua.LNil:
			row = L.NewTable()
		case !ok:
			raise(L, "sweep: fn must return a table or nothing, got %s", describe(ret))
		}
		for i, k := range keys {
			if row.RawGetString(k) == lua.LNil {
				row.RawSetString(k, lists[i][idx[i]])
			}
		}
		rows.Append(row)
		j := len(keys) - 1
		for ; j >= 0; j-- {
			if idx[j]++; idx[j] < len(lists[j]) {
				break
			}
			idx[j] = 0
		}
		if j < 0 {
			break
		}
	}
	L.Push(rows)
	return 1
}

func apiReport(r *runner, L *lua.LState) int {
	rows, err := toList(L.Get(1))
	if err != nil {
		raise(L, "report: rows: %v", err)
	}
	var cols []string
	if c := L.Get(2); c != lua.LNil {
		list, err := toList(c)
		if err != nil {
			raise(L, "report: columns: %v", err)
		}
		for i, v := range list {
			s, err := toString(v)
			if err != nil {
				raise(L, "report: column %d: %v", i+1, err)
			}
			cols = append(cols, s)
		}
	} else if len(rows) > 0 {
		first, ok := rows[0].(*lua.LTable)
		if !ok {
			raise(L, "report: row 1: want a table, got %s", describe(rows[0]))
		}
		each(first, func(k, _ lua.LValue) {
			if s, ok := k.(lua.LString); ok {
				cols = append(cols, string(s))
			}
		})
	}
	header := make([]string, len(cols))
	for c, name := range cols {
		header[c] = trace.Truncate(name, maxCell)
	}
	cells := [][]string{header}
	right := make([]bool, len(cols))
	// least is the table's size so far without padding, the least it will
	// take: the cells of a table far over the output limit are not all
	// built before it is refused.
	least := 0
	for i, rv := range rows {
		row, ok := rv.(*lua.LTable)
		if !ok {
			raise(L, "report: row %d: want a table, got %s", i+1, describe(rv))
		}
		line := make([]string, len(cols))
		for c, name := range cols {
			v := row.RawGetString(name)
			switch x := v.(type) {
			case *lua.LNilType:
			case lua.LNumber:
				right[c] = true
				if _, err := toInt(x); err == nil {
					line[c] = x.String()
				} else {
					line[c] = strconv.FormatFloat(float64(x), 'g', 4, 64)
				}
			default:
				line[c] = trace.Truncate(r.tostring(v), maxCell)
			}
			least += len(line[c])
		}
		if len(cols) > 0 {
			least += 2*len(cols) - 1 // the separators and the newline
		}
		if r.output+uint64(least) > r.outputLimit() {
			r.countOutput("report", least)
		}
		cells = append(cells, line)
	}
	width := columnWidths(cells)
	// Counted before it is built, at its padded size: every line is
	// padded to the widest cells, so a few long cells in many rows make a
	// big table.
	r.countOutput("report", tableBytes(width, len(cells)))
	text := formatTable(cells, right, width)
	if r.opt.Report != nil && text != "" {
		r.opt.Report(cells, right, text)
	}
	io.WriteString(r.out, text)
	return 0
}

// maxCell is the widest cell report prints: a longer value is cut, with
// "...", so that one long value does not pad every row of its column.
const maxCell = 200

// columnWidths is the width of each column of cells: its widest cell.
func columnWidths(cells [][]string) []int {
	width := make([]int, len(cells[0]))
	for _, row := range cells {
		for c, s := range row {
			width[c] = max(width[c], len(s))
		}
	}
	return width
}

// tableBytes is the size of a table of lines lines (the header among
// them) in columns of these widths, at most: formatTable adds the rule
// under the header and does not pad the last column.
func tableBytes(width []int, lines int) int {
	if len(width) == 0 {
		return 0 // formatTable prints nothing
	}
	line := 1 // the newline
	for c, w := range width {
		if c > 0 {
			line += 2
		}
		line += w
	}
	return line * (lines + 1)
}

// formatTable aligns cells (the first row is the header) in columns of
// these widths, under a rule.
func formatTable(cells [][]string, right []bool, width []int) string {
	if len(cells[0]) == 0 {
		return ""
	}
	var b strings.Builder
	for i, row := range cells {
		for c, s := range row {
			if c > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[c]-len(s))
			if right[c] {
				b.WriteString(pad + s)
			} else if c < len(row)-1 {
				b.WriteString(s + pad)
			} else {
				b.WriteString(s)
			}
		}
		b.WriteByte('\n')
		if i == 0 {
			for c := range row {
				if c > 0 {
					b.WriteString("  ")
				}
				b.WriteString(strings.Repeat("-", width[c]))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}
