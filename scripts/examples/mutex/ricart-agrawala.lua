-- The Ricart-Agrawala algorithm: the lecture notes "Synchronization, Coordination and Agreement", "The Ricart-Agrawala Algorithm" (with Coulouris's
-- RELEASED / WANTED / HELD in the cs key).
-- 1) "2(n-1) messages per critical section invocation": one request with nobody competing costs
--    n-1 REQUESTs and n-1 REPLYs, and nothing on release, for n = 2..6.
-- 2) "Two processes want to enter the same critical region at the same moment ... the process whose
--    request event has smaller time-stamp wins": 1 and 2 request at once, both stamped 1, and the tie
--    goes to the smaller id; 2 replies to 1 ("j is requesting and i's request timestamp is smaller"),
--    1 defers 2's REQUEST and replies on release. Then 3 requests alone, stamped 4 (its clock went
--    past the two REQUESTs stamped 1); 1 and 2 witness it, so when all three request again 3's
--    request is stamped 5 and 1's and 2's 6: 3's older request wins although its id is the largest.
-- 3) "Does not require FIFO": the links reorder (latency uniform 1..10); every entry still follows
--    (timestamp, id) order and at most one process is ever in its critical section.

for n = 2, 6 do
  local w = sim.world{ algorithm = "mutex.ricartagrawala", n = n }
  w:at(0, function() w:command(1, "request", { duration = 3 }) end)
  w:run()
  local s = w:stats()
  expect(s.messages.REQUEST == n - 1 and s.messages.REPLY == n - 1 and s.sent == 2 * (n - 1),
    string.format("n=%d: %d REQUEST, %d REPLY = %d messages, 2(n-1) = %d", n,
      s.messages.REQUEST, s.messages.REPLY, s.sent, 2 * (n - 1)))
end

local w = sim.world{ algorithm = "mutex.ricartagrawala", n = 3, fifo = false, latency = { "uniform", 1, 10 } }
local order = {}
w:on("state", function(ev)
  if ev.key == "cs" and ev.value == "held" then
    order[#order + 1] = string.format("%d(ts=%d)", ev.node, w:node(ev.node):get("req_ts"))
  end
end)

w:at(0, function()
  w:command(2, "request", { duration = 5 })
  w:command(1, "request", { duration = 5 })
end)
w:run{ predicate = function() return w:node(1):get("cs") == "held" end }
expect(w:node(2):get("cs") == "wanted", "tie at timestamp 1: 1 enters, 2 waits")
w:run{ predicate = function() return w:node(1):get("cs") == "released" end }
local replies = w:events{ type = "send", kind = "REPLY", node = 1 }
expect(#replies == 1 and replies[1].to == 2 and replies[1].t == w:now(),
  "1 deferred 2's REQUEST and replied when it left the critical section, at t=" .. w:now())
w:run()
w:at(w:now() + 10, function() w:command(3, "request", { duration = 5 }) end)
w:run()
w:at(w:now() + 10, function()
  for id = 1, 3 do w:command(id, "request", { duration = 5 }) end
end)
w:run()
print("entries: " .. table.concat(order, " "))
expect(table.concat(order, " ") == "1(ts=1) 2(ts=1) 3(ts=4) 3(ts=5) 1(ts=6) 2(ts=6)",
  "entries in (timestamp, id) order: " .. table.concat(order, " "))
-- The world also records mutex.safety, mutex.liveness and mutex.ordering at the end.
