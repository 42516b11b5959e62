-- Singhal's heuristically-aided token algorithm (Singhal, "A heuristically-aided algorithm for mutual
-- exclusion in distributed systems", IEEE Trans. Computers 1989), the "Singhal Algorithm" in the lecture
-- notes' list of token-based algorithms ("Synchronization, Coordination and Agreement"); rules as in
-- Singhal and Shivaratri, "Singhal's Heuristic Algorithm". Every site keeps SV (what it believes each
-- site is: R requesting, E executing, H holding the idle token, N none) and SN (their request numbers);
-- the token carries TSV and TSN. A site sends REQUEST only to the sites it believes requesting.
-- (Not mutex.singhal, his permission-based algorithm: see singhal.lua.)
-- 1) The initial staircase: site i believes the sites before it are requesting, so site k's first
--    request costs k-1 REQUEST and one TOKEN: k messages, 0 for site 1, which holds the token, against
--    n for Suzuki-Kasami.
-- 2) A requesting site that gets a REQUEST from a site it did not mark R sends its own REQUEST back:
--    1 is in its critical section, 2 asks 1, then 3 asks 1 and 2, and 2 answers 3 with REQUEST(2, 1).
--    On leaving, 1 merges what it knows into the token (TSV[3] = R), sends it to 2, and 2 to 3.
-- 3) A site that finds nobody marked R keeps the token (H): its next requests cost nothing.
-- 4) Light and heavy load on links that reorder, n = 8: every request served, at most one process
--    inside at every event (the checks recorded at the end), messages per entry beside Suzuki-Kasami's.

-- 1. the staircase
local n = 6
local counts = {}
for k = 1, n do
  local w = sim.world{ algorithm = "mutex.singhaltoken", n = n, trace = false }
  w:at(0, function() w:command(k, "request", { duration = 2 }) end)
  w:run()
  local s = w:stats()
  counts[#counts + 1] = tostring(s.sent)
  local want = k == 1 and 0 or k
  expect(s.sent == want and (s.messages.REQUEST or 0) == k - 1,
    string.format("n=%d: site %d's first request costs %d messages (%d REQUEST + TOKEN), want %d", n, k, s.sent, s.messages.REQUEST or 0, want))
end
print("first request of site 1.." .. n .. ": " .. table.concat(counts, " ") .. " messages")

-- 2. asking back, and the release
local w = sim.world{ algorithm = "mutex.singhaltoken", n = 4 }
local order = {}
w:on("state", function(ev)
  if ev.key == "cs" and ev.value == "held" then order[#order + 1] = ev.node end
end)
w:at(0, function() w:command(1, "request", { duration = 10 }) end)
w:at(1, function() w:command(2, "request", { duration = 2 }) end)
w:at(3, function() w:command(3, "request", { duration = 2 }) end)
w:run{ until_time = 8 }
expect(w:node(1):get("site_state") == "E" and w:node(2):get("site_state") == "R" and w:node(3):get("site_state") == "R",
  "1 executes (E), 2 and 3 request (R)")
local back = 0
for _, e in ipairs(w:events{ type = "send", kind = "REQUEST" }) do
  if e.from == 2 and e.to == 3 and e.msg.id == 2 and e.msg.sn == 1 then back = back + 1 end
end
expect(back == 1, "2, requesting, answers 3's REQUEST with its own REQUEST(2, 1)")
w:run()
print("entries: " .. table.concat(order, " "))
expect(table.concat(order, " ") == "1 2 3", "the token goes from 1 to 2, the first marked R after 1, then to 3")
local tokens = w:events{ type = "send", kind = "TOKEN" }
expect(#tokens == 2 and tokens[1].msg.tsv["3"] == "R" and tokens[1].msg.tsn["3"] == 1,
  "the token 1 sends carries TSV[3] = R, TSN[3] = 1, merged from 1's SV and SN")
expect(w:node(3):get("site_state") == "H", "3 keeps the token after its critical section: nobody is marked R")

-- 3. repeated requests at the holder
w = sim.world{ algorithm = "mutex.singhaltoken", n = 6 }
for k = 0, 3 do
  w:at(20 * k, function() w:command(5, "request", { duration = 1 }) end)
end
w:run()
expect(w:stats().cs.entries == 4 and w:stats().sent == 5,
  string.format("site 5 enters 4 times for %d messages: 4 REQUEST and the TOKEN the first time, none after", w:stats().sent))

-- 4. light and heavy load, beside Suzuki-Kasami
for _, load in ipairs({ { "light", 0.0005 }, { "heavy", 0.01 } }) do
  local per = {}
  for _, a in ipairs({ "mutex.singhaltoken", "mutex.suzukikasami" }) do
    local v = sim.world{ algorithm = a, n = 8, fifo = false, latency = { "uniform", 1, 6 }, seed = 3, trace = false }
    v:workload{ rate = load[2], cs = 3, until_time = 4000 }
    v:run()
    local cs = v:stats().cs
    expect(cs.entries == cs.requests and cs.requests > 0,
      string.format("%s, %s load: every request served (%d)", a, load[1], cs.requests))
    per[a] = cs.per_entry
  end
  print(string.format("%s load: %.2f messages per entry (Suzuki-Kasami %.2f)", load[1], per["mutex.singhaltoken"], per["mutex.suzukikasami"]))
  expect(per["mutex.singhaltoken"] < per["mutex.suzukikasami"],
    string.format("%s load: fewer messages per entry than Suzuki-Kasami, which asks every site", load[1]))
end
