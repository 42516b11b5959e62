-- A runtime error on line 5, after one expectation.
local w = sim.world{ algorithm = "election.changroberts", n = 3, checks = {} } -- no election runs: its properties would fail
w:run()
expect(true, "recorded before the error")
local x = nil + 1
