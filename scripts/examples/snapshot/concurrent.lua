-- Two snapshots in progress at once: Coulouris, Dollimore and Kindberg, "Distributed Systems:
-- Concepts and Design" (5th ed.), section 14.5.3 "The 'snapshot' algorithm of Chandy and Lamport"
-- ("any process may initiate the algorithm at any time ... there may be several processes
-- initiating state recording concurrently"); the lecture notes "Synchronization, Coordination and
-- Agreement", section 3.1.3.3 "Global State and State Recording".
--
-- Four accounts of 100 (the bank holds 400) moving money at random, up to 8 transfers each, on FIFO links
-- of 1 to 6 ticks. At t=20 P1 initiates snapshot 1 and P3 snapshot 2: each marker carries its
-- snapshot's id and every process keeps a record per snapshot, so the two run through each other.
-- Each records a consistent cut, judged from the trace with w:consistent, whose channel states are
-- the transfers in flight across it, and each adds up to 400.

local w = sim.world{ algorithm = "snapshot.chandylamport", ids = { 1, 2, 3, 4 }, latency = { "uniform", 1, 6 },
                     seed = 7, config = { balance = 100, events = 8, rate = 0.2 } }
w:at(20, function()
  w:command(1, "snapshot", { id = 1 })
  w:command(3, "snapshot", { id = 2 })
end)
w:run()

-- Each snapshot's cut, recorded balances and channel states, from the recorded and channel keys;
-- the cut at a process is its recording event, before the marker's delivery that made it record.
local snaps, last = {}, {}
local function snap(s)
  snaps[s] = snaps[s] or { cut = {}, balances = 0, channels = 0, recorded = {} }
  return snaps[s]
end
for _, e in ipairs(w:events()) do
  if e.type == "state" and e.key == "recorded" then
    local r = snap(e.value[1])
    r.cut[e.node] = last[e.node].type == "deliver" and last[e.node].seq - 1 or e.seq - 1
    r.balances = r.balances + e.value[2]
  elseif e.type == "state" and e.key == "channel" then
    local r = snap(e.value[1])
    for i = 3, #e.value, 2 do
      r.channels = r.channels + e.value[i + 1]
      r.recorded[string.format("%d->%d #%d", e.value[2], e.node, e.value[i])] = true
    end
  end
  if e.node then last[e.node] = e end
end

-- The transfers a process sent, by message id: the id they carry.
local ids = {}
for _, e in ipairs(w:events{ type = "send", kind = "TRANSFER" }) do ids[e.id] = e.msg.id end

for s = 1, 2 do
  local r = snaps[s]
  local ok, backward, in_flight = w:consistent(r.cut)
  local flying, n = {}, 0
  for _, m in ipairs(in_flight) do
    if m.kind == "TRANSFER" then
      n = n + 1
      flying[#flying + 1] = string.format("%d->%d #%d", m.from, m.to, ids[m.id])
    end
  end
  local same = true
  for _, f in ipairs(flying) do same = same and r.recorded[f] end
  local recorded = 0
  for _ in pairs(r.recorded) do recorded = recorded + 1 end
  expect(ok and #backward == 0, string.format("snapshot %d: the recorded cut is consistent", s))
  expect(same and recorded == n, string.format("snapshot %d: its channels hold the %d transfers in flight across it: %s", s, n, table.concat(flying, ", ")))
  expect(r.balances + r.channels == 400, string.format("snapshot %d: %d in the accounts + %d in the channels = 400", s, r.balances, r.channels))
end
local differ = false
for id = 1, 4 do differ = differ or snaps[1].cut[id] ~= snaps[2].cut[id] end
expect(differ, string.format("two different cuts of the same run: %d + %d and %d + %d",
       snaps[1].balances, snaps[1].channels, snaps[2].balances, snaps[2].channels))

-- Lai and Yang's colours take one snapshot however many processes initiate it: the same bank on
-- links in any order, P1 and P3 turning red at t=20. Their snapshot (id 1) adds up to 400, and the
-- world records snapshot.consistent and snapshot.conserved at the end.
local ly = sim.world{ algorithm = "snapshot.laiyang", ids = { 1, 2, 3, 4 }, latency = { "uniform", 1, 6 }, fifo = false,
                      seed = 7, config = { balance = 100, events = 8, rate = 0.2 } }
ly:at(20, function()
  ly:command(1, "snapshot")
  ly:command(3, "snapshot")
end)
ly:run()
local total, states = 0, 0
for _, e in ipairs(ly:events{ type = "state" }) do
  if e.key == "recorded" then total, states = total + e.value[2], states + 1 end
  if e.key == "channel" then
    for i = 4, #e.value, 2 do total = total + e.value[i] end
  end
end
expect(states == 4 and total == 400, string.format("Lai-Yang: %d recorded states adding up, with the channels, to %d", states, total))
