-- The token ring: the lecture notes "Synchronization, Coordination and Agreement", "Token Ring
-- Algorithm" ("The algorithm" and the costs after it).
-- 1) "The token is initially given to one process" (the first in ring order) and "is passed from one
--    process to its neighbour round the ring"; "when a process receives the token but does not
--    require to enter the critical section, it immediately passes the token over" (hold = 0, the
--    default, which was 1 tick: the token now leaves at the tick it arrives, a pass every tick on the
--    default links of latency 1): with nobody asking, the token goes round and round, "messages are
--    sent around the ring even when no process requires the token". A run never becomes quiescent:
--    every run has an until_time.
-- 2) "It can take from 1 to n-1 messages to obtain a token": the holder keeps the token 50 ticks at each
--    stop (config hold = 50); process k waits for k-1 TOKEN messages, and the holder for none.
-- 3) "When a process requires to enter the CS, it waits until it receives the token ... then it retains
--    it; after it got the token it enters the CS; after it left the CS it passes the token to its
--    neighbour in clockwise direction": the token does not move while 3 is in its CS, and goes to 4 at
--    the tick 3 leaves.
-- 4) A Poisson workload on 6 processes: at most one process in its CS at every event, every request
--    served (the checks recorded at the end of the script); with hold = 0 the idle token makes twice
--    the passes it made with hold = 1, so the messages per entry grew.

local function route(w)
  local out = {}
  for _, e in ipairs(w:events{ type = "send", kind = "TOKEN" }) do out[#out + 1] = e.from .. "->" .. e.to end
  return table.concat(out, " ")
end

-- 1. idle circulation
local w = sim.world{ algorithm = "mutex.tokenring", n = 4 }
w:run{ until_time = 11 }
print("idle route: " .. route(w))
expect(route(w) == "1->2 2->3 3->4 4->1 1->2 2->3 3->4 4->1 1->2 2->3 3->4 4->1",
  "with nobody asking, the token goes round from 1: a pass every hold + latency = 1 tick")
expect(w:stats().cs.entries == 0, "nobody entered")

-- 2. 1 to n-1 messages to obtain the token
for _, n in ipairs{ 3, 6 } do
  local counts = {}
  for k = 1, n do
    local w = sim.world{ algorithm = "mutex.tokenring", n = n, config = { hold = 50 } }
    local got
    w:on("state", function(ev)
      if ev.key == "cs" and ev.value == "held" and got == nil then got = w:count{ type = "send", kind = "TOKEN" } end
    end)
    w:at(0, function() w:command(k, "request", { duration = 1 }) end)
    w:run{ until_time = 60 * n }
    counts[#counts + 1] = tostring(got)
    expect(got == k - 1, string.format("n=%d: process %d obtains the token with %s messages, k-1 = %d", n, k, tostring(got), k - 1))
  end
  print(string.format("n=%d: messages to obtain the token at 1..n: %s", n, table.concat(counts, " ")))
end

-- 3. the holder that wants the CS keeps the token, and passes it after leaving
w = sim.world{ algorithm = "mutex.tokenring", n = 5, config = { hold = 0 } }
local entered, left
w:on("state", function(ev)
  if ev.node == 3 and ev.key == "cs" then
    if ev.value == "held" then entered = ev.t elseif ev.old == "held" then left = ev.t end
  end
end)
w:at(0, function() w:command(3, "request", { duration = 10 }) end)
w:run{ until_time = 30 }
local moved, after = 0, nil
for _, e in ipairs(w:events{ type = "send", kind = "TOKEN" }) do
  if e.t > entered and e.t < left then moved = moved + 1 end
  if e.from == 3 and after == nil then after = e end
end
expect(entered == 2 and left == 12, string.format("3 enters when the token arrives (t=%d) and leaves 10 ticks later (t=%d)", entered, left))
expect(moved == 0, "the token does not move during 3's critical section")
expect(after.t == 12 and after.to == 4, "3 passes the token to 4 at the tick it leaves")
expect(w:node(1):get("has_token") == false, "has_token: only the holder")

-- 4. a Poisson workload
w = sim.world{ algorithm = "mutex.tokenring", n = 6, seed = 7 }
w:workload{ rate = 0.01, cs = 3, until_time = 500 }
w:run{ until_time = 700 }
local cs = w:stats().cs
print(string.format("workload: %d requests, %d entries, %.1f messages per entry, waiting %.1f ticks",
  cs.requests, cs.entries, cs.per_entry, cs.waiting))
expect(cs.entries == cs.requests and cs.requests > 0, "every request served")
expect(w:check("mutex.safety"))
