-- The cost of OM(m): Lamport, Shostak and Pease, "The Byzantine Generals Problem" (1982), section 3
-- "A Solution with Oral Messages" (OM(m) "requires sending (n-1)(n-2)...(n-m-1) messages" in its
-- last round); Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter "Distributed
-- Coordination", section "Reaching Agreement".
--
-- The messages of a run of OM(m) among n generals, measured, beside the formula
-- (n-1) + (n-1)(n-2) + ... + (n-1)(n-2)...(n-m-1): the commander's n-1, then every lieutenant
-- relaying every value of the round before to the lieutenants not yet on its path. For n = 4..10
-- and m = 1..3 (n > 3m where the algorithm promises IC1 and IC2; the count holds for any n).

local function formula(n, m)
  local total, level = 0, 1
  for k = 1, m + 1 do
    level = level * (n - k)
    total = total + level
  end
  return total
end

local rows = {}
for n = 4, 10 do
  local row = { n = n }
  for m = 1, 3 do
    local w = sim.world{ algorithm = "agreement.om", n = n, trace = false, config = { m = m } }
    w:run()
    local sent = w:stats().sent
    expect(sent == formula(n, m), string.format("n=%d m=%d: %d messages, the formula's %d", n, m, sent, formula(n, m)))
    row["m" .. m] = sent
    row["formula" .. m] = formula(n, m)
  end
  rows[#rows + 1] = row
end
report(rows, { "n", "m1", "formula1", "m2", "formula2", "m3", "formula3" })
