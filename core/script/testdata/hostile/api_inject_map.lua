-- Tokens carrying maps of a hundred thousand entries, injected again and
-- again: one pending event each, but converting the maps counts as Go work
-- and as allocated bytes, which the memory guard looks at.
-- error: ^api_inject_map\.lua:9: (memory budget of \d+ MiB exceeded: .*|instruction budget of \d+ exhausted \(converting tables\))$
local w = sim.world{algorithm = "mutex.ricartagrawala2", n = 3, checks = {}, trace = false}
local token = {}
for i = 1, 100000 do token[i] = i end
for i = 1, 1e6 do
  w:inject{from = 1, to = 2, kind = "TOKEN", token = token}
end
