-- FIFO-ordered multicast over a link that reorders: Coulouris et al., "Distributed Systems: Concepts
-- and Design" (5th ed.), section 15.4.3 "Ordered multicast", "Implementing FIFO ordering"; the
-- lecture notes "Synchronization, Coordination and Agreement", section 3.1.3.2 "Partial, causal and
-- total ordering".
--
-- Process 1 multicasts m1, m2 and m3 at t=0, 1 and 2 to processes 2 and 3. The link from 1 to 2
-- does not keep order: m1 takes 10 ticks, m2 5, m3 1, so 2 receives m3 at t=3, m2 at t=6 and m1 at
-- t=10. Each carries S, 1's sequence number for it: m3 (S=3) and m2 (S=2) wait in 2's hold-back
-- queue, as R_1 + 1 = 1, until m1 comes; then 2 delivers m1, m2, m3 at t=10. The link to 3 keeps
-- order (1 tick): 3 delivers each as it comes.

local w = sim.world{ algorithm = "order.fifo", ids = { 1, 2, 3 }, latency = 1 }
for k, latency in ipairs{ 10, 5, 1 } do
  w:at(k - 1, function()
    w:link(1, 2, { latency = latency, fifo = false })
    w:command(1, "multicast", { payload = "m" .. k })
  end)
end

local held, delivered = {}, {}
w:on("state", function(e)
  if e.node == 2 and e.key == "held" then held[#held + 1] = string.format("t=%d:%d", e.t, e.value) end
  if e.node == 2 and e.key == "delivered" then delivered[#delivered + 1] = string.format("t=%d:%s", e.t, e.value) end
end)
w:run()

expect(table.concat(held, " ") == "t=0:0 t=3:1 t=6:2 t=10:1 t=10:0",
       "2 starts with an empty queue, holds m3 back at t=3, m2 at t=6, and, m1 delivered at once when it comes at t=10, empties the queue: " .. table.concat(held, " "))
expect(table.concat(delivered, " ") == "t=10:1:1 t=10:1:2 t=10:1:3", "2 delivers m1, m2, m3 in 1's order at t=10: " .. table.concat(delivered, " "))
local arrivals = {}
for _, e in ipairs(w:events{ type = "deliver", node = 2 }) do arrivals[#arrivals + 1] = e.msg.payload end
expect(table.concat(arrivals, ",") == "m3,m2,m1", "the network hands them to 2 as m3, m2, m1")
expect(w:node(3):get("post") == "m3" and w:node(3):get("held") == 0, "3, on a FIFO link, delivers each as it comes")
