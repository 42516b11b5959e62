-- OM(1) with four generals and a traitorous lieutenant: Lamport, Shostak and Pease, "The Byzantine
-- Generals Problem" (1982), section 3 "A Solution with Oral Messages", Fig. 3 ("Algorithm OM(1);
-- Lieutenant 3 a traitor"); Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter
-- "Distributed Coordination", section "Reaching Agreement".
--
-- P1 commands P2, P3 and P4 (the paper's lieutenants 1, 2 and 3) and orders 1, attack; P4 is the
-- traitor. Round 1 (t=0): P1 sends its value to the three lieutenants. Round 2 (t=50): each
-- lieutenant, as the commander of OM(0), passes the value it received on to the two others; the
-- traitor splits (lie "split"): it passes attack to P2 and retreat to P3, the paper's x and y.
-- At t=100 each loyal lieutenant takes the majority of the three values it holds: P2 holds
-- (1 from P1, 1 from P3, 1 from P4) and P3 holds (1 from P1, 1 from P2, 0 from P4): both decide
-- attack. 3 + 3*2 = 9 messages; IC1 and IC2 hold.

local w = sim.world{ algorithm = "agreement.om", n = 4, config = { m = 1, order = 1, traitors = "4", lie = "split" } }
w:run()

local sends = {}
for _, e in ipairs(w:events{ type = "send" }) do
  sends[#sends + 1] = string.format("%d->%d %s=%d", e.from, e.to, table.concat(e.msg.path, ":"), e.msg.value)
end
expect(table.concat(sends, " ") ==
       "1->2 1=1 1->3 1=1 1->4 1=1 2->3 1:2=1 2->4 1:2=1 3->2 1:3=1 3->4 1:3=1 4->2 1:4=1 4->3 1:4=0",
       "the message tree: " .. table.concat(sends, " "))
expect(#sends == 9, "OM(1) among 4 generals sends 3 + 3*2 = 9 messages")

-- The folding: each loyal lieutenant's majority at its root [value, commander].
for _, id in ipairs({ 2, 3 }) do
  local maj = w:node(id):get("majority")
  expect(maj[1] == 1 and maj[2] == 1, string.format("P%d folds majority(...) = attack at the root", id))
  expect(w:node(id):get("decision") == 1, string.format("P%d decides attack, the commander's order", id))
end
expect(w:node(4):get("traitor") == true and w:node(1):get("order") == 1, "P4 is the traitor, P1 ordered attack")
expect(w:check("agreement.ic1"))
expect(w:check("agreement.ic2"))
