-- Maekawa's sqrt(n) algorithm (Maekawa, "A sqrt(N) algorithm for mutual exclusion in decentralized
-- systems", ACM TOCS 1985). The lecture notes' permission-based algorithms ask "permission from all
-- (distributed) processes"; Maekawa asks only a quorum, any two quorums sharing a process that votes
-- (LOCKED) for one request at a time.
-- 1) Costs without contention: a request alone costs K-1 REQUEST + K-1 LOCKED + K-1 RELEASE, K the size
--    of the requester's quorum. Here quorums are a grid's row and column (K <= 2 ceil(sqrt(n)) - 1), so
--    the measured curve (the mean over every process asking alone) is about twice Maekawa's 3 sqrt(n)
--    (his projective planes give K ~ sqrt(n)), and well below Ricart-Agrawala's 2(n-1) as n grows.
-- 2) Contention: 1 holds the critical section while 3 and 2 ask, 3 first; 2's request is stamped
--    earlier, so 1's vote goes to 2 on release, then to 3.
-- 3) Heavy load on links that reorder, with the deadlock-avoiding FAILED / INQUIRE / RELINQUISH
--    messages at work: every request served, at most one process inside at every event (the
--    mutex.safety and mutex.liveness checks recorded at the end).

local rows = {}
for _, n in ipairs({ 4, 7, 9, 10, 16, 25, 30, 36, 49, 64 }) do
  local w = sim.world{ algorithm = "mutex.maekawa", n = n, trace = false }
  -- every process in turn, alone: each request is over well before the next one
  for id = 1, n do
    w:at(10 * id, function() w:command(id, "request", { duration = 1 }) end)
  end
  w:run()
  local sum, kmin, kmax = 0, n, 0
  for id = 1, n do
    local k = #w:node(id):get("quorum")
    sum, kmin, kmax = sum + 3 * (k - 1), math.min(kmin, k), math.max(kmax, k)
  end
  local s = w:stats()
  expect(s.messages.REQUEST == sum / 3 and s.messages.LOCKED == sum / 3 and s.messages.RELEASE == sum / 3
    and s.sent == sum and s.cs.entries == n,
    string.format("n=%d: each process alone costs 3(K-1): %d messages for the %d entries", n, s.sent, n))
  rows[#rows + 1] = { n = n, K = kmin == kmax and kmin or (kmin .. ".." .. kmax),
                      per_entry = string.format("%.2f", s.cs.per_entry),
                      ["3sqrt(n)"] = string.format("%.2f", 3 * math.sqrt(n)), ["2(n-1)"] = 2 * (n - 1) }
end
report(rows, { "n", "K", "per_entry", "3sqrt(n)", "2(n-1)" })

-- 2) With n = 3 the quorums are 1 {1,2,3}, 2 {1,2}, 3 {1,3}: 2 and 3 compete only for 1's vote.
local w = sim.world{ algorithm = "mutex.maekawa", n = 3 }
local order = {}
w:on("state", function(ev)
  if ev.key == "cs" and ev.value == "held" then order[#order + 1] = ev.node end
end)
w:at(0, function() w:command(1, "request", { duration = 10 }) end)
w:at(2, function() w:command(3, "request", { duration = 2 }) end)
w:at(3, function() w:command(2, "request", { duration = 2 }) end)
w:run{ until_time = 5 }
expect(w:node(3):get("req_ts") == 3 and w:node(2):get("req_ts") == 3,
  "3 and 2 both saw 1's request (ts 1): theirs are stamped 3")
expect(w:node(1):get("voted_for")[1] == 1, "1 votes for its own request while 2 and 3 wait in its queue")
w:run()
expect(table.concat(order, " ") == "1 2 3", "entries " .. table.concat(order, " ") .. ": (3,2) before (3,3)")

-- 3) Heavy load: 16 processes (a 4x4 grid, K = 7), each asking about once every 40 ticks.
w = sim.world{ algorithm = "mutex.maekawa", n = 16, fifo = false, latency = { "uniform", 1, 4 } }
w:workload{ rate = 0.025, cs = 2, until_time = 400 }
w:run()
local cs = w:stats().cs
local kinds = {}
for _, kind in ipairs({ "REQUEST", "LOCKED", "RELEASE", "FAILED", "INQUIRE", "RELINQUISH" }) do
  kinds[#kinds + 1] = string.format("%s %.2f", kind, cs.by_kind[kind] or 0)
end
print(string.format("heavy load: %d entries, %.2f messages per entry (%s)", cs.entries, cs.per_entry,
  table.concat(kinds, ", ")))
expect(cs.entries == cs.requests and cs.entries > 100, cs.entries .. " requests, all served")
expect(cs.by_kind.FAILED > 0 and cs.by_kind.INQUIRE > 0, "contention brings FAILED and INQUIRE")
expect(w:check("mutex.safety"))
