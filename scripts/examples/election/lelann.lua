-- LeLann's ring election (G. Le Lann, 1977; Lynch, Distributed Algorithms, 3.3), the ancestor of
-- Chang-Roberts: every UID travels once round the ring and every process passes on every UID, so
-- a process whose own UID comes back has seen them all and takes the largest. Whoever starts,
-- every process joins in, and the election costs n² TOKEN messages, against Chang-Roberts' 2n-1
-- to n(n+1)/2 with participant marking. LeLann assumes FIFO links and no failures: a token that
-- overtakes another makes its owner decide too early.
for _, n in ipairs{ 4, 8, 16 } do
  local w = sim.world{ algorithm = "election.lelann", n = n, config = { all = true } }
  w:run()
  local tokens = w:stats().messages.TOKEN
  expect(tokens == n * n, string.format("n=%d: %d TOKEN messages, n² = %d", n, tokens, n * n))
  expect(w:agreed("leader") == n, string.format("n=%d: every process follows %d", n, n))

  local cr = sim.world{ algorithm = "election.changroberts", n = n, trace = false, config = { all = true } }
  cr:run()
  print(string.format("n=%d: LeLann %d TOKEN, Chang-Roberts %d ELECTION + %d ELECTED",
    n, tokens, cr:stats().messages.ELECTION, cr:stats().messages.ELECTED))
end
