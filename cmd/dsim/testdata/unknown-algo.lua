-- An algorithm the registry does not know.

local w = sim.world{ algorithm = "election.nope", n = 3 }
