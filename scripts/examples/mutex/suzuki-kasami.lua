-- Suzuki-Kasami (1985), one of the token-based algorithms the lecture notes "Synchronization, Coordination and Agreement" list ("Uses sequence numbers rather than
-- timestamps to differentiate between old and current requests"): RN[] at every process, LN[] and
-- a FIFO queue Q in the token.
-- 1) One request from a process without the token costs n-1 REQUESTs and one TOKEN for n = 2..6;
--    the holder enters again without any message.
-- 2) The token's queue: 1 is in its critical section while 3, 5 and 2 ask. At its release every
--    outstanding request (RN[j] = LN[j]+1) joins Q, Q = 2 3 5, and the token goes to 2. 4 asks
--    while 2 is inside: at 2's release it joins the end of Q, behind 3 and 5, so the entries are
--    1 2 3 5 4 for 4n = 20 messages.
-- 3) On links that reorder, with 4 crashed, every request of the live processes is served and at
--    most one process is ever in its critical section.

for n = 2, 6 do
  local w = sim.world{ algorithm = "mutex.suzukikasami", n = n }
  w:at(0, function() w:command(n, "request", { duration = 3 }) end)
  w:run()
  local s = w:stats()
  expect(s.messages.REQUEST == n - 1 and s.messages.TOKEN == 1,
    string.format("n=%d: %d REQUEST + %d TOKEN = n", n, s.messages.REQUEST, s.messages.TOKEN))
  w:at(w:now() + 1, function() w:command(n, "request", { duration = 3 }) end)
  w:run()
  expect(w:stats().sent == n and w:node(n):get("has_token"),
    string.format("n=%d: the holder enters again without a message", n))
end

local function watch(w)
  local log = { order = {}, inside = 0, most = 0 }
  w:on("state", function(ev)
    if ev.key ~= "cs" then return end
    if ev.value == "held" then
      log.inside = log.inside + 1
      log.most = math.max(log.most, log.inside)
      log.order[#log.order + 1] = ev.node
    elseif ev.old == "held" then
      log.inside = log.inside - 1
    end
  end)
  return log
end

local w = sim.world{ algorithm = "mutex.suzukikasami", n = 5 }
local log = watch(w)
local queues = {}
w:on("send", function(ev)
  if ev.kind == "TOKEN" then queues[#queues + 1] = "[" .. table.concat(ev.msg.q, " ") .. "]" end
end)
w:at(0, function() w:command(1, "request", { duration = 10 }) end)
w:at(1, function() w:command(3, "request", { duration = 2 }) end)
w:at(2, function() w:command(5, "request", { duration = 2 }) end)
w:at(3, function() w:command(2, "request", { duration = 2 }) end)
w:at(11, function() w:command(4, "request", { duration = 2 }) end)
w:run()
print("entries: " .. table.concat(log.order, " ") .. "; Q carried by each TOKEN: " .. table.concat(queues, " "))
expect(table.concat(log.order, " ") == "1 2 3 5 4", "entries 1 2 3 5 4: 4 waits behind 3 and 5 in Q")
expect(table.concat(queues, " ") == "[3 5] [5 4] [4] []", "the token carries Q = 3 5, then 5 4, then 4")
expect(w:stats().sent == 4 * 5, "four entries through the network: 4n = 20 messages")

w = sim.world{ algorithm = "mutex.suzukikasami", n = 6, fifo = false, latency = { "uniform", 1, 8 } }
log = watch(w)
w:at(0, function() w:crash(4) end)
local asked = 0
for round = 0, 4 do
  for _, id in ipairs{ 1, 2, 3, 5, 6 } do
    w:at(1 + round * 40 + id, function() w:command(id, "request", { duration = 3 }) end)
    asked = asked + 1
  end
end
w:run()
print(string.format("with 4 down: %d of %d requests served", #log.order, asked))
expect(#log.order == asked, "every request of the live processes is served with 4 down")
expect(log.most == 1, "at most one process in the critical section at every event")
