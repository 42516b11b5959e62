-- A callback that reschedules itself at the same tick, with no event limit.
-- (The budget is the playground's: a smaller one runs out first.)
-- budget: 50000000
-- error: ^livelock\.lua:8: world 1: livelock: \d+ events at t=1 without the clock moving \(a callback or a message loop with no delay\?\)$
local w = sim.world{algorithm = "election.bully", n = 3, max_events = 0}
local function f() w:after(0, f) end
w:at(1, f)
w:run()
