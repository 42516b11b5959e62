-- Bully algorithm: Tanenbaum and van Steen's example with processes 0..7, as the lecture notes give it
-- ("Synchronization, Coordination and Agreement", "Bully Algorithm: Example (1)" and "(2)"). The coordinator 7 has
-- crashed. Process 4 holds an election; 5 and 6 answer and hold their own; 6 tells 5 to stop; 6 wins and tells everyone.
local w = sim.world{ algorithm = "election.bully", ids = { 0, 1, 2, 3, 4, 5, 6, 7 },
                     config = { leader = 7, T = 10, T2 = 30 } }

local function sent(kind, from, to)
  local n = 0
  for _, e in ipairs(w:events{ type = "send", kind = kind, node = from }) do
    if e.to == to then n = n + 1 end
  end
  return n
end

w:at(0, function() w:crash(7) end)
w:at(5, function() w:command(4, "elect") end)
w:run()

expect(sent("ELECTION", 4, 5) + sent("ELECTION", 4, 6) + sent("ELECTION", 4, 7) == 3
  and w:count{ type = "send", kind = "ELECTION", node = 4 } == 3,
  "a) process 4 sends ELECTION to 5, 6 and 7 only")
expect(sent("ANSWER", 5, 4) == 1 and sent("ANSWER", 6, 4) == 1, "b) 5 and 6 respond, telling 4 to stop")
expect(sent("ELECTION", 5, 6) == 1 and sent("ELECTION", 5, 7) == 1 and sent("ELECTION", 6, 7) == 1,
  "c) now 5 and 6 each hold an election")
expect(sent("ANSWER", 6, 5) == 1, "d) process 6 tells 5 to stop")
expect(w:count{ type = "send", kind = "COORDINATOR", node = 6 } == 6, "e) process 6 wins and tells 0..5")
expect(w:agreed("leader") == 6 and w:node(6):get("role") == "leader", "everyone follows 6")
