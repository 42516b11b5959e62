-- The concurrency-control schemes compared: Silberschatz, Galvin and Gagne, "Operating System
-- Concepts", chapter "Distributed Coordination", section "Concurrency Control". The text counts the
-- messages of locking: the single lock manager and the multiple coordinators (nonreplicated scheme)
-- need two messages for a lock request (request, grant) and one for an unlock; the majority
-- protocol 2(n/2 + 1) for a lock request and n/2 + 1 for an unlock, for an item of n copies; the
-- biased protocol asks one copy for a shared lock and all n for an exclusive one; primary copy asks
-- the primary alone, however many copies.
-- 1) One transaction alone, on 6 sites, its home site 6 holding no copy of the item it accesses:
--    the lock messages (REQUEST, GRANT, UNLOCK) beside the text's counts, and every message (the
--    single lock manager's site, the first, holds no copy of B either: the access costs an ACCESS
--    and a DONE more; timestamp ordering has no locks: a write goes to every copy and is answered).
-- 2) The same random workload for every scheme, over five seeds: messages per committed
--    transaction, rollbacks per commit, and the transactions left deadlocked (two-phase locking
--    without deadlock handling, which the deadlock family adds on these sites; timestamp ordering
--    never waits, so it cannot deadlock, but rolls back and restarts).

local function lockMessages(s)
  local m = s.messages
  return (m.REQUEST or 0) + (m.GRANT or 0) + (m.UNLOCK or 0)
end

-- alone: at site home, T1 runs ops alone to its commit; items A at 1, B at 2, ... each with
-- `replicas` copies at its site and the next ones.
local function alone(algorithm, replicas, home, ops)
  local w = sim.world{ algorithm = algorithm, ids = { 1, 2, 3, 4, 5, 6 }, trace = false,
    config = { replicas = replicas }, checks = { "cc.serializable" } }
  w:command(home, "begin", { ops = ops, t = 1 })
  w:run()
  expect(w:node(home):get("txn")[2] == 1, algorithm .. ": T1 committed")
  local s = w:stats()
  return lockMessages(s), s.sent
end

local rows = {}
local cases = {
  -- scheme, n copies, home, operation, the text's lock messages (B's copies: 2, 3, 4; or 2..6)
  { "cc.single", 1, 6, "w(B)", 2 + 1 },
  { "cc.multiple", 1, 6, "w(B)", 2 + 1 },
  { "cc.primary", 3, 6, "w(B)", 2 + 1 },
  { "cc.majority", 3, 6, "w(B)", 2 * (math.floor(3 / 2) + 1) + (math.floor(3 / 2) + 1) },
  { "cc.majority", 5, 1, "w(B)", 2 * (math.floor(5 / 2) + 1) + (math.floor(5 / 2) + 1) },
  { "cc.biased", 3, 6, "r(B)", 2 + 1 },
  { "cc.biased", 3, 6, "w(B)", 2 * 3 + 3 },
  { "cc.timestamp", 3, 6, "w(B)", nil },
}
for _, c in ipairs(cases) do
  local locks, all = alone(c[1], c[2], c[3], c[4])
  rows[#rows + 1] = { scheme = c[1], n = c[2], home = c[3], op = c[4], text = c[5] or "-", lock = locks, all = all }
  if c[5] then
    expect(locks == c[5], string.format("%s %s, n=%d: %d lock messages, the text's %d", c[1], c[4], c[2], locks, c[5]))
  end
end
print("one transaction alone, one operation on B; its home site holds no copy of B")
report(rows, { "scheme", "n", "home", "op", "text", "lock", "all" })
print("n: copies of B; text: the chapter's count of lock messages (request, grant, unlock); lock: measured;")
print("all: every message")
expect(rows[1].all == 5, "single lock manager: its site holds no copy of B: ACCESS and DONE, 5 messages in all")
expect(rows[8].lock == 6 and rows[8].all == 6, "timestamp ordering: a write and its answer at each of 3 copies, no unlock")

-- 2) One contended workload: 5 sites, 3 copies of each item, every site begins 4 random
-- transactions of 2 operations (half of them writes), one every 100 ticks on average, on links of
-- latency 1..4; seeds 1..5.
local schemes = { "cc.single", "cc.multiple", "cc.primary", "cc.majority", "cc.biased", "cc.timestamp" }
local costs = {}
for _, a in ipairs(schemes) do
  local commits, begun, rollbacks, sent, left = 0, 0, 0, 0, 0
  for seed = 1, 5 do
    local w = sim.world{ algorithm = a, n = 5, seed = seed, latency = { "uniform", 1, 4 }, trace = false,
      config = { replicas = 3, txns = 4, ops = 2, writes = 0.5, rate = 0.01 }, checks = { "cc.serializable" } }
    local final, ids = {}, {}
    w:on("state", function(ev)
      if ev.key == "txn" then
        local t, st = ev.value[1], ev.value[2]
        if not final[t] then ids[#ids + 1] = t end
        if st == 2 then rollbacks = rollbacks + 1 end
        final[t] = st
      end
    end)
    w:run()
    for _, t in ipairs(ids) do
      begun = begun + 1
      if final[t] == 1 then commits = commits + 1 else left = left + 1 end
    end
    sent = sent + w:stats().sent
    local ok, text = w:check("cc.serializable")
    expect(ok, a .. " seed " .. seed .. ": " .. text)
  end
  costs[#costs + 1] = { scheme = a, begun = begun, commits = commits, deadlocked = left,
    messages = string.format("%.1f", sent / commits), rollbacks = string.format("%.2f", rollbacks / commits) }
  if a == "cc.majority" then
    expect(left > 0, "the majority protocol left transactions deadlocked: " .. left)
  end
  if a == "cc.timestamp" then
    expect(left == 0 and rollbacks > 0, "timestamp ordering: every transaction commits, after rollbacks")
  else
    expect(rollbacks == 0, a .. ": two-phase locking alone rolls nothing back")
  end
end
print("\nthe same workload, seeds 1..5: 5 sites, 3 copies of each item, 4 transactions of 2 operations per site")
report(costs, { "scheme", "begun", "commits", "deadlocked", "messages", "rollbacks" })
print("messages and rollbacks per commit; deadlocked: transactions left waiting for ever at the end")
