-- Lamport's mutual exclusion algorithm: the lecture notes "Synchronization, Coordination and Agreement", "Lamport's Algorithm" and "Some notable points".
-- 1) "3(n-1) messages per critical section invocation": one request with nobody competing costs
--    n-1 REQUESTs, n-1 REPLYs and n-1 RELEASEs, for n = 2..6.
-- 2) "Requests are granted in order of increasing timestamps": process 4 requests alone first,
--    which moves every clock forward; then all four request at the same moment. 4's request is
--    stamped 8, the others' 9, so 4 goes first and the tie between 1, 2 and 3 goes to the smaller
--    id. Every queue holds the requests in (timestamp, id) order, and at most one process is ever
--    in its critical section (links are FIFO, as the notes require).

for n = 2, 6 do
  local w = sim.world{ algorithm = "mutex.lamport", n = n }
  w:at(0, function() w:command(1, "request", { duration = 3 }) end)
  w:run()
  local s = w:stats()
  expect(s.messages.REQUEST == n - 1 and s.messages.REPLY == n - 1 and s.messages.RELEASE == n - 1
    and s.sent == 3 * (n - 1),
    string.format("n=%d: %d REQUEST, %d REPLY, %d RELEASE = %d messages, 3(n-1) = %d", n,
      s.messages.REQUEST, s.messages.REPLY, s.messages.RELEASE, s.sent, 3 * (n - 1)))
end

local w = sim.world{ algorithm = "mutex.lamport", n = 4 }
local order = {}
w:on("state", function(ev)
  if ev.key == "cs" and ev.value == "held" then
    order[#order + 1] = string.format("%d(ts=%d)", ev.node, w:node(ev.node):get("req_ts"))
  end
end)

w:at(0, function() w:command(4, "request", { duration = 1 }) end)
w:at(10, function()
  for id = 4, 1, -1 do w:command(id, "request", { duration = 2 }) end
end)
w:run{ until_time = 12 }
for id = 1, 4 do
  expect(table.concat(w:node(id):get("queue"), " ") == "4 1 2 3",
    string.format("t=12: queue at %d is %s, sorted by (timestamp, id)", id, table.concat(w:node(id):get("queue"), " ")))
end
w:run()
print("entries: " .. table.concat(order, " "))
expect(table.concat(order, " ") == "4(ts=1) 4(ts=8) 1(ts=9) 2(ts=9) 3(ts=9)",
  "entries in (timestamp, id) order: " .. table.concat(order, " "))
-- The world also records mutex.safety, mutex.liveness and mutex.ordering at the end.
