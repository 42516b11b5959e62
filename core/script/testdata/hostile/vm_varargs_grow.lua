-- Varargs that grow at every call: each call copies them all, charged by
-- count.
-- error: ^vm_varargs_grow\.lua:4: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local function f(...) return f(1, ...) end
f()
