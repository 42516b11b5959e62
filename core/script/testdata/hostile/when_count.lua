-- A w:when predicate that scans the whole trace after every event.
-- error: ^when_count\.lua:4: instruction budget of \d+ exhausted \(scanning the trace in w:count\)$
local w = sim.world{algorithm = "mutex.tokenring", n = 5}
w:when(function() return w:count{type = "deliver"} < 0 end, function() end)
w:run{until_time = 10^7}
