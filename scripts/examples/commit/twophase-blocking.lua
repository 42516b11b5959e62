-- Two-phase commit when the coordinator fails after the votes: Silberschatz, Galvin and Gagne,
-- "Operating System Concepts", chapter "Distributed Coordination", section "Atomicity", "Failure
-- Handling in 2PC", failure of the coordinator: the participants decide if an active site holds
-- <commit T> or <abort T>, or lacks <ready T>; when every active site holds <ready T> and no other
-- control record, nobody can tell whether Ci decided, or what, and they must wait for Ci to recover
-- (the blocking problem).
-- Coordinator 1, participants 2 and 3; every link takes 2 ticks; the failure detector suspects a
-- failed site 5 ticks after it fails.
-- 1) Ci logs <prepare T1> and sends prepare T1 (t=0). The participants log <ready T1> and answer
--    (t=2); Ci fails at t=3, before their answers reach it: it never decides.
-- 2) At t=8 both suspect Ci and ask the other sites (QUERY; the two to Ci are lost, as it is down);
--    each has only <ready T1> (STATUS ready, t=10), so at t=12 both are blocked:
--    commit.nonblocking fails.
-- 3) Ci recovers at t=30 and reads its log: <prepare T1> and no decision, so no site can have
--    committed T1: it logs <abort T1> and sends abort T1; the participants abort (t=32), and with
--    their acknowledgements Ci logs <complete T1> (t=34).

local w = sim.world{ algorithm = "commit.twophase", n = 3, latency = 2, detector = 5 }
w:at(0, function() w:command(1, "commit") end)
w:at(3, function() w:crash(1) end)
w:run{ until_time = 29 }
for _, id in ipairs{ 2, 3 } do
  local n = w:node(id)
  expect(n:get("phase") == "blocked" and n:get("decision") == nil, string.format("site %d is blocked", id))
  expect(table.concat(n:stable(), " ") == "<ready T1>", string.format("site %d's log holds only <ready T1>", id))
end
expect(w:count{ type = "send", kind = "QUERY" } == 4 and w:count{ type = "drop", kind = "QUERY" } == 2
  and w:count{ type = "send", kind = "STATUS" } == 2, "each participant asks the other, which answers ready, and Ci, which is down")
local ok, why = w:check("commit.nonblocking")
expect(not ok and why:find("2 participant%(s%) up have not decided: 2 %(T1: phase blocked since t=12") ~= nil,
  "blocked, as the text says: " .. why)

w:at(30, function() w:recover(1) end)
w:run()
expect(table.concat(w:node(1):stable(), " ") == "<prepare T1> <abort T1> <complete T1>",
  "the recovered coordinator aborts T1: " .. table.concat(w:node(1):stable(), " "))
for _, id in ipairs{ 2, 3 } do
  expect(w:node(id):get("decision") == "abort" and table.concat(w:node(id):stable(), " ") == "<ready T1> <abort T1>",
    string.format("site %d aborts once Ci is back", id))
end
expect(w:node(1):get("phase") == "complete" and w:now() == 35, "complete at t=34, Ci trusted again at t=35")
expect(w:check("commit.nonblocking"))
expect(w:check("commit.atomic"))
