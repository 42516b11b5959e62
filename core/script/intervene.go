package script

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"dsim/core/sim"
	"dsim/core/trace"
)

// intervention is one sim.intervene{...}: a crash, a recovery, a cut link
// or a command applied to a world at a time from outside the scenario's own
// logic. The playground's "fork from here" and its process menu write these
// at the top of a scenario, so the fork is part of the text the user keeps
// and reruns.
type intervention struct {
	world int
	at    sim.Time
	what  string // "crash", "recover", "cut" or "command"
	a, b  sim.NodeID
	cmd   string // the command's name, given without args
	line  int
}

func (iv *intervention) String() string {
	switch iv.what {
	case "cut":
		return fmt.Sprintf("cut the link %d-%d", iv.a, iv.b)
	case "command":
		return fmt.Sprintf("command %s to %d", iv.cmd, iv.a)
	}
	return fmt.Sprintf("%s %d", iv.what, iv.a)
}

func apiIntervene(r *runner, L *lua.LState) int {
	const fn = "sim.intervene"
	keys, t, err := fields(L.Get(1))
	if err != nil {
		raise(L, "%s: %v", fn, err)
	}
	iv := intervention{world: 1, line: r.currentLine(L, 0)}
	action := func(what string) {
		if iv.what != "" {
			raise(L, "%s: give one of crash, recover, cut or command, not both %s and %s", fn, iv.what, what)
		}
		iv.what = what
	}
	node := false // a command's process is given
	for _, k := range keys {
		v := t.RawGetString(k)
		switch k {
		case "world":
			n := get(L, v, fn, "world", toInt)
			if n < 1 {
				raise(L, "%s: world: worlds count from 1, got %d", fn, n)
			}
			iv.world = int(n)
		case "t":
			iv.at = sim.Time(get(L, v, fn, "t", toNonNegative))
		case "crash", "recover":
			action(k)
			iv.a = get(L, v, fn, k, toID)
		case "cut":
			action(k)
			ids := get(L, v, fn, "cut", toIDs)
			if len(ids) != 2 {
				raise(L, "%s: cut: want two process ids, e.g. cut={1, 2}, got %d", fn, len(ids))
			}
			iv.a, iv.b = ids[0], ids[1]
		case "command":
			action(k)
			iv.cmd = get(L, v, fn, k, toString)
		case "node":
			iv.a, node = get(L, v, fn, k, toID), true
		default:
			raise(L, "%s: unknown key %s (known: world, t, crash, recover, cut, command, node)", fn, trace.Quote(k))
		}
	}
	if iv.what == "" {
		raise(L, "%s: give one of crash=ID, recover=ID, cut={A, B} or command=NAME with node=ID", fn)
	}
	if (iv.what == "command") != node {
		raise(L, "%s: node=ID goes with command=NAME, and only with it", fn)
	}
	if iv.world <= len(r.worlds) {
		if err := r.schedule(r.worlds[iv.world-1], iv); err != nil {
			raise(L, "%s: %v", fn, err)
		}
		return 0
	}
	r.interventions = append(r.interventions, iv)
	return 0
}

// intervene schedules the interventions waiting for world w, which is
// being built.
func (r *runner) intervene(w *world) error {
	for _, iv := range r.interventions {
		if iv.world != w.index {
			continue
		}
		if err := r.schedule(w, iv); err != nil {
			return fmt.Errorf("sim.intervene at line %d: %v", iv.line, err)
		}
	}
	return nil
}

// schedule checks an intervention against world w and schedules it. When it
// comes, a log event names it; if it cannot be done then (the process is
// already down, say), the script stops with an error at its line.
func (r *runner) schedule(w *world, iv intervention) error {
	ids := []sim.NodeID{iv.a}
	if iv.what == "cut" {
		ids = append(ids, iv.b)
	}
	for _, id := range ids {
		if !w.s.Has(id) {
			return fmt.Errorf("world %d has no process %d (ids: %s)", w.index, id, w.idList())
		}
	}
	if iv.at < w.s.Now() {
		return fmt.Errorf("time %d is in the past of world %d (now is %d)", iv.at, w.index, w.s.Now())
	}
	w.s.At(iv.at, func() {
		w.emit(trace.Event{Type: trace.Log, Node: trace.NoNode, Text: "sim.intervene: " + iv.String(), Line: iv.line})
		var err error
		switch iv.what {
		case "crash":
			err = w.crash(iv.a, iv.line)
		case "recover":
			err = w.recover(iv.a, iv.line)
		case "cut":
			err = w.split(w.s.Cut(iv.a, iv.b), iv.line, fmt.Sprintf("the link %d-%d is cut", iv.a, iv.b))
		case "command":
			// the command's event points at this line, as w:command's do
			saved := w.cmdLine
			w.cmdLine = iv.line
			err = w.s.Command(iv.a, iv.cmd, nil)
			w.cmdLine = saved
		}
		if err != nil {
			r.fail(&Error{File: r.name, Line: iv.line, Msg: fmt.Sprintf("sim.intervene: at t=%d: %v", iv.at, err)})
			w.s.Stop()
		}
	})
	return nil
}
