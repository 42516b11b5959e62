-- Two expectations that hold, and a print (which goes to stderr).
local w = sim.world{ algorithm = "election.changroberts", n = 3, checks = {}, topology = "complete" } -- no election runs: its properties would fail
w:run()
print("processes", #w:ids())
expect(#w:ids() == 3, "three processes")
expect(w:now() >= 0, "time never runs backwards")
