-- Ring algorithm: the lecture notes' "Token Ring Election Algorithm" walkthrough (steps 0-11).
-- Six processes in the ring 3,5,0,1,4,6; 6 is the leader and fails; 3 notices and sends an
-- ELECTION message that collects every live id; back at 3 it holds [3,5,0,1,4], so 3 circulates
-- "5 is the leader", which stops when it is back at 3: 10 messages. 3 notices by itself: with the
-- default watch, the coordinator's first live successor notices its failure (earlier versions had
-- every process that suspected 6 start an election, 50 messages, unless the script set
-- watch = false and gave 3 the elect command). A second world sets watch_all, which brings that
-- back: five concurrent elections.
local w = sim.world{ algorithm = "election.ring", ids = { 3, 5, 0, 1, 4, 6 }, detector = 5,
                     config = { leader = 6 } }

-- (gopher-lua's table.concat returns a one-element list's number itself, hence the "" ..)
local function list(l) return "" .. table.concat(l, ",") end

w:at(10, function() w:crash(6) end)             -- step 1: process 6 fails; step 2: 3 notices
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
local m = w:stats().messages
expect(m.ELECTION + m.COORDINATOR == 10, "one initiator: 5 ELECTION and 5 COORDINATOR messages")

-- watch_all: every process that suspects 6 starts an election.
local all = sim.world{ algorithm = "election.ring", ids = { 3, 5, 0, 1, 4, 6 }, detector = 5,
                       config = { leader = 6, watch_all = true } }
all:at(10, function() all:crash(6) end)
all:run()
local ma = all:stats().messages
print(m.ELECTION + m.COORDINATOR, "messages with the default watch,", ma.ELECTION + ma.COORDINATOR, "with watch_all")
expect(ma.ELECTION + ma.COORDINATOR == 50 and all:agreed("leader") == 5,
  "watch_all: five initiators, 25 ELECTION and 25 COORDINATOR messages, and 5 still wins")
