-- error: ^api_ids_loop\.lua:6: instruction budget of \d+ exhausted \(listing the processes\)$
-- Listing the processes of a large world is a scan of every process,
-- charged to the script: a loop of w:ids() ends on the budget in seconds
-- rather than running for minutes.
local w = sim.world{ algorithm = "election.changroberts", n = 20000, trace = false, checks = {} }
for i = 1, 1e8 do local x = #w:ids() end
