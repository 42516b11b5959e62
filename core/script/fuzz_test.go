package script

import (
	"errors"
	"testing"
)

// FuzzLoad runs arbitrary source: it must never panic or hang, and every
// failure must be an *Error naming the file.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		busyScenario,
		"while true do end",
		"local t = {} while true do t[#t+1] = ('x'):rep(100) end",
		"x = = 1",
		"local w = sim.world{algorithm='test.echo', n=3}\nw:on('*', function(ev) log(ev) end)\nw:command(1, 'ping')\nw:run()",
		"local w = sim.world{algorithm='test.echo', n=3}\nw:command(2, 'boom')",
		"print(string.format('%5.1f %q %s', 1.5, 'x', {}))",
		"sweep({a={1,2}}, function(p) return {b=p.a} end)",
		"error(setmetatable({}, {__tostring=function() error('x') end}))",
		"local function f() return f() + 1 end f()",
		"return ((((((((((1))))))))))",
		"local s = ('x'):rep(1000) ; s:gsub('x', '%0%0')",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		res, err := Run("f.lua", []byte(src), Options{Seed: 1, Budget: 20_000, MaxMemory: 256 << 20, MaxEvents: 100_000})
		if res == nil {
			t.Fatal("nil result")
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "f.lua" {
				t.Fatalf("error %T %v is not an *Error naming f.lua", err, err)
			}
		}
	})
}
