-- Token ring, token loss: the lecture notes "Synchronization, Coordination and Agreement", "Token Ring
-- Algorithm": "If the process holding the token fails, a unique process has to be picked, which will
-- regenerate the token and pass it along the ring; an election algorithm (see later) has to be run for
-- this purpose", and "Need of Election Algorithm": "Token ring algorithm: when the process holding the
-- token fails, a new process has to be elected which generates the new token"; the election is the
-- notes' Chang-Roberts ring algorithm ("The Ring-Based Algorithm"), as the lower layer (its keys read
-- election_*, its timers election/restart). Also "Token Based Algorithms": "If the token is lost, it
-- needs to be regenerated. Detection of the lost token is difficult since there is no bound on how
-- long a process should wait for the token": here the bound is assumed, hop = 3 ticks per link, and a
-- process that has not seen the token for 3·n·(hop + hold) = 45 ticks presumes it lost (hold = 0, the
-- default since it changed from 1 tick: the timeout was 60 ticks, the idle token now passes every
-- tick, and the election runs 15 ticks earlier).
-- 1) 3 takes the token into a long CS and crashes in it, while 1, 2, 4 and 5 wait for the token.
-- 2) The detector suspects 3 (it is bypassed from then on); the loss timeouts fire and start a
--    Chang-Roberts election; 5, the highest id, wins and alone makes a token of generation 1.
-- 3) The new token first goes round as a sweep that nobody uses (every process learns generation 1),
--    then is usable: 1, 2, 4 and 5 are served, one at a time. Exactly one token was made.
-- 4) A stale token of generation 0 (as if the old one turned up late) is discarded where it arrives.
-- 5) 3 recovers and rejoins the ring; its next request is served by the generation 1 token.

local w = sim.world{ algorithm = "mutex.tokenring", n = 5, detector = 3, config = { hop = 3 } }

-- 1. 3 crashes in its critical section with the token
w:at(0, function() w:command(3, "request", { duration = 100 }) end)
for _, id in ipairs{ 1, 2, 4, 5 } do
  w:at(10, function() w:command(id, "request", { duration = 4 }) end)
end
w:at(20, function() w:crash(3) end)
w:run{ until_time = 19 }
expect(w:node(3):get("cs") == "held" and w:node(3):get("has_token"), "3 holds the token, in its critical section")

-- 2. detection and the election
w:run{ until_time = 200 }
expect(w:count{ type = "suspect", node = 3 } == 1, "the failure detector suspects 3")
local lost = {}
for _, e in ipairs(w:events{ type = "timer" }) do
  if e.tag == "lost" then lost[#lost + 1] = e end
end
expect(#lost > 0, string.format("the loss timeout fired (first at %d, at process %d)", lost[1].t, lost[1].node))
expect(w:stats().messages.ELECTION > 0 and w:stats().messages.ELECTED == 4,
  "a Chang-Roberts election: ELECTION messages, then ELECTED round the 4 live processes")
expect(w:agreed("leader") == 5, "5, the highest live id, wins")

-- the tokens made: the distinct (generation, maker) of the TOKEN messages above generation 0
local function made()
  local seen, out = {}, {}
  for _, e in ipairs(w:events{ type = "send", kind = "TOKEN" }) do
    local key = e.msg.gen .. "/" .. e.msg.by
    if e.msg.gen > 0 and not seen[key] then seen[key] = true; out[#out + 1] = key end
  end
  return table.concat(out, " ")
end

-- 3. one regeneration, everyone served
expect(made() == "1/5", "exactly one new token, generation 1, made by 5: " .. made())
local sweep = w:events{ type = "send", kind = "TOKEN" }
local swept = {}
for _, e in ipairs(sweep) do
  if e.msg.sweep then swept[#swept + 1] = e.from .. "->" .. e.to end
end
print("sweep: " .. table.concat(swept, " "))
expect(table.concat(swept, " ") == "5->1 1->2 2->4 4->5", "the sweep goes round once, bypassing 3")
expect(w:agreed("generation") == 1, "every live process knows generation 1")
local cs = w:stats().cs
expect(cs.entries == 5, string.format("3's entry before the crash, then 1, 2, 4 and 5: %d entries", cs.entries))
expect(w:check("mutex.safety"))

-- 4. a stale token turns up
w:inject{ from = 2, to = 4, kind = "TOKEN", gen = 0, by = -1 }
w:run{ until_time = 220 }
local stale = 0
for _, e in ipairs(w:events{ type = "log", node = 4 }) do
  if string.find(e.text, "stale token 0/-1 discarded", 1, true) then stale = stale + 1 end
end
expect(stale == 1, "4 discards the generation 0 token")

-- 5. 3 recovers and is served again
w:at(230, function() w:recover(3) end)
w:at(260, function() w:command(3, "request", { duration = 4 }) end)
w:run{ until_time = 400 }
expect(w:stats().cs.entries == 6, "3, recovered, is served by the generation 1 token")
expect(made() == "1/5", "still the one token")
