-- Totally-ordered multicast by Lamport timestamps needs FIFO links: Tanenbaum and van Steen,
-- "Distributed Systems: Principles and Paradigms" (2nd ed.), section 6.2.1 "Lamport's Logical
-- Clocks", "Example: Totally Ordered Multicasting" ("we assume that messages from the same sender
-- are received in the order they were sent"); the lecture notes "Synchronization, Coordination and
-- Agreement", section 3.1.3.2 "Partial, causal and total ordering".
--
-- At t=0 processes 1 and 2 multicast m1 and m2, both stamped 1: m1 goes first everywhere, by the
-- lower id. The link from 1 to 3 does not keep order: m1 takes 10 ticks, while 1's acknowledgement
-- of m2, sent at t=1, takes 1. At t=2, 3 holds m2 acknowledged by 1 and by itself and nothing
-- before it in its queue, since m1 is still on its way: it delivers m2. Process 2 receives m1 at
-- t=1 and delivers it first, once 3 acknowledges it (t=11). The same world on FIFO links
-- (world 2): 1's acknowledgement waits behind m1, and 3 delivers m1 first too.

local function world(fifo)
  local w = sim.world{ algorithm = "order.total", ids = { 1, 2, 3 }, latency = 1, checks = fifo and nil or {} }
  w:at(0, function()
    w:link(1, 3, { latency = 10, fifo = fifo })
    w:command(1, "multicast", { payload = "m1" })
    w:command(2, "multicast", { payload = "m2" })
    w:link(1, 3, { latency = 1 })
  end)
  w:run()
  return w
end

-- The posts process id showed, in order, each with its time.
local function posts(w, id)
  local out = {}
  for _, e in ipairs(w:events{ type = "state", node = id }) do
    if e.key == "post" then out[#out + 1] = e.value .. "@" .. e.t end
  end
  return table.concat(out, ",")
end

local w = world(false)
expect(posts(w, 3) == "m2@2,m1@10", "links in any order: 3 delivers m2 at t=2, before m1 arrives: " .. posts(w, 3))
expect(posts(w, 2) == "m1@11,m2@11", "2 delivers m1, then m2, once 3 acknowledges m1: " .. posts(w, 2))
local ok, why = w:check("order.total")
expect(not ok and why:find("t=11 seq=", 1, true) and why:find("process 1 delivered 1:1 before 2:1, and process 3 delivered them the other way round", 1, true),
       "caught: " .. why)

local f = world(true)
for id = 1, 3 do
  expect(posts(f, id):gsub("@%d+", "") == "m1,m2", "FIFO links: process " .. id .. " delivers m1 (ts 1, id 1), then m2 (ts 1, id 2)")
end
