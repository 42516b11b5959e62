-- A bulletin board on causally-ordered multicast: Coulouris et al., "Distributed Systems: Concepts
-- and Design" (5th ed.), section 15.4.3 "Ordered multicast" (the bulletin board example, and
-- "Implementing causal ordering"); Tanenbaum and van Steen, "Distributed Systems: Principles and
-- Paradigms" (2nd ed.), section 6.2.2 "Vector Clocks", "Enforcing Causal Communication"; the
-- lecture notes "Synchronization, Coordination and Agreement", section 3.1.3.2 "Partial, causal and
-- total ordering".
--
-- Process 1 posts an article; process 2 reads it (delivers it at t=1) and posts a reply at t=2.
-- Process 3 is far from 1 (20 ticks) and near 2 (1 tick): the reply reaches it at t=3, the article
-- at t=20.
--
-- World 1, FIFO order (order.fifo): 3 shows the reply at t=3, before the article it answers; the
-- order.causal checker names that delivery.
-- World 2, causal order (order.causal): the reply carries VT = (1,1,0): at 3, VT_3 = (0,0,0) and
-- VT(reply)[1] = 1 > VT_3[1] = 0, so it waits in the hold-back queue until the article comes at
-- t=20; then both go, article first.

local function board(algorithm)
  local w = sim.world{ algorithm = algorithm, ids = { 1, 2, 3 }, latency = 1 }
  w:at(0, function()
    w:link(1, 3, { latency = 20 })
    w:command(1, "multicast", { payload = "article" })
  end)
  w:at(2, function()
    expect(w:node(2):get("post") == "article", algorithm .. ": 2 has read the article when it replies")
    w:command(2, "multicast", { payload = "re: article" })
  end)
  w:run{ until_time = 10 }
  return w
end

-- The posts process id showed, in order.
local function posts(w, id)
  local out = {}
  for _, e in ipairs(w:events{ type = "state", node = id }) do
    if e.key == "post" then out[#out + 1] = e.value end
  end
  return table.concat(out, " / ")
end

local fifo = board("order.fifo")
expect(posts(fifo, 3) == "re: article", "FIFO, t=10: 3 shows the reply, and not yet the article")
fifo:run()
expect(posts(fifo, 3) == "re: article / article", "FIFO: 3 shows the reply before the article")
local ok, why = fifo:check("order.causal")
expect(not ok and why:find("t=3 seq=", 1, true) and why:find("process 3 delivered 2:1 before 1:1, whose multicast happened before 2:1's", 1, true),
       "FIFO order is not causal order: " .. why)

local causal = board("order.causal")
expect(posts(causal, 3) == "" and causal:node(3):get("held") == 1, "causal, t=10: 3 holds the reply back")
causal:run()
expect(posts(causal, 3) == "article / re: article", "causal: 3 shows the article, then the reply")
local vt = causal:node(3):get("vt")
expect(vt[1] == 1 and vt[2] == 1 and vt[3] == 0, "causal: VT_3 = (1,1,0) at the end")
for id = 1, 3 do
  expect(posts(causal, id) == "article / re: article", "causal: process " .. id .. " shows the article first")
end
