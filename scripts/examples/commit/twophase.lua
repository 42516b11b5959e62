-- Two-phase commit, the failure-free runs: Silberschatz, Galvin and Gagne, "Operating System Concepts",
-- chapter "Distributed Coordination", section "Atomicity", "The Two-Phase Commit Protocol".
-- Site 1 is the coordinator Ci of transaction T1; sites 2, 3 and 4 are its participants. Every link
-- takes 1 tick.
-- 1) Everyone is willing: Ci adds <prepare T1> and sends prepare T1 (t=0); each participant adds
--    <ready T1> and answers ready T1 (t=1); with every answer in, Ci adds <commit T1> and sends
--    commit T1 (t=2); each participant adds <commit T1> and acknowledges (t=3); with every
--    acknowledgement Ci adds <complete T1> (t=4). 3 + 3 + 3 + 3 = 12 messages.
-- 2) Site 3 is not willing: it adds <no T1> and answers abort T1, and T1 aborts at every site;
--    Ci does not wait for the other answers (t=2).

local function run(no)
  local w = sim.world{ algorithm = "commit.twophase", n = 4 }
  if no then w:at(0, function() w:command(no, "vote", { value = "no" }) end) end
  w:at(0, function() w:command(1, "commit", { t = 1 }) end)
  w:run()
  return w
end

local w = run(nil)
local function log(id) return table.concat(w:node(id):stable(), " ") end
expect(log(1) == "<prepare T1> <commit T1> <complete T1>", "the coordinator's log: " .. log(1))
for id = 2, 4 do
  expect(log(id) == "<ready T1> <commit T1>", string.format("site %d's log: %s", id, log(id)))
  expect(w:node(id):get("decision") == "commit" and w:node(id):get("vote") == "ready", "site " .. id .. " commits")
end
expect(w:node(1):get("phase") == "complete" and w:now() == 4, "complete at t=4")
expect(w:count{ type = "send" } == 12, "12 messages: prepare, ready, commit and ACK, 3 of each")
expect(w:count{ type = "send", kind = "READY" } == 3 and w:count{ type = "send", kind = "ACK" } == 3, "3 READY, 3 ACK")

w = run(3)
expect(log(3) == "<no T1> <abort T1>", "site 3 votes no and aborts at once: " .. log(3))
expect(log(1) == "<prepare T1> <abort T1> <complete T1>", "the coordinator aborts: " .. log(1))
for _, id in ipairs{ 2, 4 } do
  expect(log(id) == "<ready T1> <abort T1>", string.format("site %d's log: %s", id, log(id)))
end
for id = 1, 4 do expect(w:node(id):get("decision") == "abort", "site " .. id .. " aborts") end
local decided
for _, e in ipairs(w:events{ type = "state", node = 1 }) do
  if e.key == "decision" then decided = e.t end
end
expect(decided == 2, "Ci decides at t=2, on site 3's abort T1")
expect(w:check("commit.atomic"))
