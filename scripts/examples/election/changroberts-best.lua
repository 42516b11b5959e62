-- Chang-Roberts, best case (the lecture notes "Synchronization, Coordination and Agreement", "The
-- Ring-Based Algorithm", its optimization and rules 1-5): every process starts an election at once
-- and the UIDs increase along the ring. Each ELECTION but the largest dies at its successor, a
-- participant with a larger UID (rule 4c): 2n-1 ELECTION messages, then n ELECTED.
-- Beside each run, the notes' base algorithm (config optimize = false, added since; untraced): no
-- message is killed, a smaller UID is always replaced and forwarded, so each ELECTION travels to the
-- largest UID and then once round the ring, n² + n(n-1)/2, and each of the n returns makes the
-- leader announce itself, n² ELECTED. Both counts are printed.
for _, n in ipairs{ 4, 8, 16, 32 } do
  local w = sim.world{ algorithm = "election.changroberts", n = n, config = { all = true } }
  w:run()
  local m = w:stats().messages
  expect(m.ELECTION == 2 * n - 1, string.format("n=%d: %d ELECTION messages, 2n-1 = %d", n, m.ELECTION, 2 * n - 1))
  expect(m.ELECTED == n, string.format("n=%d: %d ELECTED messages, n = %d", n, m.ELECTED, n))
  expect(w:agreed("leader") == n and w:agreed("participant") == false,
    string.format("n=%d: everyone follows %d and is non-participant again", n, n))

  local b = sim.world{ algorithm = "election.changroberts", n = n, trace = false,
                       config = { all = true, optimize = false } }
  b:run()
  local mb = b:stats().messages
  local want = n * n + n * (n - 1) / 2
  expect(mb.ELECTION == want and mb.ELECTED == n * n and b:agreed("leader") == n,
    string.format("n=%d, base algorithm: %d ELECTION messages, n²+n(n-1)/2 = %d, and %d ELECTED, n² = %d",
      n, mb.ELECTION, want, mb.ELECTED, n * n))
  print(string.format("n=%d: optimized %d ELECTION + %d ELECTED, base %d ELECTION + %d ELECTED",
    n, m.ELECTION, m.ELECTED, mb.ELECTION, mb.ELECTED))
end
