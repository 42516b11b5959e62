-- Messages per transaction of two-phase and three-phase commit, failure-free, n = 2..8 sites (one
-- coordinator, n - 1 participants): two-phase commit sends prepare T, ready T, commit T and an
-- acknowledgement per participant (Silberschatz, Galvin and Gagne, "Operating System Concepts",
-- chapter "Distributed Coordination", section "Atomicity", "The Two-Phase Commit Protocol"):
-- 4(n - 1); three-phase commit adds a round, precommit T and its acknowledgement, but its commit
-- T is not acknowledged (Skeen, "Nonblocking Commit Protocols"): 5(n - 1). The price of not
-- blocking is n - 1 messages and one more round trip before the commit: with links of one tick, 2PC
-- commits at t=2 and 3PC at t=4. A participant voting no costs both the same: 4(n - 1) and 3(n - 1)
-- (no acknowledgement).

local function run(algorithm, n, no)
  local w = sim.world{ algorithm = algorithm, n = n }
  if no then w:at(0, function() w:command(n, "vote", { value = "no" }) end) end
  w:at(0, function() w:command(1, "commit") end)
  w:run()
  for _, id in ipairs(w:ids()) do
    if id ~= 1 then expect(w:node(id):get("decision") == w:node(1):get("decision"), "every site decides alike") end
  end
  local at
  for _, e in ipairs(w:events{ type = "state", node = 1 }) do
    if e.key == "decision" then at = e.t end
  end
  return w:stats().sent, w:node(1):get("decision"), at
end

local rows = {}
for n = 2, 8 do
  local two, d2, t2 = run("commit.twophase", n)
  local three, d3, t3 = run("commit.threephase", n)
  local twoNo = run("commit.twophase", n, true)
  local threeNo = run("commit.threephase", n, true)
  expect(d2 == "commit" and d3 == "commit" and t2 == 2 and t3 == 4, "both commit, 2PC at t=2, 3PC at t=4")
  expect(two == 4 * (n - 1) and three == 5 * (n - 1), string.format("n=%d: 2PC %d = 4(n-1), 3PC %d = 5(n-1)", n, two, three))
  expect(twoNo == 4 * (n - 1) and threeNo == 3 * (n - 1), string.format("n=%d, a vote no: 2PC %d = 4(n-1), 3PC %d = 3(n-1)", n, twoNo, threeNo))
  rows[#rows + 1] = { n = n, ["2PC"] = two, ["4(n-1)"] = 4 * (n - 1), ["3PC"] = three, ["5(n-1)"] = 5 * (n - 1),
                      ["2PC, a no"] = twoNo, ["3PC, a no"] = threeNo }
end
report(rows, { "n", "2PC", "4(n-1)", "3PC", "5(n-1)", "2PC, a no", "3PC, a no" })
