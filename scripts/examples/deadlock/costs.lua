-- Detection messages per deadlock for each detector, on the same random workloads: Silberschatz,
-- Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section
-- "Deadlock Handling" (the centralized approach, with reports on every change or periodic, and the
-- fully distributed approach with P_ex), and Chandy, Misra and Haas, "Distributed Deadlock
-- Detection" (edge chasing), for comparison.
--
-- Each world: 4 sites with one item each, 3 random transactions per site of 3 operations (80%
-- writes) begun about every 10 ticks, links of latency 1..3; seeds 1 to 5, the same transactions
-- for every detector. Counted per run: the deadlocks declared (the deadlock key), the detector's own
-- messages (centralized: REPORT, CONFIRM for the fix, VICTIM; pex: DETECT, and apart the STATUS its
-- P_ex edges need; cmh: PROBE), and their ratio. The transaction model's messages (REQUEST, GRANT,
-- UNLOCK, ABORT) are the same kind of traffic for all and left out. A periodic run is cut at t=3000.

local detectors = {
  { name = "centralized (change)", algorithm = "deadlock.centralized", config = {}, kinds = { "REPORT", "CONFIRM", "VICTIM" } },
  { name = "centralized (periodic 20)", algorithm = "deadlock.centralized", config = { report = "periodic", period = 20 },
    kinds = { "REPORT", "CONFIRM", "VICTIM" } },
  { name = "pex", algorithm = "deadlock.pex", config = {}, kinds = { "DETECT" }, extra = "STATUS" },
  { name = "pex (no id rule)", algorithm = "deadlock.pex", config = { idrule = false }, kinds = { "DETECT" }, extra = "STATUS" },
  { name = "cmh", algorithm = "deadlock.cmh", config = {}, kinds = { "PROBE" } },
}

local rows, totals = {}, {}
for _, d in ipairs(detectors) do
  local deadlocks, messages, extra = 0, 0, 0
  for seed = 1, 5 do
    local config = { txns = 3, ops = 3, writes = 0.8, rate = 0.1, latency = 3 }
    for k, v in pairs(d.config) do config[k] = v end
    local w = sim.world{ algorithm = d.algorithm, n = 4, seed = seed, latency = { "uniform", 1, 3 }, config = config,
                         checks = { "deadlock.complete" } }
    w:run{ until_time = 3000 }
    local declared = 0
    for _, e in ipairs(w:events{ type = "state" }) do
      if e.key == "deadlock" then declared = declared + 1 end
    end
    local sent = w:stats().messages
    local m = 0
    for _, k in ipairs(d.kinds) do m = m + (sent[k] or 0) end
    deadlocks, messages, extra = deadlocks + declared, messages + m, extra + (d.extra and (sent[d.extra] or 0) or 0)
    expect(w:check("deadlock.complete"))
  end
  totals[d.name] = { deadlocks, messages }
  rows[#rows + 1] = { detector = d.name, deadlocks = deadlocks, messages = messages,
    per_deadlock = deadlocks > 0 and string.format("%.1f", messages / deadlocks) or "-",
    status = d.extra and extra or "-" }
end
report(rows, { "detector", "deadlocks", "messages", "per_deadlock", "status" })
print("messages: the detector's own over seeds 1..5; status: pex's STATUS messages besides")
local pex, norule = totals["pex"], totals["pex (no id rule)"]
expect(pex[2] <= norule[2], "the id rule saves detection messages: " .. pex[2] .. " against " .. norule[2])
