package script

import (
	"strings"
	"testing"
)

func TestSandboxRemovesHostAccess(t *testing.T) {
	_, out := mustRun(t, `
for _, name in ipairs{"io", "os", "debug", "coroutine", "package", "channel", "load", "loadstring",
    "dofile", "loadfile", "require", "module", "collectgarbage", "getfenv", "setfenv", "newproxy",
    "_printregs", "_GOPHER_LUA_VERSION"} do
  if _G[name] ~= nil then print("present:", name) end
end
print(string.dump, getmetatable("").__index == string)
for _, name in ipairs{"pairs", "ipairs", "next", "pcall", "xpcall", "error", "select", "type",
    "tonumber", "tostring", "unpack", "rawget", "rawset", "rawequal", "setmetatable", "getmetatable"} do
  if type(_G[name]) ~= "function" then print("missing:", name) end
end
print(type(table.sort), type(string.gsub), type(math.floor), math.pi > 3)`)
	if want := lines("nil\ttrue", "function\tfunction\tfunction\ttrue"); out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

// The standard libraries register from Go maps; pairs() over them and over
// _G must still visit keys in one fixed (sorted) order.
func TestGlobalsIterateInSortedOrder(t *testing.T) {
	const src = `
local names = {}
for k in pairs(_G) do names[#names+1] = k end
for k in pairs(string) do names[#names+1] = "string." .. k end
for k in pairs(math) do names[#names+1] = "math." .. k end
print(table.concat(names, " "))`
	_, first := mustRun(t, src)
	for range 5 {
		if _, again := mustRun(t, src); again != first {
			t.Fatalf("pairs order changed between runs:\n%s\n%s", first, again)
		}
	}
	names := strings.Fields(first)
	var globals []string
	for _, n := range names {
		if !strings.Contains(n, ".") {
			globals = append(globals, n)
		}
	}
	for i := 1; i < len(globals); i++ {
		if globals[i-1] > globals[i] {
			t.Errorf("_G keys not sorted: %q before %q", globals[i-1], globals[i])
		}
	}
}

func TestMathRandomFollowsTheSeed(t *testing.T) {
	const src = `
local out = {}
for i = 1, 8 do out[#out+1] = math.random(1, 1000) end
out[#out+1] = string.format("%.6f", math.random())
out[#out+1] = math.random(3)
print(table.concat(out, " "))
math.randomseed(42)
local a = math.random(1, 1000000)
math.randomseed(42)
print(a == math.random(1, 1000000))`
	_, seed1 := mustRun(t, src, Options{Seed: 1})
	_, again := mustRun(t, src, Options{Seed: 1})
	_, seed2 := mustRun(t, src, Options{Seed: 2})
	if seed1 != again {
		t.Errorf("same seed, different numbers:\n%s%s", seed1, again)
	}
	if seed1 == seed2 {
		t.Errorf("seeds 1 and 2 drew the same numbers:\n%s", seed1)
	}
	if !strings.HasSuffix(seed1, "\ntrue\n") {
		t.Errorf("randomseed(42) did not restart the stream:\n%s", seed1)
	}
	for _, n := range strings.Fields(strings.Split(seed1, "\n")[0])[:8] {
		if v := atoi(t, n); v < 1 || v > 1000 {
			t.Errorf("math.random(1, 1000) gave %d", v)
		}
	}
	_, _, err := run(t, "math.random(0)")
	if err == nil || !strings.Contains(err.Error(), "interval is empty") {
		t.Errorf("math.random(0): %v", err)
	}
}

func TestStringFormat(t *testing.T) {
	cases := []struct{ call, want string }{
		{`"%d|%5d|%-4d|%03d", 3.7, 42, 7, 5`, "3|   42|7   |005"},
		{`"%5.2f|%e|%g|%g", 1/3, 12345.678, 1/3, 1e20`, " 0.33|1.234568e+04|0.333333|1e+20"},
		{`"%x|%X|%o|%c", 255, 255, 8, 65`, "ff|FF|10|A"},
		{`"%s|%10s|%.2s", "abc", "r", "xyz"`, "abc|         r|xy"},
		{`"%q", 'a"b\n'`, "\"a\\\"b\\\n\""},
		{`"%s %s %s", {}, true, nil`, "table: #1 true nil"},
		{`"100%%"`, "100%"},
	}
	for _, c := range cases {
		_, out := mustRun(t, "print(string.format("+c.call+"))")
		if out != c.want+"\n" {
			t.Errorf("string.format(%s) = %q, want %q", c.call, out, c.want)
		}
	}
	for _, bad := range []struct{ call, want string }{
		{`"%100d", 1`, "t.lua:1: bad argument #1 to 'format' (width too long)"},
		{`"%.123f", 1`, "t.lua:1: bad argument #1 to 'format' (precision too long)"},
		{`"%y", 1`, "t.lua:1: invalid option '%y' to 'format'"},
		{`"%p", {}`, "t.lua:1: invalid option '%p' to 'format'"},
		{`"50%"`, "t.lua:1: invalid option '%' to 'format'"},
	} {
		_, _, err := run(t, "local s = string.format("+bad.call+")")
		if err == nil || err.Error() != bad.want {
			t.Errorf("string.format(%s): error %v, want %s", bad.call, err, bad.want)
		}
	}
}

func TestTostringIsDeterministic(t *testing.T) {
	_, out := mustRun(t, `
local a, b = {}, {}
print(tostring(a), tostring(b), tostring(a), tostring(print) ~= tostring(pairs))
print(tostring(setmetatable({}, {__tostring = function() return "custom" end})))
local w = sim.world{algorithm="test.echo", n=2}
print(w, w:node(2))`)
	want := lines("table: #1\ttable: #2\ttable: #1\ttrue", "custom", "world 1 (test.echo)\tnode 2 of world 1")
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

// A hook that logs every event it sees, log events included, nests until
// the run's output is full (or the Lua stack); the text it logs must not
// grow without bound.
func TestLoggingLogEventsStaysBounded(t *testing.T) {
	_, _, err := run(t, `
local w = sim.world{algorithm="test.echo", n=3}
w:on("*", function(ev) log(ev) end)
w:command(1, "ping")`)
	if err == nil || !strings.HasPrefix(err.Error(), "t.lua:3: output limit of 16 MiB reached: log would take") {
		t.Errorf("error %v, want the output limit in the hook", err)
	}
	_, out := mustRun(t, `print(("x"):rep(100000))`)
	if len(out) != maxShow+4 || !strings.HasSuffix(out, "...\n") {
		t.Errorf("a 100000-byte print gave %d bytes", len(out))
	}
}

func TestTableConcatReturnsAString(t *testing.T) {
	_, out := mustRun(t, `print(type(table.concat({2}, " ")), table.concat({2}) == "2", table.concat({1, 2.5, "x"}, ","), table.concat({}, ",") == "")`)
	if out != "string\ttrue\t1,2.5,x\ttrue\n" {
		t.Errorf("got %q", out)
	}
	_, _, err := run(t, "local x = 1\nlocal s = table.concat({{}})")
	if err == nil || !strings.HasPrefix(err.Error(), "t.lua:2: ") {
		t.Errorf("error %v, want it at t.lua:2", err)
	}
}
