-- The fully distributed deadlock detection with P_ex, on the text's example: Silberschatz, Galvin
-- and Gagne, "Operating System Concepts", chapter "Distributed Coordination", section "Deadlock
-- Handling", "Fully Distributed Approach" (the figures "local wait-for graphs" and "augmented local
-- wait-for graphs").
--
-- The text's figure, rebuilt from its words: site S1's local wait-for graph is P1 -> P2 -> P3 and
-- S2's is P3 -> P4 -> P2 (together the global cycle P2 -> P3 -> P4 -> P2, which neither site sees
-- alone). Augmented, S1 has P3 -> Pex (P3 waits for an item at S2) and Pex -> P2 (P4, at S2, waits
-- for P2): the cycle Pex -> P2 -> P3 -> Pex; S2 has P2 -> Pex (P2 waits at S1) and Pex -> P3 (P2,
-- at S1, waits for P3): the cycle Pex -> P3 -> P4 -> P2 -> Pex. Here the processes are transactions
-- T1..T4 (ID(T1) < ID(T2) < ID(T3) < ID(T4)) locking items exclusively: S1 holds A and B, S2 holds C
-- and D. T4 locks D; T3 locks B and asks for D (waits for T4 at S2); T2 locks A and C and asks for B
-- (waits for T3 at S1); T4 asks for C (waits for T2 at S2); T1 asks for A (waits for T2 at S1). The
-- last edges appear at both sites at t=3, each site tells the other which transactions wait and are
-- waited for there (STATUS), and both discover their cycles at t=4, "at about the same time".
--
-- The text: S1's cycle is Pex -> P2 -> P3 -> Pex; "since ID(P3) > ID(P2), site S1 does not send a
-- deadlock-detection message to site S2". S2's is Pex -> P3 -> P4 -> P2 -> Pex; "since ID(P2) <
-- ID(P3), site S2 does send a deadlock-detection message to site S1, which on receiving the message
-- updates its local wait-for graph. Site S1 then searches for a cycle in the graph and discovers
-- that the system is in a deadlocked state." Without the id rule (idrule = false) S1 sends its path
-- to S2 as well: a second, unneeded message (only the message started by the largest process where
-- the cycle crosses sites declares, so the deadlock is still declared once).

local function figure(idrule)
  local w = sim.world{ algorithm = "deadlock.pex", ids = { 1, 2 },
                       config = { items = "A@1 B@1 C@2 D@2", idrule = idrule, latency = 1 } }
  w:at(0, function()
    w:command(1, "begin", { t = 4, ops = "w(D) w(C)" })
    w:command(1, "begin", { t = 3, ops = "w(B) w(D)" })
  end)
  w:at(1, function() w:command(1, "begin", { t = 2, ops = "w(A) w(C) w(B)" }) end)
  w:at(2, function() w:command(1, "begin", { t = 1, ops = "w(A)" }) end)
  w:run()
  return w
end

-- A site's augmented graph at time t, "T1->T2 T2->T3 ..." (Pex for P_ex), and the declarations.
local function graph(w, site, t)
  local out = ""
  for _, e in ipairs(w:events{ type = "state", node = site }) do
    if e.key == "augmented" and e.t <= t then
      local arcs = {}
      for i = 1, #e.value, 2 do
        local name = function(x) return x == 0 and "Pex" or ("T" .. x) end
        arcs[#arcs + 1] = name(e.value[i]) .. "->" .. name(e.value[i + 1])
      end
      out = table.concat(arcs, " ")
    end
  end
  return out
end
local function declared(w)
  local out = {}
  for _, e in ipairs(w:events{ type = "state" }) do
    if e.key == "deadlock" then
      local ts = {}
      for _, t in ipairs(e.value) do ts[#ts + 1] = "T" .. t end
      out[#out + 1] = string.format("S%d@%d: %s", e.node, e.t, table.concat(ts, " "))
    end
  end
  return table.concat(out, ", ")
end
local function detects(w)
  local out = {}
  for _, e in ipairs(w:events{ type = "send", kind = "DETECT" }) do
    out[#out + 1] = string.format("S%d->S%d [%s]", e.from, e.to, table.concat(e.msg.path, " "))
  end
  return table.concat(out, ", ")
end

local w = figure(true)
expect(graph(w, 1, 4) == "T1->T2 T2->T3 T3->Pex Pex->T2", "S1's augmented graph: " .. graph(w, 1, 4))
expect(graph(w, 2, 4) == "T4->T2 T3->T4 T2->Pex Pex->T3", "S2's augmented graph: " .. graph(w, 2, 4))
expect(detects(w) == "S2->S1 [3 4 2]", "one detection message, S2 to S1 with the path T3 T4 T2: " .. detects(w))
expect(declared(w) == "S1@5: T2 T3 T4", "S1 detects the deadlock T2 -> T3 -> T4 -> T2, S2 does not: " .. declared(w))
expect(w:check("deadlock.sound"))
expect(w:check("deadlock.complete"))

local v = figure(false)
expect(detects(v) == "S2->S1 [3 4 2], S1->S2 [2 3]", "without the id rule, 2 detection messages: " .. detects(v))
expect(declared(v) == "S1@5: T2 T3 T4", "without the id rule, still declared once, by S1: " .. declared(v))
print("detection messages: " .. w:stats().messages.DETECT .. " with the id rule, " .. v:stats().messages.DETECT .. " without")
