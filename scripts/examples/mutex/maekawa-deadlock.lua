-- Maekawa's algorithm deadlocks without its FAILED / INQUIRE / RELINQUISH messages (Maekawa, "A sqrt(N)
-- algorithm for mutual exclusion in decentralized systems", ACM TOCS 1985, the deadlock his scheme
-- avoids; the lecture notes "Synchronization, Coordination and Agreement" ask of any mutual exclusion algorithm that "if more than one requesting process,
-- someone enters (liveness)").
-- With n = 4 the quorums (a 2x2 grid's row and column) are 1 {1,2,3}, 2 {1,2,4}, 3 {1,3,4}, 4 {2,3,4}.
-- 2, 3 and 4 ask at the same moment. Each votes for its own request at once, and 1 votes for 2, whose
-- REQUEST it receives first. Now 2 holds {1,2} and waits for 4's vote; 4 holds {4} and waits for 2's
-- and 3's; 3 holds {3} and waits for 1's and 4's. Every vote is given to a waiting process: in the
-- basic variant nobody gives one up, the run goes quiet with the three still "wanted".
-- The full algorithm, on the same schedule: all three requests are stamped 1, so (1,2) comes first.
-- The arbiters answer FAILED to the later requests (1 and 4 to 3; 2 and 3 to 4). 2's REQUEST makes
-- 4's own arbiter INQUIRE its holder, 4; knowing from the FAILEDs that it cannot enter, 4 gives its
-- vote up (RELINQUISH; a process's messages to itself are not sent on the network) and 4's vote goes
-- to 2. Everybody is served in (timestamp, id) order: 2, 3, 4.

-- World 1 shows a liveness violation on purpose: it records no checks at the end (checks = {}), and
-- the script expects the liveness checker to catch it.
local w = sim.world{ algorithm = "mutex.maekawa", n = 4, config = { variant = "basic" }, checks = {} }
w:at(0, function()
  for id = 2, 4 do w:command(id, "request", { duration = 3 }) end
end)
local r = w:run()
expect(r.reason == "quiescent", "basic: the run goes quiet at t=" .. r.time)
for id = 2, 4 do
  expect(w:node(id):get("cs") == "wanted", string.format("basic: %d is stuck in \"wanted\"", id))
end
for _, v in ipairs({ { 1, 2 }, { 2, 2 }, { 3, 3 }, { 4, 4 } }) do
  expect(w:node(v[1]):get("voted_for")[1] == v[2], string.format("basic: %d votes for %d", v[1], v[2]))
end
local s = w:stats()
expect(s.messages.REQUEST == 6 and s.messages.LOCKED == 1 and s.sent == 7, "basic: 6 REQUESTs and one LOCKED, then nothing")
local ok, why = w:check("mutex.liveness")
expect(not ok, "basic, caught: " .. why)
expect(w:check("mutex.safety"))

-- World 2: the same schedule with the full algorithm (the default variant).
w = sim.world{ algorithm = "mutex.maekawa", n = 4 }
local order = {}
w:on("state", function(ev)
  if ev.key == "cs" and ev.value == "held" then order[#order + 1] = ev.node end
end)
w:at(0, function()
  for id = 2, 4 do w:command(id, "request", { duration = 3 }) end
end)
w:run()
expect(table.concat(order, " ") == "2 3 4", "inquire: entries " .. table.concat(order, " "))
s = w:stats()
expect(s.messages.FAILED > 0, string.format("inquire: %d FAILED tell the later requests to wait", s.messages.FAILED))
expect(w:check("mutex.liveness"))
