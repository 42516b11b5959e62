-- Ring algorithm: the "Token Ring Election Algorithm" walkthrough of seed 002 (steps 0-11).
-- Six processes in the ring 3,5,0,1,4,6; 6 is the leader and fails; 3 notices and sends an
-- ELECTION message that collects every live id; back at 3 it holds [3,5,0,1,4], so 3 circulates
-- "5 is the leader", which stops when it is back at 3.
local w = sim.world{ algorithm = "election.ring", ids = { 3, 5, 0, 1, 4, 6 }, detector = 5,
                     config = { leader = 6, watch = false } }

-- (gopher-lua's table.concat returns a one-element list's number itself, hence the "" ..)
local function list(l) return "" .. table.concat(l, ",") end

w:at(10, function() w:crash(6) end)             -- step 1: process 6 fails
w:on("suspect", function(ev)                    -- step 2: process 3 notices
  if ev.node == 6 then w:command(3, "elect") end
end)
w:run()

local want = { "3", "3,5", "3,5,0", "3,5,0,1", "3,5,0,1,4" }
local el = w:events{ type = "send", kind = "ELECTION" }
local ok = #el == #want
for i, e in ipairs(el) do ok = ok and list(e.msg.list) == want[i] end
expect(ok, "steps 2-6: each process adds its id: [3] [3,5] [3,5,0] [3,5,0,1] [3,5,0,1,4]")
expect(el[5] and el[5].from == 4 and el[5].to == 3, "4 skips the failed 6 and passes the message to 3")
local co = w:events{ type = "send", kind = "COORDINATOR" }
local path = {}
for _, e in ipairs(co) do
  path[#path + 1] = e.from .. ">" .. e.to
  ok = ok and e.msg.id == 5
end
expect(#co == 5 and co[1].from == 3, "step 7: 3 starts the coordinator message \"5 is the leader\"")
expect(table.concat(path, " ") == "3>5 5>0 0>1 1>4 4>3", "steps 8-11: it goes round once and 3 stops it")
expect(w:agreed("leader") == 5 and w:node(5):get("role") == "leader", "5 is the new leader")
