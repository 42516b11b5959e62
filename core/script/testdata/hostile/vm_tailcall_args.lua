-- An endless tail call with arguments, caught by pcall first.
-- output: false	vm_tailcall_args.lua:4: boom
-- error: ^vm_tailcall_args\.lua:6: instruction budget of \d+ exhausted \(endless loop\?\)$
local function g(n, s) if n == 0 then error("boom") end return g(n - 1, s) end
print(pcall(g, 100000, "x"))
local function f(a, b, c) return f(a + 1, b, c .. "") end
f(1, {}, "c")
