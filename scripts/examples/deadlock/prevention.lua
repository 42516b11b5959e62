-- Deadlock prevention by timestamps, wait-die against wound-wait on the same workload: Silberschatz,
-- Galvin and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section
-- "Deadlock Handling", "Deadlock Prevention". Both schemes let a transaction wait only for a
-- younger one (wait-die: an older requester waits, a younger one dies) or only for an older one
-- (wound-wait: an older requester wounds the younger holder, which is rolled back), so the global
-- wait-for graph never has a cycle: deadlock.free holds at every event. A rolled-back transaction
-- keeps its timestamp, so it grows older and is not starved: every transaction commits.
--
-- The text: "In the wait-die scheme, if Pi is older than Pj, Pi waits; otherwise Pi is rolled back.
-- In the wound-wait scheme, if Pi is younger, it waits; otherwise Pj is wounded. Both schemes avoid
-- starvation." And: "In the wait-die scheme, an older process must wait for a younger one to release
-- its resource. Thus, the older the process gets, the more it tends to wait. By contrast, in the
-- wound-wait scheme, an older process never waits for a younger process." "In the wait-die scheme,
-- if a process Pi dies and is rolled back because it requested a resource held by process Pj, then
-- Pi may reissue the same sequence of requests when it is restarted. If the resource is still held
-- by Pj, then Pi will die again. Thus, Pi may die several times before acquiring the needed resource.
-- In the wound-wait scheme, Pi is wounded and rolled back because Pj requested a resource it holds.
-- When Pi is restarted and requests the resource now being held by Pj, Pi waits. Thus, fewer
-- rollbacks occur in the wound-wait scheme."
--
-- The workload: 4 sites, one item each, 4 random transactions per site of 3 operations (80% writes)
-- begun about every 10 ticks, links of latency 1..3; the same seed, so the same transactions, for
-- both. The table counts, per scheme, the transactions, their commits, the rollbacks (aborts) and
-- restarts, and the largest number of times one transaction was rolled back.

local function run(algorithm, seed)
  local w = sim.world{ algorithm = algorithm, n = 4, seed = seed, latency = { "uniform", 1, 3 },
                       config = { txns = 4, ops = 3, writes = 0.8, rate = 0.1 } }
  w:run()
  local status, aborts, restarts, worst, per = {}, 0, 0, 0, {}
  for _, e in ipairs(w:events{ type = "state" }) do
    if e.key == "txn" then
      local t, s = e.value[1], e.value[2]
      if s == 2 then
        aborts = aborts + 1
        per[t] = (per[t] or 0) + 1
        worst = math.max(worst, per[t])
      elseif s == 0 and status[t] == 2 then
        restarts = restarts + 1
      end
      status[t] = s
    end
  end
  local txns, commits = 0, 0
  for _, s in pairs(status) do
    txns = txns + 1
    if s == 1 then commits = commits + 1 end
  end
  local free = w:check("deadlock.free")
  return { scheme = algorithm, seed = seed, txns = txns, commits = commits, aborts = aborts,
           restarts = restarts, worst = worst, free = tostring(free) }
end

local rows, total = {}, {}
for _, seed in ipairs({ 1, 2, 3 }) do
  for _, a in ipairs({ "deadlock.waitdie", "deadlock.woundwait" }) do
    local r = run(a, seed)
    rows[#rows + 1] = r
    expect(r.free == "true", a .. " seed " .. seed .. ": no cycle in the global wait-for graph at any event")
    expect(r.commits == r.txns and r.restarts == r.aborts,
           string.format("%s seed %d: all %d transactions commit, each rollback restarted", a, seed, r.txns))
    total[a] = (total[a] or 0) + r.aborts
  end
end
report(rows, { "scheme", "seed", "txns", "commits", "aborts", "restarts", "worst", "free" })
print(string.format("rollbacks over the three seeds: wait-die %d, wound-wait %d", total["deadlock.waitdie"], total["deadlock.woundwait"]))
expect(total["deadlock.woundwait"] < total["deadlock.waitdie"], "fewer rollbacks occur in the wound-wait scheme")
