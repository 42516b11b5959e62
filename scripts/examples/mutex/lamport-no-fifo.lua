-- Lamport's algorithm without FIFO links: the lecture notes "Synchronization, Coordination and Agreement", "Lamport's Algorithm", "Some notable points":
-- "Requires FIFO channels". The REPLY exists so that "j knows of all requests of i prior to sending
-- the REPLY"; that holds only if nothing i sent earlier arrives after it. On links that reorder,
-- a REPLY overtakes the REQUEST sent before it and two processes enter their critical sections.
--
-- World 1, by hand: 1 requests, stamped (1,1), but its REQUEST to 2 is slow (10 ticks). 2 requests,
-- stamped (1,2). At t=1, 1 receives REQUEST(1,2): its own request heads its queue and 2 sent a later
-- message, so 1 enters, and replies. The REPLY overtakes 1's REQUEST: at t=2, 2 has only its own
-- request in its queue and a later message from 1, so 2 enters too.
-- World 2: the same thing happening by itself under random latencies (uniform 1..20 ticks, seed 16,
-- found by a search over seeds): 1's REPLY to 2, sent at t=5, arrives at t=13 before 1's REQUEST sent
-- at t=1, and 1 and 2 enter at t=13. A seed forced with --seed replays other schedules: the script
-- then tries latency bounds 20, 21, ..., 60 (untraced) until one breaks safety and shows that one,
-- or says that none did (such a reordering is rare with three processes).
-- World 3 is world 2 on FIFO links: the same requests, latencies and seed, and the algorithm is safe.

-- Worlds 1 and 2 break safety on purpose: they record no checks at the end (checks = {}), and the
-- script expects the safety checker to catch the violation instead.

local w = sim.world{ algorithm = "mutex.lamport", n = 2, fifo = false, checks = {} }
w:at(0, function()
  w:link(1, 2, { latency = 10 })
  w:command(1, "request", { duration = 20 })
  w:link(1, 2, { latency = 1 })
  w:command(2, "request", { duration = 20 })
end)
w:run{ until_time = 5 }
expect(w:node(1):get("cs") == "held" and w:node(2):get("cs") == "held", "t=5: 1 and 2 are both in the critical section")
local queue = w:node(2):get("queue")
expect(#queue == 1 and queue[1] == 2, "t=5: 1's REQUEST has not reached 2, whose queue holds only its own")
w:run()
local ok, why = w:check("mutex.safety")
expect(not ok, "world 1, caught: " .. why)

local function random(fifo, hi, traced)
  local w = sim.world{ algorithm = "mutex.lamport", n = 3, fifo = fifo, latency = { "uniform", 1, hi }, seed = 16,
                       trace = traced, checks = fifo and { "mutex.safety", "mutex.liveness", "mutex.ordering" } or {} }
  for id = 1, 3 do
    for k = 0, 2 do
      w:at(k * 15 + id, function() w:command(id, "request", { duration = 5 }) end)
    end
  end
  w:run()
  return w
end

local hi = 20
while hi < 60 and random(false, hi, false):check("mutex.safety") do hi = hi + 1 end
ok, why = random(false, hi, true):check("mutex.safety")
if ok then
  print(string.format("world 2: no schedule of seed %d broke safety with latency bounds 20..60", sim.seed))
else
  expect(not ok, string.format("world 2 (no FIFO, latency 1..%d), caught: %s", hi, why))
end
-- World 3 (FIFO) records safety, liveness and ordering at the end: all pass.
random(true, hi, true)
