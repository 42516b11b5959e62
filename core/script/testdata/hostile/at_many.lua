-- Ten million scheduled callbacks: the kernel's events and the closures
-- count against the memory budget.
-- (With the playground's instruction budget and its larger memory, the
-- instruction budget can run out first.)
-- error: ^at_many\.lua:7: (memory budget of \d+ MiB exceeded: the run holds \d+ MiB \(traces: 0 events; pending events: \d+; the rest is the processes' state and Lua values\)|instruction budget of \d+ exhausted \(endless loop\?\))$
local w = sim.world{algorithm = "election.bully", n = 3}
for i = 1, 1e7 do w:at(i, function() end) end
