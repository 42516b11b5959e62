-- A table grows until the memory budget stops it.
-- error: ^table_growth\.lua:4: memory budget of \d+ MiB exceeded: the run holds \d+ MiB \(traces: 0 events; pending events: 0; the rest is Lua values\)$
local t = {}
while true do t[#t + 1] = ("x"):rep(100) .. #t end
