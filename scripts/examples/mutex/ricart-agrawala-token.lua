-- Ricart-Agrawala second algorithm: the lecture notes "Synchronization, Coordination and Agreement",
-- "Ricart-Agrawala Second Algorithm", rules RI1, RI2, RA1, RH1, RH2, RR1, RR2 (key token_state).
-- 1) "it requires n messages for entering a CS: (n-1) requests and one reply": one request from a
--    process without the token costs n-1 REQUESTs and one TOKEN for n = 2..6, and a second entry
--    of the process now holding the token costs nothing (RA1 with TOKEN-PRESENT).
-- 2) RR2's search order "[i+1, i+2, ..., n, 1, 2, ..., i-1]" (numeric order): 3 holds the token
--    in its critical section while 2, 1 and 5 ask, in that order; from 3 the search finds 5, from 5
--    it finds 1, from 1 it finds 2: entries 3 5 1 2, whatever the order of the requests.
-- 3) "The failure of a process, except the one which holds the token, doesn't prevent progress":
--    with 4 crashed, on links that reorder, every request of the live processes is served and at
--    most one process is ever in its critical section.

for n = 2, 6 do
  local w = sim.world{ algorithm = "mutex.ricartagrawala2", n = n }
  w:at(0, function() w:command(2, "request", { duration = 3 }) end)
  w:run()
  local s = w:stats()
  expect(s.messages.REQUEST == n - 1 and s.messages.TOKEN == 1,
    string.format("n=%d: %d REQUEST + %d TOKEN = n", n, s.messages.REQUEST, s.messages.TOKEN))
  expect(w:node(2):get("token_state") == "TOKEN-PRESENT" and w:node(1):get("token_state") == "NO-TOKEN",
    "the token stays with 2 after its critical section (RR1, nobody pending)")
  w:at(w:now() + 1, function() w:command(2, "request", { duration = 3 }) end)
  w:run()
  expect(w:stats().sent == n, string.format("n=%d: the holder enters again without a message", n))
end

-- Watches the cs key: the entry order, and the most processes ever inside at once.
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

local w = sim.world{ algorithm = "mutex.ricartagrawala2", n = 5, config = { holder = 3 } }
local log = watch(w)
w:at(0, function() w:command(3, "request", { duration = 10 }) end)
w:at(1, function() w:command(2, "request", { duration = 2 }) end)
w:at(2, function() w:command(1, "request", { duration = 2 }) end)
w:at(3, function() w:command(5, "request", { duration = 2 }) end)
w:run()
print("search order from 3: " .. table.concat(log.order, " "))
expect(table.concat(log.order, " ") == "3 5 1 2", "RR2 from 3 finds 5, from 5 finds 1, from 1 finds 2")
expect(w:stats().sent == 3 * 5, "three entries through the network: 3n = 15 messages")

w = sim.world{ algorithm = "mutex.ricartagrawala2", n = 6, fifo = false, latency = { "uniform", 1, 8 } }
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
