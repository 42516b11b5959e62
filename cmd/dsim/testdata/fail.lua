-- One expectation holds, one does not; the script runs to its end.
local w = sim.world{ algorithm = "election.changroberts", n = 3, checks = {} } -- no election runs: its properties would fail
w:run()
expect(true, "this one holds")
expect(#w:ids() == 4, "four processes (wrong on purpose)")
