-- Chang-Roberts, worst case (the lecture notes "Synchronization, Coordination and Agreement", "The
-- Ring-Based Algorithm", its optimization and rules 1-5): every process starts an election at once
-- and the UIDs decrease along the ring. UID k is forwarded by every smaller process (rule 4a) and
-- travels k hops: n(n+1)/2 ELECTION messages, then n ELECTED.
-- Beside each run, the notes' base algorithm (config optimize = false, added since; untraced): no
-- message is killed, so each ELECTION travels to the largest UID and then once round the ring,
-- n² + n(n-1)/2 as in the best case, and the leader announces itself n times, n² ELECTED. Both
-- counts are printed.
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

  local b = sim.world{ algorithm = "election.changroberts", ids = ids, trace = false,
                       config = { all = true, optimize = false } }
  b:run()
  local mb = b:stats().messages
  local base = n * n + n * (n - 1) / 2
  expect(mb.ELECTION == base and mb.ELECTED == n * n and b:agreed("leader") == n,
    string.format("n=%d, base algorithm: %d ELECTION messages, n²+n(n-1)/2 = %d, and %d ELECTED, n² = %d",
      n, mb.ELECTION, base, mb.ELECTED, n * n))
  print(string.format("n=%d: optimized %d ELECTION + %d ELECTED, base %d ELECTION + %d ELECTED",
    n, m.ELECTION, m.ELECTED, mb.ELECTION, mb.ELECTED))
end
