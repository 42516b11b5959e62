-- Configuration errors name values as Lua does: a table, a boolean, a
-- number, never a Go type.
-- output: api_config_types.lua:8: sim.world: config key "holder": want an integer, got a table
-- output: api_config_types.lua:8: sim.world: config key "holder": want an integer, got true
-- output: api_config_types.lua:8: sim.world: config key "holder": want an integer, got 1.5
-- output: api_config_types.lua:13: sim.world: config key "election_restart": want true or false, got 5
local function try(config)
  print(select(2, pcall(sim.world, {algorithm = "mutex.raymond", n = 3, config = config})))
end
try({holder = {1, 2}})
try({holder = true})
try({holder = 1.5})
print(select(2, pcall(sim.world, {algorithm = "mutex.tokenring", n = 3, config = {election_restart = 5}})))
