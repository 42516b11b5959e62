-- Every process of Ricart-Agrawala requests at once: each request is a
-- message to every other process, and the commands queue them in Go with
-- hardly an instruction between them. The pending events pace the memory
-- guard, which stops the run cleanly.
-- error: ^api_broadcast\.lua:7: memory budget of \d+ MiB exceeded: the run holds \d+ MiB \(traces: 0 events; pending events: \d+; the rest is the processes' state and Lua values\)$
local w = sim.world{algorithm = "mutex.ricartagrawala", n = 20000, trace = false}
for i = 1, 20000 do w:command(i, "request", {duration = 1}) end
w:run()
