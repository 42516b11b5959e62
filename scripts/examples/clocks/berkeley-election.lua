-- The Berkeley algorithm with an elected master: Coulouris et al., "Distributed Systems: Concepts and
-- Design", section 14.3.3 "The Berkeley algorithm" (the fault-tolerant average), and Tanenbaum and
-- van Steen, "Distributed Systems: Principles and Paradigms", section 6.1.3 "Clock Synchronization
-- Algorithms", Figure 6-7 (the master polls, averages and sends each machine its adjustment), the
-- master chosen by the bully algorithm (Coulouris, section 15.3 "Elections").
--
-- Four processes; P4, the highest, wins the boot election and is the master. P1 is 30 ahead of it,
-- P3 20 behind, and P2's clock is faulty, 500 ahead: the fault-tolerant average (cutoff 60) leaves
-- P2 out, averages 0, +30 and −20 to +3, and sends each its own adjustment, P2's included. Every
-- process slews: no clock goes back (clock.monotonic), even P2's, which loses 497 ticks over 498.
-- Then P4 crashes: the others' probes go unanswered, P3 wins the bully election and is the new
-- master, whose rounds keep the clocks within their claimed bounds (clock.skew).

local w = sim.world{ algorithm = "clock.berkeley", ids = { 1, 2, 3, 4 }, latency = 2, seed = 3,
                     config = { period = 200, timeout = 10, min = 2, cutoff = 60, slew = 100, drift_ppm = 2000,
                                election_probe = 100, election_T = 10 } }
w:clock(1, { offset = 30, drift = 0.001 })
w:clock(2, { offset = 500 })
w:clock(3, { offset = -20 })
w:clock(4, { offset = 0 })

w:run{ until_time = 150 }
expect(w:node(4):get("leader") == 4 and w:node(1):get("leader") == 4, "P4 won the boot election: it is the master")
local adj = {}
for _, e in ipairs(w:events{ type = "send", kind = "ADJUST" }) do adj[#adj + 1] = string.format("P%d %+d", e.to, e.msg.delta) end
expect(table.concat(adj, ", ") == "P1 -27, P2 -497, P3 +23",
       "offsets +30, +500, −20 and the master's 0: P2 is cut off, the average is +3: " .. table.concat(adj, ", "))
local m = w:node(4):corrections()
expect(#m == 1 and m[1].delta == 3, "the master slews its own clock by +3")
local rows = w:clock_errors{ every = 150, to = 150 }
expect(math.abs(rows[2].P1 - rows[2].P4) <= 2 and math.abs(rows[2].P3 - rows[2].P4) <= 2 and rows[2].P2 - rows[2].P4 > 100,
       "at t=150 P1 and P3 are within 2 of the master; P2 is still slewing its 497 ticks away")

w:at(300, function() w:crash(4) end)
w:run{ until_time = 1000 }
expect(w:node(3):get("role") == "leader" and w:node(1):get("leader") == 3, "P4 crashed: P3 won the election and is the master")
expect(w:count{ type = "send", kind = "ADJUST", node = 3 } >= 2, "P3 runs rounds: it sends adjustments")
rows = w:clock_errors{ every = 100, to = 1000 }
report(rows, { "t", "P1", "P2", "P3", "P4" })
expect(rows[8].P1 == rows[8].P3 and math.abs(rows[8].P2 - rows[8].P3) <= 2, "at t=700 P1, P2 and P3 agree within 2")
expect(w:check("clock.skew"))
expect(w:check("clock.monotonic"))
