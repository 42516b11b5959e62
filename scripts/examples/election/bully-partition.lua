-- The bully algorithm outside its assumptions: a partition. The algorithm is built for a synchronous
-- system with reliable links (Coulouris et al., Distributed Systems: Concepts and Design,
-- "Elections", "The bully algorithm"): a process that hears nothing from the coordinator within T
-- takes it for crashed. A partition breaks that: each side elects its own coordinator, and once the
-- partition heals nothing tells either of them about the other, so both lead for ever. The world
-- says so once, as a warning in its trace, when the partition starts.
--
-- Processes 1..5, coordinator 5 known at boot, every follower probing its coordinator every 40 ticks.
-- The partition {1, 2, 3} | {4, 5} from t=10 to t=300: 1, 2 and 3 probe 5 in vain, hold an election
-- and 3 wins; 4 keeps following 5. After the heal 1 and 2 probe 3, 4 probes 5, and both answer.
local w = sim.world{ algorithm = "election.bully", n = 5, config = { leader = 5, probe = 40 },
                     checks = {} } -- no checks recorded at the end: agreement is broken on purpose
local warning
w:on("warning", function(ev) warning = ev.text end)

w:run{ until_time = 10 }
w:partition({ 1, 2, 3 }, { 4, 5 })
w:run{ until_time = 300 }
expect(w:node(3):get("role") == "leader" and w:node(5):get("role") == "leader",
  "t=300: each side of the partition has its coordinator, 3 and 5")
w:heal()
w:run{ until_time = 1000 }
expect(w:node(3):get("role") == "leader" and w:node(5):get("role") == "leader"
  and w:node(1):get("leader") == 3 and w:node(4):get("leader") == 5,
  "t=1000, long after the heal: 3 and 5 still both lead, 1 and 2 follow 3, 4 follows 5")
expect(warning ~= nil, "the world warned: " .. tostring(warning))
expect(w:agreed("leader") == nil, "the live processes do not agree on a coordinator")
