-- Cristian's method, the Berkeley algorithm and NTP on the same drifting clocks: Coulouris et al.,
-- "Distributed Systems: Concepts and Design", sections 14.3.2 "Cristian's method for synchronizing
-- clocks", 14.3.3 "The Berkeley algorithm" and 14.3.4 "The Network Time Protocol"; Tanenbaum and van
-- Steen, "Distributed Systems: Principles and Paradigms", section 6.1.3 "Clock Synchronization
-- Algorithms".
--
-- Three worlds with identical clocks and links: P1 reads true time (Cristian's time server, NTP's
-- stratum-1 reference; under Berkeley just one more clock), the others start up to 120 ticks off
-- and drift by up to 0.1%; each crossing takes 1 to 4 ticks. Cristian and NTP bring every clock to
-- within a few ticks of true time (external synchronization). Berkeley only makes the clocks agree
-- (internal synchronization): they meet at their average, some 45 ticks ahead of true time, and
-- stay there, close to one another but not to true time. In the playground, "Compare worlds" under
-- the diagram draws the three worlds' largest clock errors over time in one chart.

local offset = { 0, 50, 80, -20, 120 }
local drift = { 0, 0.001, -0.001, 0.0005, -0.0008 }
local function world(algorithm, config)
  config.period, config.timeout, config.min, config.drift_ppm = 100, 10, 1, 1000
  local w = sim.world{ algorithm = algorithm, n = 5, topology = "complete", seed = 11,
                       latency = { "uniform", 1, 4 }, config = config }
  for id = 2, 5 do w:clock(id, { offset = offset[id], drift = drift[id] }) end
  w:run{ until_time = 2000 }
  return w
end

local worlds = {
  { name = "cristian", w = world("clock.cristian", { server = 1 }) },
  { name = "berkeley", w = world("clock.berkeley", { cutoff = 200 }) },
  { name = "ntp", w = world("clock.ntp", { reference = 1 }) },
}
local rows, by = {}, {}
for _, x in ipairs(worlds) do
  -- from t=500, once every world has synchronized: the worst error from true time, and the worst
  -- spread between two clocks
  local err, skew = 0, 0
  for _, r in ipairs(x.w:clock_errors{ every = 10, from = 500 }) do
    local lo, hi = math.huge, -math.huge
    for id = 1, 5 do
      local e = r["P" .. id]
      err, lo, hi = math.max(err, math.abs(e)), math.min(lo, e), math.max(hi, e)
    end
    skew = math.max(skew, hi - lo)
  end
  rows[#rows + 1] = { algorithm = x.name, worst_error = err, worst_skew = skew }
  by[x.name] = rows[#rows]
end
report(rows, { "algorithm", "worst_error", "worst_skew" })
for _, x in ipairs(worlds) do
  print(x.name .. ": every clock's error from true time")
  report(x.w:clock_errors{ every = 250 }, { "t", "P1", "P2", "P3", "P4", "P5" })
end

expect(by.cristian.worst_error <= 5 and by.ntp.worst_error <= 5, "Cristian and NTP keep every clock within 5 ticks of true time")
expect(by.berkeley.worst_error > 30 and by.berkeley.worst_skew <= 5,
       "Berkeley keeps the clocks within 5 of one another, but over 30 from true time")
for _, x in ipairs(worlds) do
  for _, p in ipairs(x.name == "berkeley" and { "clock.skew", "clock.monotonic" } or { "clock.accuracy", "clock.skew" }) do
    expect(x.w:check(p))
  end
end
