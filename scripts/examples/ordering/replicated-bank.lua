-- A replicated database updated by concurrent multicasts: Tanenbaum and van Steen, "Distributed
-- Systems: Principles and Paradigms" (2nd ed.), section 6.2.1 "Lamport's Logical Clocks", "Example:
-- Totally Ordered Multicasting", Figure 6-11; Coulouris et al., "Distributed Systems: Concepts and
-- Design" (5th ed.), section 15.4.3 "Ordered multicast", "Implementing total ordering" (the
-- sequencer); the lecture notes "Synchronization, Coordination and Agreement", section 3.1.3.2
-- "Partial, causal and total ordering".
--
-- An account of $1000 is replicated in San Francisco (process 1) and New York (process 2). A
-- customer in San Francisco deposits $100 while, at the same time, an employee in New York adds
-- 1% interest: each replica multicasts its update to both, and each applies the updates in the
-- order its ordering delivers them. The link across the continent takes 10 ticks.
--
-- World 1, FIFO order (order.fifo): each replica applies its own update first. San Francisco
-- computes (1000 + 100) * 1.01 = 1111, New York 1000 * 1.01 + 100 = 1110: the replicas diverge.
-- FIFO order holds (each replica sent only one update), total order does not.
-- World 2, total order with Lamport timestamps and acknowledgements (order.total): both updates
-- are stamped 1, the tie goes to the lower id, San Francisco's deposit first: both hold 1111.
-- World 3, total order by a sequencer (order.total, variant "sequencer"; the sequencer is the
-- first process, San Francisco): the deposit is numbered 0, the interest 1: both hold 1111.

local function bank(algorithm, variant)
  local w = sim.world{ algorithm = algorithm, ids = { 1, 2 }, latency = 10,
                       config = { app = "bank", balance = 1000, variant = variant } }
  w:at(0, function()
    w:command(1, "multicast", { payload = "+100" }) -- San Francisco: deposit $100
    w:command(2, "multicast", { payload = "+1%" })  -- New York: 1% interest
  end)
  w:run()
  return w
end

-- The labels a replica delivered, in order ("1:1" is San Francisco's update, "2:1" New York's).
local function delivered(w, id)
  local out = {}
  for _, e in ipairs(w:events{ type = "state", node = id }) do
    if e.key == "delivered" then out[#out + 1] = e.value end
  end
  return table.concat(out, ",")
end

local fifo = bank("order.fifo")
expect(fifo:node(1):get("balance") == 1111, "FIFO: San Francisco applies +100 then +1%: (1000 + 100) * 1.01 = 1111")
expect(fifo:node(2):get("balance") == 1110, "FIFO: New York applies +1% then +100: 1000 * 1.01 + 100 = 1110")
expect(delivered(fifo, 1) == "1:1,2:1" and delivered(fifo, 2) == "2:1,1:1", "FIFO: each replica delivers its own update first")
local ok, why = fifo:check("order.total")
expect(not ok and why:find("t=10 seq=", 1, true) and why:find("process 1 delivered 1:1 before 2:1, and process 2 delivered them the other way round", 1, true),
       "FIFO order is not total order: " .. why)

local lamport = bank("order.total")
expect(lamport:node(1):get("balance") == 1111 and lamport:node(2):get("balance") == 1111,
       "total order (Lamport): both replicas apply +100 (ts 1, id 1) before +1% (ts 1, id 2): 1111")
expect(delivered(lamport, 1) == "1:1,2:1" and delivered(lamport, 2) == "1:1,2:1", "total order (Lamport): the same order at both")
local acks = lamport:count{ type = "send", kind = "ACK" }
expect(acks == 2, "each replica acknowledges the other's update once: " .. acks .. " ACKs")

local sequencer = bank("order.total", "sequencer")
expect(sequencer:node(1):get("balance") == 1111 and sequencer:node(2):get("balance") == 1111,
       "total order (sequencer): the deposit is numbered 0, the interest 1: 1111 at both")
local orders = {}
for _, e in ipairs(sequencer:events{ type = "send", kind = "ORDER" }) do
  orders[#orders + 1] = string.format("%d:%d=%d", e.msg.origin, e.msg.seq, e.msg.s)
end
expect(table.concat(orders, ",") == "1:1=0,2:1=1", "the sequencer's orders: " .. table.concat(orders, ","))
