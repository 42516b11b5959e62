-- A million expect messages of 64 KiB each: dsim check would print 64 GB.
-- They count as output, which stops at its limit with what came before.
-- error: ^api_expect_volume\.lua:6: output limit of \d+ MiB reached: expect would take the run's output \(print, log, report and expect messages\) to \d+ bytes$
local w = sim.world{algorithm = "mutex.raymond", n = 3}
local s = ("\1"):rep(2^16)
for i = 1, 1e6 do expect(true, s) end
