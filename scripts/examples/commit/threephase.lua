-- Three-phase commit, the non-blocking counterpart: Silberschatz, Galvin and Gagne, "Operating System
-- Concepts", chapter "Distributed Coordination", section "Atomicity" (which names 3PC as the way
-- around the blocking of 2PC), with Skeen's rules, "Nonblocking Commit Protocols" (1981): no site
-- commits while a live one is still uncertain, so the live sites can decide without the coordinator.
-- The run of twophase-blocking.lua: coordinator 1, participants 2, 3 and 4, links of 2 ticks, a
-- failure detector of 5 ticks.
-- 1) Ci fails at t=3, after the participants logged <ready T1> (t=2) and before their answers reach
--    it. At t=8 they suspect it; 2, the lowest live site, takes over: 3 and 4 send it their state
--    (STATE-REP) as it asks them (STATE-REQ). With both states in (t=10), every site is uncertain
--    (ready): 2 aborts T1 and tells them (t=12), with Ci still down. commit.nonblocking holds.
-- 2) Ci fails at t=5 instead, after sending precommit T1 (t=4): the participants log <precommit T1>
--    (t=6) and acknowledge, but Ci never sees the acknowledgements. 2 takes over at t=10, finds the
--    sites precommitted (t=12), sends precommit T1 again, collects the acknowledgements and commits
--    T1 (t=16); 3 and 4 commit at t=18.

local function run(crash)
  local w = sim.world{ algorithm = "commit.threephase", n = 4, latency = 2, detector = 5 }
  w:at(0, function() w:command(1, "commit") end)
  w:at(crash, function() w:crash(1) end)
  w:run()
  return w
end

for _, case in ipairs{ { 3, "abort", "<ready T1> <abort T1>", 12 }, { 5, "commit", "<ready T1> <precommit T1> <commit T1>", 18 } } do
  local crash, decision, log, done = case[1], case[2], case[3], case[4]
  local w = run(crash)
  for _, id in ipairs{ 2, 3, 4 } do
    expect(w:node(id):get("decision") == decision, string.format("Ci failed at t=%d: site %d decides %s", crash, id, decision))
    expect(table.concat(w:node(id):stable(), " ") == log, string.format("site %d's log: %s", id, table.concat(w:node(id):stable(), " ")))
  end
  local last = 0
  for _, e in ipairs(w:events{ type = "state" }) do
    if e.key == "decision" then last = math.max(last, e.t) end
  end
  expect(not w:node(1):up() and last == done, string.format("decided without Ci, by t=%d", last))
  expect(w:count{ type = "send", kind = "STATE-REQ" } == 2 and w:count{ type = "send", kind = "STATE-REP" } == 4,
    "2 asks 3 and 4; each reports twice (once on suspecting Ci, once asked)")
  expect(w:check("commit.nonblocking"))
end
