-- Costs of the mutual exclusion algorithms next to the textbook formulas (the lecture notes "Synchronization,
-- Coordination and Agreement": "three messages per use of a CS" for the central coordinator, uncontended; "3(n - 1)
-- messages per critical section invocation" for Lamport, "2(n - 1)" for Ricart-Agrawala, "n messages
-- for entering a CS: (n-1) requests and one reply" for Ricart-Agrawala's second algorithm).
-- 1) One uncontended request, n = 2..32: the measured messages per entry beside each formula, with
--    Suzuki-Kasami (n, like the second Ricart-Agrawala) and, as measured curves, Raymond on a binary
--    tree (O(log n): the mean over every process asking alone in turn), Maekawa (3(K-1) for a grid
--    quorum of size K, the curve beside 3 sqrt(n)) and Singhal (the mean over every process asking
--    alone in turn, from the staircase start). The token ring is left out: its token circulates
--    even when nobody asks, so a lone request has no fixed cost (see load-light-vs-heavy.lua).
-- 2) A request made where the token already is costs nothing.
-- 3) The same Poisson workload, light and heavy, on 8 processes for every algorithm: messages per
--    entry, synchronization delay, waiting and response time and throughput (w:stats().cs). The
--    token ring passes an unwanted token on at once (hold = 0, its default since it changed from 1
--    tick), so its idle token makes twice the passes it did; the central coordinator's contended
--    entries cost 4 messages with its default DENIED.

local function perEntry(s, skip)
  local sent = s.sent
  for kind, k in pairs(s.messages) do
    if skip[kind] then sent = sent - k end
  end
  return sent / s.cs.entries
end

-- alone makes each of the requesters ask in turn, each request over before the next one, and
-- returns the mean number of messages per entry (start-up messages such as Raymond's INITIALIZE
-- left out) and the number of entries.
local boot = { INITIALIZE = true }
local function alone(algorithm, n, requesters, extra)
  -- one request at a time: the safety and liveness checks are left to the load runs below
  local spec = { algorithm = algorithm, n = n, trace = false, checks = {} }
  for k, v in pairs(extra or {}) do spec[k] = v end
  local w = sim.world(spec)
  for i, id in ipairs(requesters) do
    w:at(200 * i, function() w:command(id, "request", { duration = 1 }) end)
  end
  w:run()
  return perEntry(w:stats(), boot), w:stats().cs.entries
end

local function everyone(n)
  local ids = {}
  for i = 1, n do ids[i] = i end
  return ids
end

-- agree notes, per formula, the first n at which the measured count differs from it.
local formulas, wrong = {}, {}
local function agree(formula, got, want, n)
  if not wrong[formula] then formulas[#formulas + 1] = formula; wrong[formula] = false end
  if got ~= want and not wrong[formula] then
    wrong[formula] = string.format("n=%d: measured %g, formula %g", n, got, want)
  end
end

local ns = {}
for n = 2, 32 do ns[#ns + 1] = n end
local rows = sweep({ n = ns }, function(p)
  local n = p.n
  -- The coordinator is the highest id and the token starts at the first process: process 1 asks
  -- the coordinator, and process n asks for a token it does not have.
  local row = {
    central = alone("mutex.central", n, { 1 }),
    lamport = alone("mutex.lamport", n, { 1 }),
    ra = alone("mutex.ricartagrawala", n, { 1 }),
    ra2 = alone("mutex.ricartagrawala2", n, { n }),
    sk = alone("mutex.suzukikasami", n, { n }),
    raymond = alone("mutex.raymond", n, everyone(n), { arity = 2 }),
    maekawa = alone("mutex.maekawa", n, everyone(n)),
    singhal = alone("mutex.singhal", n, everyone(n)),
  }
  -- the formulas the texts give, checked once per algorithm over every n below
  agree("central: 3 messages uncontended (4 when DENIED)", row.central, 3, n)
  agree("Lamport: 3(n-1) messages", row.lamport, 3 * (n - 1), n)
  agree("Ricart-Agrawala: 2(n-1) messages", row.ra, 2 * (n - 1), n)
  agree("Ricart-Agrawala second: n messages", row.ra2, n, n)
  agree("Suzuki-Kasami: n messages", row.sk, n, n)
  agree("Singhal: at most 2(n-1) messages per entry", math.min(row.singhal, 2 * (n - 1)), row.singhal, n)
  row["3(n-1)"], row["2(n-1)"], row["3sqrt(n)"] = 3 * (n - 1), 2 * (n - 1), string.format("%.1f", 3 * math.sqrt(n))
  row["log2(n)"] = string.format("%.1f", math.log(n) / math.log(2)) -- printed only: never feeds the run
  row.raymond = string.format("%.2f", row.raymond)
  row.maekawa = string.format("%.2f", row.maekawa)
  row.singhal = string.format("%.2f", row.singhal)
  return row
end)
print("messages per entry, one request at a time")
report(rows, { "n", "central", "lamport", "3(n-1)", "ra", "2(n-1)", "ra2", "sk", "raymond", "log2(n)", "maekawa", "3sqrt(n)", "singhal" })
print("raymond: mean over every process asking alone, on a binary tree (REQUEST and PRIVILEGE along the path)")
print("maekawa: 3(K-1) for grid quorums (a row and a column, K <= 2 sqrt(n) - 1), so about twice")
print("  Maekawa's 3 sqrt(n), which assumes projective-plane quorums of size about sqrt(n)")
for _, f in ipairs(formulas) do
  expect(not wrong[f], f .. " for n = 2..32" .. (wrong[f] and (": " .. wrong[f]) or ""))
end

for _, a in ipairs({ "mutex.ricartagrawala2", "mutex.suzukikasami" }) do
  local w = sim.world{ algorithm = a, n = 8 }
  w:command(1, "request", { duration = 2 })
  w:run()
  expect(w:stats().sent == 0 and w:stats().cs.entries == 1, a .. ": a request where the token is costs 0 messages")
end

-- The same workload for everyone: every process asks at Poisson times (rate per tick), holding the
-- critical section 5 ticks, on links of latency 1..4, until t=4000; then the runs go on until
-- every request is served (the token ring's token would circulate for ever, so its idle rounds
-- after the last exit are not counted).
local algorithms = { "mutex.central", "mutex.lamport", "mutex.ricartagrawala", "mutex.tokenring",
  "mutex.ricartagrawala2", "mutex.suzukikasami", "mutex.raymond", "mutex.maekawa", "mutex.singhal" }
local function fmt(x) return x and string.format("%.1f", x) or "-" end
for _, load in ipairs({ { "light", 0.0005 }, { "heavy", 0.01 } }) do
  local table = {}
  for _, a in ipairs(algorithms) do
    local w = sim.world{ algorithm = a, n = 8, latency = { "uniform", 1, 4 }, trace = false }
    w:workload{ rate = load[2], cs = 5, until_time = 4000 }
    w:run{ until_time = 4000 }
    w:run{ until_time = 20000, predicate = function()
      for _, id in ipairs(w:ids()) do
        local node = w:node(id)
        if node:get("cs") ~= "released" or (node:get("backlog") or 0) > 0 then return false end
      end
      return true
    end }
    local cs = w:stats().cs
    table[#table + 1] = { algorithm = a, entries = cs.entries, messages = fmt(perEntry(w:stats(), boot)),
      sync = fmt(cs.sync_delay), waiting = fmt(cs.waiting), response = fmt(cs.response), throughput = fmt(cs.throughput) }
  end
  print(string.format("\n%s load (rate %g per tick per process), n = 8", load[1], load[2]))
  report(table, { "algorithm", "entries", "messages", "sync", "waiting", "response", "throughput" })
  print("messages per entry; sync: mean ticks from an exit to the next entry of a process already waiting")
  print("(- when nobody was waiting at any exit); waiting and response: from request to entry and to exit;")
  print("throughput: entries per 1000 ticks")
end
