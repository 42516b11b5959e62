-- Ring algorithm with two concurrent elections: Tanenbaum and van Steen's example, ring 0..7.
-- (The handwritten notes on election algorithms, "Ring Algorithm": "Ok to have two elections at once".) 7 has crashed;
-- 2 and 5 start elections at once; the messages come back as [2,3,4,5,6,0,1] and [5,6,0,1,2,3,4]; both announce 6.
local w = sim.world{ algorithm = "election.ring", ids = { 0, 1, 2, 3, 4, 5, 6, 7 }, detector = 5,
                     config = { watch = false } }

-- (gopher-lua's table.concat returns a one-element list's number itself, hence the "" ..)
local function list(l) return "" .. table.concat(l, ",") end

w:at(0, function() w:crash(7) end)
w:at(10, function() w:command(2, "elect"); w:command(5, "elect") end)
w:run()

local back = {}
for _, e in ipairs(w:events{ type = "deliver", kind = "ELECTION" }) do
  if e.msg.list[1] == e.to then back[e.to] = list(e.msg.list) end
end
expect(back[2] == "2,3,4,5,6,0,1", "2's election comes back as [2,3,4,5,6,0,1]")
expect(back[5] == "5,6,0,1,2,3,4", "5's election comes back as [5,6,0,1,2,3,4]")
local from2, from5, other = 0, 0, 0
for _, e in ipairs(w:events{ type = "send", kind = "COORDINATOR" }) do
  if e.msg.id ~= 6 then other = other + 1
  elseif e.msg.origin == 2 then from2 = from2 + 1
  elseif e.msg.origin == 5 then from5 = from5 + 1 end
end
expect(from2 == 7 and from5 == 7 and other == 0, "both 2 and 5 circulate COORDINATOR(6) round the 7 live processes")
local toSeven = 0
for _, e in ipairs(w:events{ type = "send" }) do
  if e.to == 7 then toSeven = toSeven + 1 end
end
expect(toSeven == 0, "nobody sends to the crashed 7")
expect(w:agreed("leader") == 6 and w:node(6):get("role") == "leader", "6 is elected")
