-- Lamport's clocks correcting three clocks that tick at different rates: Tanenbaum and van Steen,
-- "Distributed Systems: Principles and Paradigms" (2nd ed.), section 6.2.1 "Lamport's Logical
-- Clocks", Figure 6-9; the lecture notes "Synchronization, Coordination and Agreement", section
-- 3.1.3.4 "Lamport logical clock".
--
-- P1, P2 and P3 tick 6, 8 and 10 per step (d = 6, d_step = 2), one event per step each, a step
-- being 10 ticks of the simulation; a message takes one step. m1 goes from P1 to P2, m2 from P2 to
-- P3, m3 from P3 back to P2 and m4 from P2 to P1. m3 leaves P3 at 60 and arrives when P2 reads 56:
-- IR2 moves P2's clock to 61. m4, sent by P2 the step after that correction, carries 69 (64
-- without it) and arrives when P1 reads 54, which becomes 70.
--
-- World 2 is the figure's part (a): the same steps with clocks that only tick (ir2 = false). m3
-- arrives at 56 "before" it was sent at 60, and the clock.lamport checker names that event.

local sends = { [1] = { 1, 2 }, [3] = { 2, 3 }, [6] = { 3, 2 }, [8] = { 2, 1 } } -- step: from, to
local receives = { [2] = 2, [4] = 3, [7] = 2, [9] = 1 }                       -- step: receiver

local function figure(ir2)
  local w = sim.world{ algorithm = "clock.lamport", ids = { 1, 2, 3 }, latency = 10,
                       config = { d = 6, d_step = 2, ir2 = ir2 }, checks = (not ir2) and {} or nil }
  for step = 1, 10 do
    w:at(10 * step, function()
      for id = 1, 3 do
        local s = sends[step]
        if s and s[1] == id then
          w:command(id, "send", { to = s[2] })
        elseif receives[step] ~= id then
          w:command(id, "internal")
        end
      end
    end)
  end
  return w
end

-- The clock of process id after each step, and the timestamps m1..m4 carry.
local function column(w, id)
  local out = {}
  for _, e in ipairs(w:events{ type = "state", node = id }) do
    if e.key == "clock" then out[#out + 1] = e.value end
  end
  return table.concat(out, ",")
end
local function stamps(w)
  local out = {}
  for _, e in ipairs(w:events{ type = "send" }) do out[#out + 1] = e.msg.ts end
  return table.concat(out, ",")
end

local w = figure(true)
w:run{ until_time = 70 }
expect(w:node(2):get("clock") == 61, "m3, sent at 60, arrives at P2 at 56: its clock becomes 61")
w:run()
expect(stamps(w) == "6,24,60,69", "m1..m4 carry 6, 24, 60 and 69 (m4 after the correction)")
expect(column(w, 1) == "0,6,12,18,24,30,36,42,48,70,76", "P1: 0, 6, ..., 48, then m4 stamped 69 arrives at 54 and it becomes 70")
expect(column(w, 2) == "0,8,16,24,32,40,48,61,69,77,85", "P2: 0, 8, ..., 48, 61 (m3), 69, 77, 85")
expect(column(w, 3) == "0,10,20,30,40,50,60,70,80,90,100", "P3: 0, 10, ..., 100: no message reached it early")

-- The total order: events by (C, id of their process). P1 reads 24 at step 4 and P2 sends m2 at
-- 24 at step 3; neither happened before the other, and the lower id goes first.
local order = {}
for _, e in ipairs(w:events{ type = "state" }) do
  if e.old then order[#order + 1] = { c = e.value, id = e.node } end
end
table.sort(order, function(x, y) return x.c < y.c or x.c == y.c and x.id < y.id end)
local ties = {}
for i = 2, #order do
  if order[i].c == order[i - 1].c then ties[#ties + 1] = string.format("%d: P%d, P%d", order[i].c, order[i - 1].id, order[i].id) end
end
expect(table.concat(ties, "; ") == "24: P1, P2; 30: P1, P3; 40: P2, P3; 48: P1, P2; 70: P1, P3",
       "ties in C are broken by id: " .. table.concat(ties, "; "))

local a = figure(false)
a:run()
expect(stamps(a) == "6,24,60,64", "without IR2, m4 leaves P2 at 64")
expect(column(a, 2) == "0,8,16,24,32,40,48,56,64,72,80" and a:node(1):get("clock") == 60,
       "without IR2 the clocks only tick: P2 reads 56 at m3's arrival, P1 54 at m4's")
local ok, why = a:check("clock.lamport")
expect(not ok and why:find("t=70 seq=") and why:find("process 2's event has C=56"), "caught: " .. why)
