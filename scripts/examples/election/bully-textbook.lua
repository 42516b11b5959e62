-- Bully algorithm: the worked example P1..P4 of Silberschatz, Galvin and Gagne.
-- (Operating System Concepts, ch. 18 "Distributed Coordination", "The Bully Algorithm".) P4 is the coordinator;
-- P1 and P4 fail; P2's request goes unanswered within T, so P2 holds an election and P3 wins. P1 recovers and runs
-- the algorithm: P3 still wins. P4 recovers and, with nobody higher, tells everyone it is the coordinator unasked.
local w = sim.world{ algorithm = "election.bully", n = 4, config = { leader = 4, T = 10, T2 = 30 } }

-- the number of messages of a kind sent from one process to another
local function sent(kind, from, to)
  local n = 0
  for _, e in ipairs(w:events{ type = "send", kind = kind, node = from }) do
    if e.to == to then n = n + 1 end
  end
  return n
end

-- 1-2. All processes are active, P4 is the coordinator; P1 and P4 fail.
w:at(0, function() w:crash(1); w:crash(4) end)
-- P2 sends a request to the coordinator, which is not answered within T.
w:at(5, function() w:command(2, "probe") end)
w:run{ until_time = 50 }
expect(sent("PROBE", 2, 4) == 1 and w:count{ type = "send", kind = "REPLY" } == 0,
  "P2's PROBE (its request) to P4 gets no REPLY")
expect(sent("ELECTION", 2, 3) == 1 and sent("ELECTION", 2, 4) == 1,
  "P2 begins its election: ELECTION to every higher process")
-- 3. P3 responds to P2 and begins its own election.
expect(sent("ANSWER", 3, 2) == 1 and sent("ELECTION", 3, 4) == 1,
  "P3 answers P2 and sends ELECTION to P4")
-- 4-5. P2 waits T'; P4 does not answer P3 within T, so P3 elects itself and tells P1 (down) and P2.
expect(w:node(3):get("role") == "leader", "P3 elects itself after T without an answer")
expect(sent("COORDINATOR", 3, 1) == 1 and sent("COORDINATOR", 3, 2) == 1,
  "P3 sends its number to P1 and P2")
expect(w:count{ type = "drop", kind = "COORDINATOR" } == 1, "P1 does not receive it: it has failed")
expect(w:agreed("leader") == 3, "P2 and P3 agree on P3")

-- 6. P1 recovers and sends ELECTION to P2, P3 and P4.
w:at(100, function() w:recover(1) end)
w:run{ until_time = 150 }
expect(sent("ELECTION", 1, 2) == 1 and sent("ELECTION", 1, 3) == 1 and sent("ELECTION", 1, 4) == 1,
  "recovered P1 sends ELECTION to P2, P3 and P4")
-- 7. P2 and P3 respond and begin their own elections; P3 is elected again.
expect(sent("ANSWER", 2, 1) == 1 and sent("ANSWER", 3, 1) == 1, "P2 and P3 answer P1")
expect(sent("ELECTION", 2, 3) == 2, "P2 begins its own election again")
expect(w:agreed("leader") == 3 and w:node(3):get("role") == "leader", "P3 is elected again")

-- 8. P4 recovers: it is the highest, so it sends no ELECTION and bullies everyone.
w:at(200, function() w:recover(4) end)
w:run()
expect(w:count{ type = "send", kind = "ELECTION", node = 4 } == 0, "P4 sends no election requests")
expect(sent("COORDINATOR", 4, 1) == 1 and sent("COORDINATOR", 4, 2) == 1 and sent("COORDINATOR", 4, 3) == 1,
  "P4 tells P1, P2 and P3 that it is the coordinator")
expect(w:agreed("leader") == 4 and w:node(4):get("role") == "leader", "everyone follows P4")
expect(w:node(3):get("role") == "follower", "P3 is bullied out of the coordinator position")
