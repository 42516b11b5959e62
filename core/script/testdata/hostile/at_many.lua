-- Ten million scheduled callbacks: the kernel's events and the closures
-- count against the memory budget.
-- error: ^at_many\.lua:5: memory budget of \d+ MiB exceeded: the run holds \d+ MiB \(traces: 0 events; pending events: \d+; the rest is Lua values\)$
local w = sim.world{algorithm = "election.bully", n = 3}
for i = 1, 1e7 do w:at(i, function() end) end
