-- NTP's synchronization subnet: Coulouris et al., "Distributed Systems: Concepts and Design",
-- section 14.3.4 "The Network Time Protocol" (strata, the offset θ and delay δ of four
-- timestamps, the clock filter), and Tanenbaum and van Steen, "Distributed Systems: Principles and
-- Paradigms", section 6.1.3 "Clock Synchronization Algorithms".
--
-- Seven processes on a binary tree rooted at P1, the stratum-1 server, whose clock reads true time.
-- P2 and P3 synchronize to it (stratum 2), P4..P7 to them (stratum 3). Every other clock starts off
-- and drifts by up to 0.1%, and each crossing takes 1 to 5 ticks: θ is off by up to δ/2 − min,
-- and the clock filter keeps, of the last 8 samples, the one of least δ. The bounds the processes
-- claim add up down the tree: a stratum-3 process claims its own error plus its server's, so the
-- lower strata (higher numbers) claim larger bounds. The errors they show stay within their claims;
-- they tend to grow down the tree too, but not always: a stratum-3 clock that drew short round trips
-- can end up as close to true time as its server.

local w = sim.world{ algorithm = "clock.ntp", n = 7, topology = "tree", seed = 7,
                     latency = { "uniform", 1, 5 },
                     config = { period = 100, timeout = 12, min = 1, drift_ppm = 1000 } }
local drift = { 0, 0.001, -0.001, 0.0008, -0.0006, 0.001, -0.001 }
local offset = { 0, 40, -25, 300, -200, 15, -60 }
for id = 2, 7 do w:clock(id, { offset = offset[id], drift = drift[id] }) end

w:run{ until_time = 3000 }
local strata = {}
for id = 1, 7 do strata[id] = w:node(id):get("stratum") end
expect(table.concat(strata, " ") == "1 2 2 3 3 3 3", "strata follow the tree: " .. table.concat(strata, " "))

-- the largest error each process showed, and its latest claim, from t=1000 (settled) on
local worst = {}
for _, row in ipairs(w:clock_errors{ every = 10, from = 1000 }) do
  for id = 1, 7 do worst[id] = math.max(worst[id] or 0, math.abs(row["P" .. id])) end
end
local rows, by = {}, { {}, {}, {} }
for id = 1, 7 do
  local s, b = strata[id], w:node(id):get("clock_bound")
  rows[#rows + 1] = { process = "P" .. id, stratum = s, claim = b, worst = worst[id] }
  by[s][#by[s] + 1] = { claim = b, worst = worst[id] }
end
report(rows, { "process", "stratum", "claim", "worst" })
local function mean(list, key)
  local sum = 0
  for _, x in ipairs(list) do sum = sum + x[key] end
  return sum / #list
end
expect(mean(by[3], "claim") > mean(by[2], "claim") and mean(by[2], "claim") > 0, "the claims grow down the strata")
local within = true
for id = 1, 7 do within = within and worst[id] <= w:node(id):get("clock_bound") end
expect(within and worst[1] == 0, "every error is within its process's claim; the reference has none")
print(string.format("mean error: %.1f at stratum 2, %.1f at stratum 3", mean(by[2], "worst"), mean(by[3], "worst")))
expect(w:check("clock.accuracy"))
expect(w:check("clock.skew"))
