-- OM(1) with four generals and a traitorous commander: Lamport, Shostak and Pease, "The Byzantine
-- Generals Problem" (1982), section 3 "A Solution with Oral Messages", Fig. 4 ("Algorithm OM(1);
-- the commander a traitor"); Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter
-- "Distributed Coordination", section "Reaching Agreement".
--
-- The traitor P1 sends x, y and z to its lieutenants P2, P3 and P4: lie "mask", so bit k of lies
-- is the value of its k-th message, and the loop below tries all eight. The loyal lieutenants pass
-- on what they received, so each ends up holding x, y and z and decides majority(x, y, z): the
-- same value, whatever the commander said. IC1 holds for every strategy; IC2 asks nothing of a
-- traitorous commander.

local function majority(x, y, z) return (x + y + z >= 2) and 1 or 0 end

local rows = {}
for lies = 0, 7 do
  local w = sim.world{ algorithm = "agreement.om", n = 4, checks = {},
                       config = { m = 1, traitors = "1", lie = "mask", lies = lies } }
  w:run()
  local x, y, z = lies % 2, math.floor(lies / 2) % 2, math.floor(lies / 4) % 2
  local d = { w:node(2):get("decision"), w:node(3):get("decision"), w:node(4):get("decision") }
  local ok1 = w:check("agreement.ic1")
  local ok2, text2 = w:check("agreement.ic2")
  expect(ok1 and ok2, "lies=" .. lies .. ": IC1 holds, and IC2 asks nothing: " .. text2)
  expect(d[1] == majority(x, y, z) and d[2] == d[1] and d[3] == d[1],
         string.format("lies=%d: x, y, z = %d, %d, %d: every lieutenant decides majority(x, y, z) = %d", lies, x, y, z, majority(x, y, z)))
  rows[#rows + 1] = { lies = lies, x = x, y = y, z = z, P2 = d[1], P3 = d[2], P4 = d[3] }
end
report(rows, { "lies", "x", "y", "z", "P2", "P3", "P4" })
