-- Light versus heavy load, token ring versus Ricart-Agrawala: the lecture notes "Synchronization,
-- Coordination and Agreement", "Token Ring Algorithm": "It can take from 1 to n-1 messages to obtain a
-- token. Messages are sent around the ring even when no process requires the token => additional load
-- on the network. The algorithm works well in heavily loaded situations, when there is a high
-- probability that the process which gets the token wants to enter the CS. It works poorly in lightly
-- loaded cases." Against it, "Ricart-Agrawala": 2(n-1) messages per entry whatever the load.
-- Six processes, each requesting at Poisson times (w:workload), every request holding the CS 4 ticks:
--   light: 0.0005 requests per tick per process (about one request in the system every 330 ticks);
--   heavy: 0.03 requests per tick per process (the CS busy about 3/4 of the time: processes queue for it).
-- Messages per entry count every message of the run (the idle token's rounds too); after the last
-- request each run goes on until every request is served (at most 300 ticks), so the idle token's
-- rounds after the last exit are not counted. Changed with the token ring's default hold = 0 (the
-- text's "immediately passes the token over"; it was 1 tick): the idle token makes a pass per tick,
-- twice as many as before, and the runs, which went on 300 ticks after the last request, stop earlier.
-- Expected: under light load the token ring costs many times 2(n-1) messages per entry (the token
-- circles ~60 times between requests) while Ricart-Agrawala costs exactly 2(n-1) = 10; under heavy load
-- the token ring costs fewer than 2 messages per entry (n-1 at most), far below Ricart-Agrawala's 10.

local n = 6
local loads = { { name = "light", rate = 0.0005, until_time = 40000 }, { name = "heavy", rate = 0.03, until_time = 4000 } }
local algorithms = { "mutex.tokenring", "mutex.ricartagrawala" }

local results = {}
print(string.format("%-6s %-22s %8s %8s %10s %12s %10s", "load", "algorithm", "requests", "entries", "msgs/entry", "mean waiting", "sync delay"))
for _, load in ipairs(loads) do
  results[load.name] = {}
  for _, name in ipairs(algorithms) do
    local w = sim.world{ algorithm = name, n = n, seed = 11, trace = false } -- long runs: no recorded trace
    w:workload{ rate = load.rate, cs = 4, until_time = load.until_time }
    w:run{ until_time = load.until_time }
    w:run{ until_time = load.until_time + 300, predicate = function()
      for _, id in ipairs(w:ids()) do
        local node = w:node(id)
        if node:get("cs") ~= "released" or (node:get("backlog") or 0) > 0 then return false end
      end
      return true
    end }
    local cs = w:stats().cs
    results[load.name][name] = cs
    print(string.format("%-6s %-22s %8d %8d %10.2f %12.2f %10.2f", load.name, name, cs.requests, cs.entries,
      cs.per_entry, cs.waiting, cs.sync_delay or 0))
    expect(cs.entries == cs.requests and cs.requests > 0, string.format("%s, %s load: every request served (%d)", name, load.name, cs.requests))
  end
end

local light, heavy = results.light, results.heavy
expect(light["mutex.ricartagrawala"].per_entry == 2 * (n - 1) and heavy["mutex.ricartagrawala"].per_entry == 2 * (n - 1),
  "Ricart-Agrawala: 2(n-1) = 10 messages per entry under either load")
expect(light["mutex.tokenring"].per_entry > 10 * light["mutex.ricartagrawala"].per_entry,
  string.format("light load: the token ring costs %.0f messages per entry, over ten times Ricart-Agrawala's (it works poorly)",
    light["mutex.tokenring"].per_entry))
expect(heavy["mutex.tokenring"].per_entry < 2,
  string.format("heavy load: the token ring costs %.2f messages per entry, below 2 (it works well: the next holder usually wants the CS)",
    heavy["mutex.tokenring"].per_entry))
expect(heavy["mutex.tokenring"].per_entry < heavy["mutex.ricartagrawala"].per_entry / 5,
  "heavy load: the token ring needs a fifth of Ricart-Agrawala's messages or fewer")
expect(light["mutex.tokenring"].waiting > light["mutex.ricartagrawala"].waiting,
  string.format("light load: a token ring request waits for the token to come round (%.1f ticks), Ricart-Agrawala's only for the replies (%.1f)",
    light["mutex.tokenring"].waiting, light["mutex.ricartagrawala"].waiting))
