-- The active-list ring election outside its latency bound: hop below the latency.
-- The rings' restart rule is this project's, where the texts are silent (Silberschatz, Galvin and
-- Gagne, Operating System Concepts, "Distributed Coordination", "The Ring Algorithm", assumes no
-- failure during an election): an election with no outcome after 3·n·hop ticks starts a new round,
-- so config hop must bound a message's latency on one link. Here every message takes 30 ticks.
--
-- World 1, hop = 10: a round of elect messages round the 4 processes takes 4 x 30 = 120 ticks, as
-- long as the restart timeout, 3 x 4 x 10 = 120 ticks, and the timer, armed first, fires first. So
-- every round gives way to a newer one and no election ever ends: no coordinator by t=3000, and the
-- round numbers keep climbing. The world warns once, when it is built, that its latency is above hop.
-- World 2, hop = 30, within the bound: one round, and 4 is the coordinator of everyone; the world
-- records the election properties at the end, which world 1, breaking them on purpose, does not.
local function elect(hop)
  local w = sim.world{ algorithm = "election.activelist", n = 4, latency = 30, config = { hop = hop },
                       max_time = 3000, checks = hop < 30 and {} or nil }
  w:command(1, "elect")
  w:run()
  return w
end

local w = elect(10)
expect(w:agreed("leader") == nil and w:node(1):get("role") == "candidate",
  "hop = 10: no coordinator by t=3000, still electing")
expect(w:node(1):get("round") > 10, "hop = 10: round " .. tostring(w:node(1):get("round")) .. " at t=3000")
local warnings = w:events{ type = "warning" }
expect(#warnings == 1, "hop = 10: the world warned, once: " .. tostring(warnings[1] and warnings[1].text))

w = elect(30)
expect(w:agreed("leader") == 4, "hop = 30: 4 is the coordinator of everyone")
expect(w:count{ type = "warning" } == 0, "hop = 30: within the bound, no warning")
