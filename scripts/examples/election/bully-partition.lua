-- Bully algorithm after a healed partition, where the texts are silent. 8 is the coordinator and every
-- process probes its coordinator every 40 ticks. The network splits into {1..7} and {8}: the probes of
-- 1..7 go unanswered, they hold an election, and 7, getting no ANSWER from 8, wins on its side while 8
-- stays coordinator on its own. The heal alone changes nothing: no rule of the texts makes the two
-- coordinators meet. So a coordinator's probe sends ELECTION to the higher processes its failure detector
-- does not suspect: the recovered-process rule (Silberschatz, Galvin and Gagne, "Election Algorithms",
-- the bully algorithm) seen from the other side. 8 answers, holds its own election and, with nobody
-- higher, bullies everyone.
local w = sim.world{ algorithm = "election.bully", n = 8, config = { leader = 8, T = 10, T2 = 30, probe = 40 } }

w:at(0, function() w:partition({ 1, 2, 3, 4, 5, 6, 7 }, { 8 }) end)
w:run{ until_time = 99 }
expect(w:node(7):get("role") == "leader" and w:node(8):get("role") == "leader",
  "during the partition each side has its own coordinator: 7 and 8")
expect(w:count{ type = "drop", kind = "PROBE" } == 7, "the first probes to 8 are lost in the partition")

w:at(100, function() w:heal() end)
w:run{ until_time = 119 }
expect(w:node(7):get("role") == "leader" and w:node(8):get("role") == "leader",
  "after the heal, until the next probe, both still coordinate")

w:run{ until_time = 150 }
local asked = w:events{ type = "send", kind = "ELECTION", node = 7 }
expect(#asked > 0 and asked[#asked].to == 8 and asked[#asked].t == 120,
  "at its probe, coordinator 7 sends ELECTION to 8, which it had taken for failed")
expect(w:count{ type = "send", kind = "COORDINATOR", node = 8 } == 7, "8 answers, wins its own election and tells 1..7")
expect(w:agreed("leader") == 8 and w:node(8):get("role") == "leader" and w:node(7):get("role") == "follower",
  "one coordinator again: the highest process, 8")
