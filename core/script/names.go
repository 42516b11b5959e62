package script

import (
	"weak"

	lua "github.com/yuin/gopher-lua"
)

// objectNames gives tables, functions and userdata the names tostring
// shows ("table: #3"): a counter, not an address, so that a run prints the
// same names everywhere. It holds the objects weakly, so that a script
// that names a fresh table in a loop does not keep every table it ever
// named alive; the entries of collected objects are swept out whenever the
// names have doubled since the last sweep. When the collector runs changes
// only which entries are swept, never a name.
type objectNames struct {
	tables   map[weak.Pointer[lua.LTable]]int
	funcs    map[weak.Pointer[lua.LFunction]]int
	userdata map[weak.Pointer[lua.LUserData]]int
	last     int // the last name given
	sweepAt  int // the entries at which to sweep next
}

func newObjectNames() *objectNames {
	return &objectNames{
		tables:   map[weak.Pointer[lua.LTable]]int{},
		funcs:    map[weak.Pointer[lua.LFunction]]int{},
		userdata: map[weak.Pointer[lua.LUserData]]int{},
		sweepAt:  1024,
	}
}

// name returns the number of v, a table, function or userdata, giving it
// the next one on first sight.
func (o *objectNames) name(v lua.LValue) int {
	switch x := v.(type) {
	case *lua.LTable:
		return nameIn(o, o.tables, x)
	case *lua.LFunction:
		return nameIn(o, o.funcs, x)
	case *lua.LUserData:
		return nameIn(o, o.userdata, x)
	}
	panic("script: only objects have names")
}

func nameIn[T any](o *objectNames, m map[weak.Pointer[T]]int, p *T) int {
	w := weak.Make(p)
	if id, ok := m[w]; ok {
		return id
	}
	if len(o.tables)+len(o.funcs)+len(o.userdata) >= o.sweepAt {
		sweep(o.tables)
		sweep(o.funcs)
		sweep(o.userdata)
		o.sweepAt = max(1024, 2*(len(o.tables)+len(o.funcs)+len(o.userdata)))
	}
	o.last++
	m[w] = o.last
	return o.last
}

// sweep deletes the entries of collected objects.
func sweep[T any](m map[weak.Pointer[T]]int) {
	for w := range m {
		if w.Value() == nil {
			delete(m, w)
		}
	}
}
