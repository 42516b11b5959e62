-- output: work-limit
-- Every process requesting at once under Ricart-Agrawala: each defers up
-- to n requests and publishes its deferred list at each one, n³ values
-- copied in all against 2n² events. The work limit, 8 values per event of
-- the event ceiling, stops the run within the ceiling's time rather than
-- after minutes (at n = 2000 under the CLI's ceiling, in a second rather
-- than 20); here a small ceiling shows it at n = 200.
local w = sim.world{ algorithm = "mutex.ricartagrawala", n = 200, trace = false, checks = {}, max_events = 100000 }
for i = 1, 200 do w:command(i, "request", { duration = 1 }) end
print(w:run().reason)
