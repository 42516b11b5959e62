-- Error messages quote at most 80 bytes of a script's string, however many
-- of them a message names.
-- output: false	sim.world: unknown algorithm "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"... (16777152 bytes)
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
-- output: false	true
local s = ("\1"):rep(2^24 - 64)
local function try(f, ...)
  local ok, e = pcall(f, ...)
  return ok, #e < 1100
end
local ok, e = pcall(sim.world, {algorithm = s})
print(ok, (e:gsub("^api_quote%.lua:%d+: ", ""):gsub(" %(known: .*", "")))
print(try(sim.world, {[s] = 1}))
print(try(sim.world, {algorithm = "mutex.raymond", n = 3, topology = s}))
print(try(sim.world, {algorithm = "mutex.raymond", n = 3, config = {[s] = 1}}))
print(try(sim.world, {algorithm = "mutex.raymond", n = 3, config = {holder = s}}))
print(try(sim.world, {algorithm = "mutex.raymond", n = 3, checks = {s}}))
print(try(sim.world, {algorithm = "mutex.raymond", n = 3, latency = {s, 1}}))
local w = sim.world{algorithm = "mutex.raymond", n = 3}
print(try(w.on, w, s, print))
print(try(w.command, w, 1, s))
print(try(w.command, w, 1, "request", {[s] = 1}))
print(try(w.inject, w, {from = 1, to = 2, kind = s}))
print(try(w.inject, w, {from = 1, to = 2, kind = "TOKEN", [s] = 1}))
print(try(w.count, w, {type = s}))
print(try(w.check, w, s))
print(try(w.run, w, {[s] = 1}))
print(try(sweep, {[s] = {}}, print))
print(try(assert, false, s))
