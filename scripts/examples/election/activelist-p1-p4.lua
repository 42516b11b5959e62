-- Ring algorithm with active lists: the lecture notes' "Ring Algorithm: Example1", with the rules
-- of Silberschatz, Galvin and Gagne ("The Ring Algorithm", cases a, b, c). Ring P1 -> P2 -> P3 -> P4
-- -> P1, P4 the coordinator; P1 and P4 crash and P2 detects it: with the default watch, the
-- coordinator's first live successor notices, here P2 as P1 is down too (no elect command is needed).
-- elect messages skip the crashed processes (the failure detector suspects them) and both P2 and P3
-- end with the active list [2,3]: P3 wins, and each sends "Elected(P3)" to its right neighbour, as
-- the notes' example ends (config elected, on by default; earlier versions sent none).
-- Then the textbook's recovery (the end of "The Ring Algorithm", config inquiry, on by default;
-- earlier versions held an election): a recovering process sends an inquiry round the ring to the
-- coordinator, which replies with its number. P1 learns that P3 is the coordinator; P4, higher than
-- the coordinator that replies, holds an election and becomes coordinator.
local w = sim.world{ algorithm = "election.activelist", n = 4, detector = 5, config = { leader = 4 } }

-- (gopher-lua's table.concat returns a one-element list's number itself, hence the "" ..)
local function list(l) return "" .. table.concat(l or {}, ",") end

w:at(0, function() w:crash(1); w:crash(4) end)
w:run()

local m = w:events{ type = "send", kind = "ELECT" }
local function is(e, from, to, id) return e and e.from == from and e.to == to and e.msg.id == id end
expect(#m == 4, "four elect messages in all")
expect(is(m[1], 2, 3, 2), "P2 detects the failure and sends elect(2) to P3, its active list is [2]")
expect(is(m[2], 3, 2, 3) and is(m[3], 3, 2, 2),
  "P3's first elect message: list [2,3], it sends elect(3) then elect(2), past P4 and P1 to P2")
expect(is(m[4], 2, 3, 3), "P2 adds 3 to its list and forwards elect(3) to P3")
expect(list(w:node(2):get("active")) == "2,3" and list(w:node(3):get("active")) == "2,3",
  "P2 and P3 both hold the active list [2,3]")
local el = w:events{ type = "send", kind = "ELECTED" }
expect(#el == 2 and is(el[1], 2, 3, 3) and is(el[2], 3, 2, 3),
  "P2 and P3 each choose P3 and send an Elected(P3) message")
local toCrashed = 0
for _, e in ipairs(w:events{ type = "send" }) do
  if e.to == 1 or e.to == 4 then toCrashed = toCrashed + 1 end
end
expect(toCrashed == 0, "nothing is sent to the crashed processes")
expect(w:agreed("leader") == 3 and w:node(3):get("role") == "leader", "P2 and P3 choose P3")

-- P1 recovers: its inquiry goes round the ring to the coordinator P3, whose reply skips P4.
w:at(100, function() w:recover(1) end)
w:run()
local function path(kind)
  local p = {}
  for _, e in ipairs(w:events{ type = "send", kind = kind }) do p[#p + 1] = e.from .. ">" .. e.to end
  return table.concat(p, " ")
end
expect(path("INQUIRY") == "1>2 2>3" and path("REPLY") == "3>1",
  "recovered P1's inquiry is forwarded to the coordinator P3, which replies with its number")
expect(#w:events{ type = "send", kind = "ELECT" } == 4, "no election: P1 just learns the coordinator")
expect(w:agreed("leader") == 3, "P1, P2 and P3 follow P3")

-- P4 recovers: P3's reply names a lower process, so P4 holds an election and wins it.
w:at(200, function() w:recover(4) end)
w:run()
expect(w:agreed("leader") == 4 and w:node(4):get("role") == "leader",
  "recovered P4, higher than the coordinator that replied, is elected")
print(w:count{ type = "send", kind = "ELECT" } - 4, "ELECT messages in P4's election")
