-- The central coordinator algorithm: the lecture notes "Synchronization, Coordination and Agreement",
-- "Central Coordinator Based Algorithm", its pseudo code (the default, denied = true) and its prose.
-- 1) "The strategy requires only three messages per use of a CS (request, OK, release)": one request with
--    nobody competing costs REQUEST, GRANTED, RELEASE, for n = 2..6. The coordinator is one of the
--    competing processes; its own request costs no message.
-- 2) The coordinator's loop: a REQUEST while somebody is in the CS is queued and answered DENIED; a
--    RELEASE removes the first on the queue and replies GRANTED. "It is fair (First Come First Served)":
--    1 holds the CS, then 3, 2, 5 (the coordinator itself) and 4 ask in that order (their requests reach
--    the coordinator one tick apart) and enter in that order. So three messages hold only without
--    contention: an entry whose request was DENIED costs four.
-- 3) Added with the denied switch: the prose's variant (denied = false) on the same requests, no DENIED,
--    three messages for every entry.

for n = 2, 6 do
  local w = sim.world{ algorithm = "mutex.central", n = n }
  w:at(0, function() w:command(1, "request", { duration = 3 }) end)
  w:run()
  local s = w:stats()
  expect(s.messages.REQUEST == 1 and s.messages.GRANTED == 1 and s.messages.RELEASE == 1 and s.sent == 3,
    string.format("n=%d: REQUEST, GRANTED, RELEASE: %d messages", n, s.sent))
end

local own = sim.world{ algorithm = "mutex.central", n = 4 }
own:at(0, function() own:command(4, "request", { duration = 3 }) end)
own:run()
expect(own:stats().sent == 0, "the coordinator (4, the highest id) grants itself without a message")

local w = sim.world{ algorithm = "mutex.central", n = 5 }
local order, inside, most = {}, 0, 0
w:on("state", function(ev)
  if ev.key ~= "cs" then return end
  if ev.value == "held" then
    inside = inside + 1
    most = math.max(most, inside)
    order[#order + 1] = ev.node
  elseif ev.old == "held" then
    inside = inside - 1
  end
end)

w:at(0, function() w:command(1, "request") end) -- in the CS until the release command
w:at(5, function() w:command(3, "request", { duration = 4 }) end)
w:at(6, function() w:command(2, "request", { duration = 4 }) end)
w:at(8, function() w:command(5, "request", { duration = 4 }) end)
w:at(9, function() w:command(4, "request", { duration = 4 }) end)
w:run{ until_time = 20 }
expect(w:node(1):get("cs") == "held", "REQUEST with nobody in the CS: GRANTED to 1")
expect(w:stats().messages.DENIED == 3, "REQUEST while 1 is in the CS: queued and DENIED to 3, 2 and 4")
expect(table.concat(w:node(5):get("queue"), " ") == "3 2 5 4",
  "the coordinator's queue in arrival order: " .. table.concat(w:node(5):get("queue"), " "))

w:at(30, function() w:command(1, "release") end)
w:run()
print("entries: " .. table.concat(order, " "))
expect(table.concat(order, " ") == "1 3 2 5 4", "RELEASE grants the first on the queue: entries " .. table.concat(order, " "))
expect(w:stats().messages.GRANTED == 4, "one GRANTED per entry of another process (the coordinator's own needs none)")
expect(most == 1, "at most one process in the critical section at every event")
expect(#w:node(5):get("queue") == 0, "the queue is empty at the end")

-- 3) The prose's "request, OK, release" (denied = false): the queued requests get no answer until
--    their turn, so every entry of another process costs three messages.
local costs = {}
for _, denied in ipairs({ true, false }) do
  local v = sim.world{ algorithm = "mutex.central", n = 5, config = { denied = denied } }
  v:at(0, function() v:command(1, "request", { duration = 20 }) end)
  v:at(5, function() v:command(3, "request", { duration = 4 }) end)
  v:at(6, function() v:command(2, "request", { duration = 4 }) end)
  v:at(9, function() v:command(4, "request", { duration = 4 }) end)
  v:run()
  local s = v:stats()
  costs[denied] = s.sent
  print(string.format("denied = %s: %d messages for %d entries (%d DENIED)", tostring(denied), s.sent,
    s.cs.entries, s.messages.DENIED or 0))
end
expect(costs[true] == 4 * 3 + 3, "pseudo code: 3 for 1's uncontended entry, 4 for each of the three queued ones")
expect(costs[false] == 3 * 4, "prose: 3 messages for every entry, contended or not")
