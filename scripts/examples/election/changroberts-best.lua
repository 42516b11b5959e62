-- Chang-Roberts, best case (seed 002, "The Ring-Based Algorithm", rules 1-5): every process starts
-- an election at once and the UIDs increase along the ring. Each ELECTION but the largest dies at
-- its successor, a participant with a larger UID (rule 4c): 2n-1 ELECTION messages, then n ELECTED.
for _, n in ipairs{ 4, 8, 16, 32 } do
  local w = sim.world{ algorithm = "election.changroberts", n = n, config = { all = true } }
  w:run()
  local m = w:stats().messages
  expect(m.ELECTION == 2 * n - 1, string.format("n=%d: %d ELECTION messages, 2n-1 = %d", n, m.ELECTION, 2 * n - 1))
  expect(m.ELECTED == n, string.format("n=%d: %d ELECTED messages, n = %d", n, m.ELECTED, n))
  expect(w:agreed("leader") == n and w:agreed("participant") == false,
    string.format("n=%d: everyone follows %d and is non-participant again", n, n))
end
