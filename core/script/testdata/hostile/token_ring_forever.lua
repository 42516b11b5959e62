-- max_events = 0 on an idle token ring: the host's event ceiling stops it.
-- output: event-limit
local w = sim.world{algorithm = "mutex.tokenring", n = 3, max_events = 0, trace = false}
print(w:run().reason)
