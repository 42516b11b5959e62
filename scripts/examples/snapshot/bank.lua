-- A bank's global state recorded by Chandy and Lamport's snapshot algorithm: Coulouris, Dollimore
-- and Kindberg, "Distributed Systems: Concepts and Design" (5th ed.), section 14.5.3 "The
-- 'snapshot' algorithm of Chandy and Lamport"; the lecture notes "Synchronization, Coordination and
-- Agreement", section 3.1.3.3 "Global State and State Recording".
--
-- Three accounts of 100 each: the bank holds 300. At t=0 P1 sends 30 to P2 (a slow link: 5 ticks)
-- and P2 sends 50 to P1 (4 ticks). At t=1 P1 initiates the snapshot: it records 70 and sends
-- markers (Marker sending rule); the one to P2 travels behind the 30, as the links are FIFO. P3
-- gets its marker at t=2 and records 100 (Marker receiving rule: its channel from P1 is empty), and
-- its marker makes P2 record 50 at t=3, before the 30 arrives. So the 30 arrives at P2 after it
-- recorded and before P1's marker: it is the recorded state of the channel P1 -> P2; the 50
-- likewise arrives at P1 before P2's marker, at t=4 and t=7. Recorded: 70 + 50 + 100 in the
-- accounts and 30 + 50 in the channels, 300 in all, although no process ever saw the money in
-- flight at one instant.

local w = sim.world{ algorithm = "snapshot.chandylamport", ids = { 1, 2, 3 }, config = { balance = 100 } }
w:at(0, function()
  w:link(1, 2, { latency = 5 })
  w:link(2, 1, { latency = 4 })
  w:command(1, "transfer", { to = 2, amount = 30 })
  w:command(2, "transfer", { to = 1, amount = 50 })
end)
w:at(1, function() w:command(1, "snapshot", { id = 1 }) end)
w:run()

-- The recorded states and channels, from the keys the processes set.
local recorded, channels, cut, delivered, in_channels = {}, {}, {}, {}, 0
for _, e in ipairs(w:events()) do
  if e.type == "deliver" then delivered[e.seq] = e.node end
  if e.type == "state" and e.key == "recorded" then
    recorded[e.node] = e.value[2]
    -- The cut passes before the delivery whose marker made the process record.
    cut[e.node] = delivered[e.seq - 1] == e.node and e.seq - 2 or e.seq - 1
  elseif e.type == "state" and e.key == "channel" then
    local held = {}
    for i = 3, #e.value, 2 do
      held[#held + 1] = string.format("#%d:%d", e.value[i], e.value[i + 1])
      in_channels = in_channels + e.value[i + 1]
    end
    channels[#channels + 1] = string.format("%d->%d {%s}", e.value[2], e.node, table.concat(held, ","))
  end
end
expect(recorded[1] == 70 and recorded[2] == 50 and recorded[3] == 100, "recorded balances 70, 50, 100")
expect(table.concat(channels, " ") == "1->3 {} 3->1 {} 3->2 {} 2->3 {} 1->2 {#1:30} 2->1 {#1:50}",
       "channels in the order recorded: " .. table.concat(channels, " "))
expect(in_channels == 80 and recorded[1] + recorded[2] + recorded[3] + in_channels == 300,
       "70 + 50 + 100 in the accounts and 30 + 50 in the channels: 300, the bank's total")
expect(w:node(1):get("balance") == 120 and w:node(2):get("balance") == 80 and w:node(3):get("balance") == 100,
       "after the run: 120, 80, 100")

-- The same cut judged from the trace alone: consistent, and the transfers in flight across it are
-- the two the channels recorded.
local ok, backward, in_flight = w:consistent(cut)
local flying = {}
for _, m in ipairs(in_flight) do flying[#flying + 1] = string.format("%s %d->%d", m.kind, m.from, m.to) end
expect(ok and #backward == 0, "the recorded cut is consistent")
expect(table.concat(flying, ", ") == "TRANSFER 1->2, TRANSFER 2->1", "in flight across it: " .. table.concat(flying, ", "))
