-- Ring algorithm with active lists: the example of seed 002 ("Ring Algorithm: Example1"), the rules
-- of seed 000 (Silberschatz, "The Ring Algorithm", cases a, b, c). Ring P1 -> P2 -> P3 -> P4 -> P1,
-- P4 the coordinator; P1 and P4 crash and P2 detects it. elect messages skip the crashed processes
-- (the failure detector suspects them) and both P2 and P3 end with the active list [2,3]: P3 wins.
local w = sim.world{ algorithm = "election.activelist", n = 4, detector = 5,
                     config = { leader = 4, watch = false } }

-- (gopher-lua's table.concat returns a one-element list's number itself, hence the "" ..)
local function list(l) return "" .. table.concat(l or {}, ",") end

w:at(0, function() w:crash(1); w:crash(4) end)
-- P2 detects that the coordinator P4 is not responding.
w:on("suspect", function(ev)
  if ev.node == 4 then w:command(2, "elect") end
end)
w:run()

local m = w:events{ type = "send", kind = "ELECT" }
local function is(e, from, to, id) return e and e.from == from and e.to == to and e.msg.id == id end
expect(#m == 4, "four elect messages in all")
expect(is(m[1], 2, 3, 2), "P2 sends elect(2) to P3, its active list is [2]")
expect(is(m[2], 3, 2, 3) and is(m[3], 3, 2, 2),
  "P3's first elect message: list [2,3], it sends elect(3) then elect(2), past P4 and P1 to P2")
expect(is(m[4], 2, 3, 3), "P2 adds 3 to its list and forwards elect(3) to P3")
expect(list(w:node(2):get("active")) == "2,3" and list(w:node(3):get("active")) == "2,3",
  "P2 and P3 both hold the active list [2,3]")
local toCrashed = 0
for _, e in ipairs(w:events{ type = "send" }) do
  if e.to == 1 or e.to == 4 then toCrashed = toCrashed + 1 end
end
expect(toCrashed == 0, "nothing is sent to the crashed processes")
expect(w:agreed("leader") == 3 and w:node(3):get("role") == "leader", "P2 and P3 choose P3")
