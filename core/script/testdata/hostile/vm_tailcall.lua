-- An endless tail call: upstream's traceback had a line per tail call, and
-- building it when the budget ran out took gigabytes.
-- error: ^vm_tailcall\.lua:4: instruction budget of \d+ exhausted \(endless loop\?\)$
local function f() return f() end
f()
