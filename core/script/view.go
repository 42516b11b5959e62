package script

import (
	"reflect"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/trace"
)

// A view is a Go value that scripts read like a table: ev.kind,
// ev.msg.path[1], pairs(ev), print(ev). Fields are converted only when read.
// Hooks see every event, and a gopher-lua table with a dozen string keys
// costs several microseconds to build, many times the kernel's own cost
// per event; a view costs one small allocation until a field is read.
type view interface {
	field(r *runner, name string) lua.LValue // LNil: no such field
	names(r *runner) []string                // the fields present, in order
}

// eventView is a trace event (a copy: the kernel reuses its own).
type eventView struct {
	e   trace.Event
	msg lua.LValue // cached, so that ev.msg is one object
}

// fieldIndex finds an event field by name.
var fieldIndex = func() map[string]int {
	m := make(map[string]int, len(eventFields))
	for i, f := range eventFields {
		m[f.name] = i
	}
	return m
}()

func (v *eventView) field(r *runner, name string) lua.LValue {
	i, ok := fieldIndex[name]
	if !ok || !eventFields[i].types.has(v.e.Type) {
		return lua.LNil
	}
	if name == "msg" {
		if v.msg == nil {
			v.msg = eventFields[i].get(r, &v.e)
		}
		return v.msg
	}
	return eventFields[i].get(r, &v.e)
}

func (v *eventView) names(r *runner) []string {
	var out []string
	for _, f := range eventFields {
		if v.field(r, f.name) != lua.LNil {
			out = append(out, f.name)
		}
	}
	return out
}

// structView is a message (or a struct inside one), fields by trace name.
type structView struct{ v reflect.Value }

func (v *structView) field(r *runner, name string) lua.LValue {
	f, ok := r.field(v.v.Type(), name)
	if !ok {
		return lua.LNil
	}
	return r.reflectToLua(v.v.Field(f.Index))
}

func (v *structView) names(r *runner) []string {
	fs := r.fieldsOf(v.v.Type())
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

func (r *runner) eventObject(e *trace.Event) *lua.LUserData {
	return r.newView(&eventView{e: *e})
}

func (r *runner) newView(v view) *lua.LUserData {
	ud := r.L.NewUserData()
	ud.Value = v
	ud.Metatable = r.viewMT
	return ud
}

func asView(v lua.LValue) (view, bool) {
	if ud, ok := v.(*lua.LUserData); ok {
		vw, ok := ud.Value.(view)
		return vw, ok
	}
	return nil, false
}

func (r *runner) newViewMT() *lua.LTable {
	L := r.L
	self := func(L *lua.LState) view {
		v, ok := asView(L.Get(1))
		if !ok {
			raise(L, "not an event or message")
		}
		return v
	}
	mt := L.NewTable()
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		k, _ := L.Get(2).(lua.LString)
		L.Push(self(L).field(r, string(k)))
		return 1
	}))
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		raise(L, "events and messages are read-only")
		return 0
	}))
	mt.RawSetString("__tostring", L.NewFunction(func(L *lua.LState) int {
		var b strings.Builder
		r.show(&b, L.Get(1), 0)
		L.Push(lua.LString(b.String()))
		return 1
	}))
	mt.RawSetString("__metatable", lua.LString("read-only"))
	return mt
}

// pairs is the standard pairs, extended to views.
func (r *runner) pairs(next lua.LValue) lua.LGFunction {
	return func(L *lua.LState) int {
		v, ok := asView(L.Get(1))
		if !ok {
			L.Push(next)
			L.Push(L.CheckTable(1))
			L.Push(lua.LNil)
			return 3
		}
		names := v.names(r)
		i := 0
		L.Push(L.NewFunction(func(L *lua.LState) int {
			if i >= len(names) {
				L.Push(lua.LNil)
				return 1
			}
			L.Push(lua.LString(names[i]))
			L.Push(v.field(r, names[i]))
			i++
			return 2
		}))
		L.Push(L.Get(1))
		L.Push(lua.LNil)
		return 3
	}
}
