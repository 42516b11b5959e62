-- SM(1) with three generals, where OM(1) fails (om-n3.lua): Lamport, Shostak and Pease, "The
-- Byzantine Generals Problem" (1982), section 4 "A Solution with Signed Messages", Fig. 5
-- ("Algorithm SM(1); the commander a traitor"); Silberschatz, Galvin and Gagne, "Operating System
-- Concepts", chapter "Distributed Coordination", section "Reaching Agreement".
--
-- Signed orders cannot be altered: a traitorous lieutenant can only pass on the commander's signed
-- order or keep it back, and a traitorous commander that signs two different orders is caught,
-- since the lieutenants pass on what they received and each ends with both in its set V. The same
-- search as om-n3.lua, over every mask of the traitor's messages, finds no counterexample:
-- 1) traitorous lieutenant P3 (masks 0 and 1): P2 decides attack, its commander's order (IC2);
-- 2) traitorous commander P1 (masks 0..3): Fig. 5 is mask 1 (attack:0 to P2, retreat:0 to P3):
--    P2 passes on attack:0:2 and P3 retreat:0:3, both hold V = {retreat, attack} and obey
--    choice(V) = RETREAT (IC1).

local function run(traitors, lies)
  local w = sim.world{ algorithm = "agreement.sm", n = 3, config = { m = 1, traitors = traitors, lie = "mask", lies = lies } }
  w:run()
  return w
end

for lies = 0, 1 do
  local w = run("3", lies)
  expect(w:node(2):get("decision") == 1, "lieutenant traitor, lies=" .. lies .. ": P2 decides attack")
  expect(w:check("agreement.ic2"))
end
for lies = 0, 3 do
  local w = run("1", lies)
  expect(w:check("agreement.ic1"))
  if lies == 1 then
    local sends = {}
    for _, e in ipairs(w:events{ type = "send" }) do
      sends[#sends + 1] = string.format("%d->%d %d:%s", e.from, e.to, e.msg.value, table.concat(e.msg.signers, ":"))
    end
    expect(table.concat(sends, " ") == "1->2 1:1 1->3 0:1 2->3 1:1:2 3->2 0:1:3", "Fig. 5: " .. table.concat(sends, " "))
    for _, id in ipairs({ 2, 3 }) do
      local v = w:node(id):get("orders")
      expect(v[3] == nil and v[1] == 0 and v[2] == 1 and w:node(id):get("decision") == 0,
             string.format("P%d: V = {0, 1}, choice(V) = RETREAT", id))
    end
  end
end
