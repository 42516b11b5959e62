-- A token passed on at once (hold = 0) for ever on links of latency 0: no
-- Lua runs at all, and the clock never moves.
-- (Each event at one instant stays queued until the clock moves: a small
-- memory budget is reached first.)
-- error: ^zero_latency\.lua:8: (world 1: livelock: \d+ events at t=0 without the clock moving \(a callback or a message loop with no delay\?\)|memory budget of \d+ MiB exceeded: the run holds \d+ MiB \(traces: 0 events; pending events: \d+; the rest is the processes' state and Lua values\))$
local w = sim.world{algorithm = "mutex.tokenring", n = 3, latency = 0, max_events = 0, trace = false,
  config = {hold = 0}}
w:run()
