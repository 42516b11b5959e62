-- Singhal's dynamic information-structure algorithm, permission-based: REQUEST and REPLY, no token (Singhal,
-- "A dynamic information-structure mutual exclusion algorithm for distributed systems", ICDCS 1989 / IEEE
-- TPDS 1992; not his token algorithm, see singhal-token.lua). Each process asks only its request set R_i and
-- answers its inform set I_i on leaving; the sets start as a staircase (process i asks the i-1
-- processes before it) and change with every REPLY.
-- 1) From the staircase, process k's request alone costs 2(k-1): 0 for the first, 2(n-1) for the last.
-- 2) The sets evolve: on four processes, one request at a time, 4 asks everybody (6 messages) and
--    moves to the top of the staircase; then 1 asks only 4 (2), 4 only 1 (2), 2 asks 1 and 4 (4),
--    2 again nobody (0), 4 only 2 (2). request_set shows R_i after each step.
-- 3) Light and heavy load on links that reorder, n = 8: every request served, at most one process
--    inside at every event (the checks recorded at the end), and the cost per entry between 0 and
--    2(n-1): about n-1 at light load, where the staircase is intact, and more under contention.

local n = 6
local rows = {}
for k = 1, n do
  local w = sim.world{ algorithm = "mutex.singhal", n = n, trace = false }
  local asks
  w:at(0, function()
    asks = #w:node(k):get("request_set")
    w:command(k, "request", { duration = 2 })
  end)
  w:run()
  local s = w:stats()
  expect(s.sent == 2 * (k - 1) and asks == k - 1,
    string.format("n=%d: process %d asks its %d predecessors: %d messages = 2(k-1)", n, k, asks, s.sent))
  rows[#rows + 1] = { process = k, R = asks, messages = s.sent }
end
report(rows, { "process", "R", "messages" })

local w = sim.world{ algorithm = "mutex.singhal", n = 4 }
local function sets()
  local out = {}
  for id = 1, 4 do out[id] = "R" .. id .. "={" .. table.concat(w:node(id):get("request_set"), ",") .. "}" end
  return table.concat(out, " ")
end
w:run()
print("start: " .. sets())
local before = 0
for step, c in ipairs({ { 4, 6 }, { 1, 2 }, { 4, 2 }, { 2, 4 }, { 2, 0 }, { 4, 2 } }) do
  local id, cost = c[1], c[2]
  w:at(w:now() + 5, function() w:command(id, "request", { duration = 2 }) end)
  w:run()
  local sent = w:stats().sent - before
  before = w:stats().sent
  print(string.format("step %d, %d requests: %d messages; %s", step, id, sent, sets()))
  expect(sent == cost, string.format("step %d: %d's request costs %d messages", step, id, sent))
  expect(#w:node(id):get("request_set") == 0, string.format("step %d: %d is at the top of the staircase", step, id))
end

rows = {}
for _, load in ipairs({ { "light", 0.002 }, { "heavy", 0.05 } }) do
  w = sim.world{ algorithm = "mutex.singhal", n = 8, fifo = false, latency = { "uniform", 1, 6 } }
  w:workload{ rate = load[2], cs = 3, until_time = 2000 }
  w:run()
  local cs = w:stats().cs
  expect(cs.entries == cs.requests and cs.per_entry <= 2 * 7,
    string.format("%s load: %d requests served, %.2f messages per entry <= 2(n-1)", load[1], cs.entries, cs.per_entry))
  rows[#rows + 1] = { load = load[1], entries = cs.entries, per_entry = string.format("%.2f", cs.per_entry),
                      waiting = string.format("%.1f", cs.waiting) }
end
report(rows, { "load", "entries", "per_entry", "waiting" })
