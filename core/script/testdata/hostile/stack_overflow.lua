-- Endless recursion, through Lua and through Go.
-- output: false
-- error: ^stack_overflow\.lua:5: stack overflow$
print(pcall(function() local function f() return 1 + f() end return f() end) and "true" or "false")
local t = setmetatable({}, {__index = function(t, k) return t[k] end})
local x = t.anything
