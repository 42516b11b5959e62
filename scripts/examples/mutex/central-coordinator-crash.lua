-- The central coordinator algorithm when the coordinator crashes.
-- The lecture notes "Synchronization, Coordination and Agreement", "Central Coordinator Based Algorithm", disadvantages:
-- "The coordinator is a critical point of failure: if the coordinator crashes, a new coordinator must be created. The
-- coordinator can be one of the processes competing for access; an election algorithm has to be run in order to choose
-- one and only one new coordinator", with the notes' "Bully Algorithm" as the election layer (keys election_T, election_T2).
-- 1) 5 is the coordinator. 1 is in its CS; 2 and 3 wait, queued at 5. 5 crashes. The failure detector
--    makes the others suspect it and each starts a bully election: 4 wins and announces COORDINATOR.
-- 2) Recovery: 1 tells 4 it holds the CS (HELD); 2 and 3 re-send their REQUESTs. 4 grants nothing
--    until it has heard from every process it does not suspect, and nothing while 1 is in its CS.
-- 3) 1 releases: 2, then 3 are served by 4. Then 4 crashes too, with 3 in its CS and 2 waiting again:
--    3 wins the next election, coordinating from inside its CS, and serves 2 when it leaves.
-- Nobody is lost, nobody is granted twice, at most one process is in its CS at every event.

local w = sim.world{ algorithm = "mutex.central", n = 5, detector = 3,
  config = { election_T = 10, election_T2 = 30 } }
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
w:on("crash", function(ev)
  if w:node(ev.node):get("cs") == "held" then inside = inside - 1 end
end)

-- the senders of the messages of a kind sent to a process, sorted
local function senders(kind, to)
  local out = {}
  for _, e in ipairs(w:events{ type = "send", kind = kind }) do
    if e.to == to then out[#out + 1] = tostring(e.from) end -- a one-element table.concat of numbers gives a number
  end
  table.sort(out)
  return table.concat(out, " ")
end

w:at(1, function() w:command(1, "request") end) -- in its CS until the release command
w:at(3, function() w:command(2, "request", { duration = 5 }) end)
w:at(4, function() w:command(3, "request", { duration = 40 }) end)
w:at(10, function() w:crash(5) end)
w:run{ until_time = 9 }
expect(table.concat(w:node(5):get("queue"), " ") == "2 3", "2 and 3 are queued at coordinator 5")

-- 1. the crash, the suspicion, the bully election
w:run{ until_time = 60 }
expect(w:count{ type = "suspect", node = 5 } == 1, "the failure detector suspects 5")
expect(w:agreed("leader") == 4 and w:node(4):get("role") == "leader", "the bully elects 4, the highest live process")
-- 2. the recovery phase
expect(senders("HELD", 4) == "1", "1, in its CS, tells the new coordinator it holds it")
expect(senders("REQUEST", 4) == "2 3", "2 and 3 re-send their requests to the new coordinator")
expect(w:node(4):get("recovering") == false, "4 has heard from every process it does not suspect")
expect(w:node(1):get("cs") == "held" and w:node(2):get("cs") == "wanted" and w:node(3):get("cs") == "wanted",
  "1 is still the only one in its CS; 2 and 3 wait")

-- 3. release, service by the new coordinator, and the new coordinator's crash
w:at(60, function() w:command(1, "release") end)
w:run{ until_time = 75 }
expect(w:node(3):get("cs") == "held", "2 then 3 are granted by 4")
w:at(76, function() w:command(2, "request", { duration = 5 }) end)
w:at(80, function() w:crash(4) end)
w:run()
expect(w:agreed("leader") == 3 and w:node(3):get("role") == "leader", "4 crashed: the bully elects 3")
expect(senders("IDLE", 3) == "1" and senders("REQUEST", 3) == "2",
  "1 reports IDLE to 3, 2 re-sends its REQUEST")

print("entries: " .. table.concat(order, " "))
expect(table.concat(order, " ") == "1 2 3 2", "every request served once: entries " .. table.concat(order, " "))
expect(most == 1, "at most one process in the critical section at every event")
for _, id in ipairs(w:alive()) do
  expect(w:node(id):get("cs") == "released", string.format("process %d ends released", id))
end
