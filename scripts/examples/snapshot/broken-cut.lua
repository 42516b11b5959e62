-- Chandy and Lamport's snapshot needs FIFO channels, and Lai and Yang's does not: Coulouris,
-- Dollimore and Kindberg, "Distributed Systems: Concepts and Design" (5th ed.), section 14.5.3 "The
-- 'snapshot' algorithm of Chandy and Lamport" (which assumes channels with FIFO-ordered message
-- delivery); Kshemkalyani and Singhal,
-- "Distributed Computing: Principles, Algorithms, and Systems", section 4.5.1 "Lai-Yang algorithm".
--
-- Two accounts of 100: the bank holds 200. At t=0 P1 sends 30 to P2 on a slow path (10 ticks). At
-- t=1 P1 records its state (70) and sends its marker (5 ticks), then sends 20 more to P2 (1 tick).
-- The links do not keep order: the 20, sent after the recording, reaches P2 at t=2, before the
-- marker, so P2 records 120 at t=6 with the 20 in it, while P1 recorded 70 before sending it: the
-- 20 is counted twice. The 30, sent before the marker, arrives after it at t=10, so the channel
-- P1 -> P2 is recorded empty and the 30 is lost. Recorded: 70 + 120 = 190 instead of 200.
-- snapshot.consistent names the 20 (received inside the cut, sent outside) and snapshot.conserved
-- the total.
--
-- The same schedule with snapshot.laiyang: the 20 is red (P1 sent it after recording), so P2
-- records its state (100) before receiving it; the 30 is white and arrives after P2 turned red, so
-- it is the channel's state, which P2 knows is whole once P1's CONTROL has said that P1 sent one
-- white message on it. Recorded: 70 + 100 + 30 = 200.

local function run(algorithm)
  local w = sim.world{ algorithm = algorithm, ids = { 1, 2 }, fifo = false, config = { balance = 100 },
                       checks = algorithm ~= "snapshot.laiyang" and {} or nil }
  w:at(0, function()
    w:link(1, 2, { latency = 10 })
    w:command(1, "transfer", { to = 2, amount = 30 })
  end)
  w:at(1, function()
    w:link(1, 2, { latency = 5 })
    w:command(1, "snapshot")
    w:link(1, 2, { latency = 1 })
    w:command(1, "transfer", { to = 2, amount = 20 })
  end)
  w:run()
  local recorded, channels = 0, 0
  for _, e in ipairs(w:events{ type = "state" }) do
    if e.key == "recorded" then recorded = recorded + e.value[2] end
    if e.key == "channel" then
      for i = 4, #e.value, 2 do channels = channels + e.value[i] end
    end
  end
  return w, recorded, channels
end

local cl, balances, channels = run("snapshot.chandylamport")
expect(balances == 190 and channels == 0, string.format("Chandy-Lamport without FIFO records %d in the accounts and %d in the channels: 190, not 200", balances, channels))
local ok, why = cl:check("snapshot.consistent")
expect(not ok and why:find("transfer 2 of 20 from 1 to 2 was sent after 1 recorded its state and received before 2 did") and why:find("and 1 more"),
       "caught (the 20 counted twice, the 30 lost): " .. why)
ok, why = cl:check("snapshot.conserved")
expect(not ok and why:find("records a total of 190 %(balances 190, channels 0%), but the bank holds 200"), "caught: " .. why)

-- The recorded cut judged from the trace: the 20 crosses it backwards, and the 30 is in flight
-- across it though the channel was recorded empty. The cut at each process is its recording event
-- (P1's came from the snapshot command, P2's from the marker's delivery, which is outside it).
local cut, last = {}, {}
for _, e in ipairs(cl:events()) do
  if e.type == "state" and e.key == "recorded" then
    cut[e.node] = last[e.node].type == "deliver" and last[e.node].seq - 1 or e.seq - 1
  end
  if e.node then last[e.node] = e end
end
local consistent, backward, in_flight = cl:consistent(cut)
local function list(ms)
  local out = {}
  for _, m in ipairs(ms) do out[#out + 1] = string.format("%s %d->%d", m.kind, m.from, m.to) end
  return table.concat(out, ", ")
end
expect(not consistent and list(backward) == "TRANSFER 1->2", "crossing the cut backwards: " .. list(backward))
expect(list(in_flight) == "TRANSFER 1->2", "in flight across it, and missing from the channel: " .. list(in_flight))

local ly
ly, balances, channels = run("snapshot.laiyang")
expect(balances == 170 and channels == 30, string.format("Lai-Yang on the same schedule records %d in the accounts and %d in the channel: 200", balances, channels))
expect(ly:node(2):get("channel")[3] == 1 and ly:node(2):get("channel")[4] == 30, "P2's channel from P1 holds transfer #1, of 30")
-- World 2 records snapshot.consistent and snapshot.conserved at the end: both pass.
