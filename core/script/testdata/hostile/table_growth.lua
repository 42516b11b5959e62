-- A table grows until the memory budget stops it.
-- (With the playground's instruction budget and its larger memory, the
-- instruction budget can run out first.)
-- error: ^table_growth\.lua:6: (memory budget of \d+ MiB exceeded: the run holds \d+ MiB \(traces: 0 events; pending events: 0; the rest is the processes' state and Lua values\)|instruction budget of \d+ exhausted \(endless loop\?\))$
local t = {}
while true do t[#t + 1] = ("x"):rep(100) .. #t end
