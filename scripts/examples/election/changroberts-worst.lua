-- Chang-Roberts, worst case (seed 002, "The Ring-Based Algorithm", rules 1-5): every process starts
-- an election at once and the UIDs decrease along the ring. UID k is forwarded by every smaller
-- process (rule 4a) and travels k hops: n(n+1)/2 ELECTION messages, then n ELECTED.
for _, n in ipairs{ 4, 8, 16, 32 } do
  local ids = {}
  for i = 1, n do ids[i] = n + 1 - i end
  local w = sim.world{ algorithm = "election.changroberts", ids = ids, config = { all = true } }
  w:run()
  local m = w:stats().messages
  local want = n * (n + 1) / 2
  expect(m.ELECTION == want, string.format("n=%d: %d ELECTION messages, n(n+1)/2 = %d", n, m.ELECTION, want))
  expect(m.ELECTED == n, string.format("n=%d: %d ELECTED messages, n = %d", n, m.ELECTED, n))
  expect(w:agreed("leader") == n and w:agreed("participant") == false,
    string.format("n=%d: everyone follows %d and is non-participant again", n, n))
end
