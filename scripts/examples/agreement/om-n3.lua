-- OM(1) with three generals, n = 3m, outside the algorithm's promise (n > 3m): Lamport, Shostak and
-- Pease, "The Byzantine Generals Problem" (1982), section 2 "Impossibility Results" (Fig. 1 and
-- Fig. 2: no solution with three generals and one traitor) and section 3 "A Solution with Oral
-- Messages"; Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed
-- Coordination", section "Reaching Agreement".
--
-- The counterexamples are found, not written down: the traitor lies by mask, bit k of lies being
-- the value of its k-th message, and a loop tries every mask: every strategy a traitor has.
-- 1) A traitorous lieutenant (Fig. 1): P3 relays one message, so masks 0 and 1. With mask 0 it
--    tells P2 "retreat"; P2 holds attack from the loyal commander and retreat from P3, no
--    majority, so it takes the default RETREAT: IC2 fails.
-- 2) A traitorous commander (Fig. 2): P1 sends two messages, masks 0..3. The loyal lieutenants
--    pass on what they got, so both hold the same two values and fold the same majority: OM(1)
--    keeps IC1 here, the paper's impossibility striking it through IC2 above (a lieutenant cannot
--    obey its commander without breaking IC1 in Fig. 2, and OM(1) does not obey).
-- 3) The commander with an accomplice among four generals (two traitors, more than m = 1: n = 4 is
--    not more than 3*2): masks 0..7 of the commander's three messages (the accomplice's two relays
--    take bits 0 and 1 of the same mask). Mask 1 sends attack to P2 and retreat to P3, and the
--    accomplice P4 backs each: P2 decides attack and P3 retreat: IC1 fails.

-- Each world is outside OM's assumptions (at most m traitors among more than 3m generals), and
-- says so with a warning, the first event of its trace.
-- search runs OM(1) for every mask 0..2^k-1 and returns the first that breaks property, with the
-- checker's message.
local function search(n, traitors, k, property)
  for lies = 0, 2 ^ k - 1 do
    local w = sim.world{ algorithm = "agreement.om", n = n, checks = {},
                         config = { m = 1, traitors = traitors, lie = "mask", lies = lies } }
    w:run()
    local ok, text = w:check(property)
    if not ok then return lies, text end
  end
end

local lies, text = search(3, "3", 1, "agreement.ic2")
expect(lies == 0, "a traitorous lieutenant: mask " .. tostring(lies) .. " breaks IC2")
print("traitorous lieutenant, n=3: lies=" .. tostring(lies) .. ": " .. tostring(text))
expect(text == "agreement.ic2: at t=100, the loyal commander 1 ordered 1, but 2 decided 0 (t=100 seq=17)", text)

lies = search(3, "1", 2, "agreement.ic1")
expect(lies == nil, "a traitorous commander among three: no mask of 0..3 breaks IC1")
print("traitorous commander, n=3: no counterexample to IC1 among masks 0..3")

lies, text = search(4, "1,4", 3, "agreement.ic1")
expect(lies == 1, "a traitorous commander and an accomplice among four: mask " .. tostring(lies) .. " breaks IC1")
print("traitorous commander and lieutenant, n=4: lies=" .. tostring(lies) .. ": " .. tostring(text))
expect(text == "agreement.ic1: at t=100, the loyal lieutenants do not agree: 2 decided 1 (t=100 seq=29); 3 decided 0 (t=100 seq=32)", text)
