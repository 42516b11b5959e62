-- Two-phase commit when a participant fails: Silberschatz, Galvin and Gagne, "Operating System
-- Concepts", chapter "Distributed Coordination", section "Atomicity", "Failure Handling in 2PC",
-- failure of a participating site: on recovery the site examines its log, and with a <ready T>
-- record alone it must consult Ci about T's fate, and, Ci being down, the other sites.
-- Coordinator 1, participants 2, 3 and 4; links of 2 ticks.
-- 1) Every participant logs <ready T1> and answers (t=2); site 3 fails at t=3, its answer on the
--    way. Ci has every answer at t=4: it commits T1, but commit T1 finds site 3 down (t=6). Ci waits
--    for its acknowledgement: no <complete T1>.
-- 2) Site 3 recovers at t=10. Its log holds <ready T1> alone, so it asks Ci and the other sites
--    (QUERY): 2 and 4 answer commit from their logs (STATUS), Ci sends commit T1 again. Site 3 redoes
--    T1 (<commit T1>, t=14) and acknowledges, and Ci logs <complete T1> (t=16).
-- 3) The same failure with Ci down too (it fails at t=5, after deciding): 2 and 4 still know, so
--    site 3 learns commit from them without Ci.

local function run(coordinator_fails)
  local w = sim.world{ algorithm = "commit.twophase", n = 4, latency = 2, detector = 2 }
  w:at(0, function() w:command(1, "commit") end)
  w:at(3, function() w:crash(3) end)
  if coordinator_fails then w:at(5, function() w:crash(1) end) end
  w:at(10, function() w:recover(3) end)
  w:run()
  return w
end

local w = run(false)
local function log(id) return table.concat(w:node(id):stable(), " ") end
expect(log(3) == "<ready T1> <commit T1>", "site 3 redoes T1 after asking: " .. log(3))
expect(w:node(3):get("decision") == "commit", "site 3 commits")
local asked = {}
for _, e in ipairs(w:events{ type = "send", kind = "QUERY" }) do asked[#asked + 1] = e.from .. "->" .. e.to end
expect(table.concat(asked, " ") == "3->4 3->1 3->2", "site 3 asks every other site: " .. table.concat(asked, " "))
expect(w:count{ type = "send", kind = "STATUS" } == 2 and w:count{ type = "send", kind = "COMMIT" } == 4,
  "2 and 4 answer STATUS commit, Ci sends commit T1 again")
expect(log(1) == "<prepare T1> <commit T1> <complete T1>" and w:node(1):get("phase") == "complete",
  "Ci completes T1 with site 3's acknowledgement")
local complete
for _, e in ipairs(w:events{ type = "state", node = 1 }) do
  if e.key == "log" and e.value == "<complete T1>" then complete = e.t end
end
expect(complete == 16, "complete at t=16")

w = run(true)
expect(log(3) == "<ready T1> <commit T1>" and w:node(3):get("decision") == "commit",
  "with Ci down too, site 3 learns commit from the other sites")
expect(w:check("commit.atomic"))
