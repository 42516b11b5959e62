-- Cristian's method over asymmetric links: Coulouris et al., "Distributed Systems: Concepts and
-- Design", section 14.3.2 "Cristian's method for synchronizing clocks": the client sets its clock to
-- t + T_round/2 and is accurate to ±(T_round/2 − min), min being the least time a crossing takes.
--
-- Server 1 reads true time. Client 2's request takes 2 ticks (the minimum, min = 2) and the reply 10:
-- T_round is 12 and the client sets t + 6, but the reply really took 10, so its clock ends 4 behind:
-- an error it cannot see, since it only measures the round trip, and exactly the bound it reports,
-- 6 − 2 = 4: the worst case the bound allows. Client 3's links take 6 each way: no error, the same
-- bound. Both clients start 100 ticks out.
--
-- World 2 is the same run with min = 5, more than the request really takes: the client reports ±1,
-- its error is still 4, and clock.accuracy names the event where it reads beyond its claim.

local function world(min)
  local w = sim.world{ algorithm = "clock.cristian", ids = { 1, 2, 3 }, latency = 6,
                       config = { server = 1, k = 1, period = 1000, min = min, drift_ppm = 0 },
                       checks = (min > 2) and {} or nil }
  w:link(2, 1, { latency = 2 })
  w:link(1, 2, { latency = 10 })
  w:clock(2, { offset = 100 })
  w:clock(3, { offset = -100 })
  w:run{ until_time = 50 }
  return w
end

local w = world(2)
local rows = w:clock_errors{ every = 12, to = 24 }
report(rows, { "t", "P1", "P2", "P3" })
expect(rows[2].P2 == -4 and rows[2].P3 == 0, "at t=12 client 2 is 4 behind (it cannot see the asymmetry), client 3 exact")
expect(w:node(2):get("clock_bound") == 4 and w:node(3):get("clock_bound") == 4,
       "both report ±(T_round/2 − min) = 12/2 − 2 = 4")
expect(w:node(1):get("clock_bound") == 0, "the server claims 0: it is the reference")
expect(w:check("clock.accuracy"))
expect(w:check("clock.skew"))

local b = world(5)
expect(b:node(2):get("clock_bound") == 1, "with min = 5 the client claims ±1")
local ok, why = b:check("clock.accuracy")
expect(not ok and why:find("process 2 reads 8 at true time 12: off by 4, beyond its claimed bound 1", 1, true), "caught: " .. why)
