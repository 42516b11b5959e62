-- The majority protocol deadlocking on a single data item: Silberschatz, Galvin and Gagne,
-- "Operating System Concepts", chapter "Distributed Coordination", section "Concurrency Control",
-- "Majority Protocol". The text's example: four sites and full replication; T1 and T2 both want
-- to lock Q in exclusive mode; T1 succeeds in locking Q at S1 and S3, T2 at S2 and S4; each must
-- wait for a third lock, and they are deadlocked, though only one data item is locked.
--
-- Q has a copy at each of the four sites (items "Q@1", replicas 4); a majority is 3. T1 begins at
-- S1 and asks the three copies nearest it, S1, S2, S3; T2 begins at S4 and asks S4, S1, S2. Each
-- gets its own site's lock at once; T1's request reaches S3 first and T2's reaches S2 first (the
-- link S1 -> S2 is slow), and each finds S1, or S2, already held by the other. The two sites'
-- lock tables (the locks key) show the waits, and the global wait-for graph, their union, the
-- cycle T1 -> T2 -> T1: nobody commits.

local w = sim.world{ algorithm = "cc.majority", ids = { 1, 2, 3, 4 }, config = { items = "Q@1", replicas = 4 },
  checks = { "cc.serializable" } }
w:link(1, 2, { latency = 5 })
w:command(1, "begin", { ops = "write(Q)", t = 1 })
w:command(4, "begin", { ops = "write(Q)", t = 2 })
w:run()

-- Who holds Q where, and who waits, from each site's lock table: [item, T, mode, ...], mode 2
-- holds X, -2 waits for X.
local held, waits, edges = {}, {}, {}
for _, id in ipairs(w:ids()) do
  local l = w:node(id):get("locks") or {}
  for i = 1, #l, 3 do
    local t, mode = l[i + 1], l[i + 2]
    if mode == 2 then
      held[t] = (held[t] or "") .. "S" .. id .. " "
    elseif mode == -2 then
      waits[t] = "S" .. id
      -- T waits for the holder of the copy listed before it at that site.
      for j = 1, i - 1, 3 do
        if l[j] == l[i] and l[j + 2] == 2 then edges[#edges + 1] = string.format("T%d -> T%d", t, l[j + 1]) end
      end
    end
  end
end
print("T1 holds Q at " .. held[1] .. "and waits at " .. waits[1])
print("T2 holds Q at " .. held[2] .. "and waits at " .. waits[2])
print("global wait-for graph: " .. table.concat(edges, ", "))
expect(held[1] == "S1 S3 " and held[2] == "S2 S4 ", "T1 locked Q at S1 and S3, T2 at S2 and S4, as in the text")
expect(waits[1] == "S2" and waits[2] == "S1", "each waits for its third lock: T1 at S2, T2 at S1")
expect(table.concat(edges, ", ") == "T2 -> T1, T1 -> T2", "the cycle T1 -> T2 -> T1 on the single item Q")
expect(w:node(1):get("txn")[2] == 3 and w:node(4):get("txn")[2] == 3, "both transactions wait for ever")
local ok, text = w:check("cc.serializable")
expect(ok and text == "cc.serializable: 0 committed transactions, conflict graph acyclic", text)
