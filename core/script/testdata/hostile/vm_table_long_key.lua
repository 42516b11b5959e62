-- error: ^vm_table_long_key\.lua:7: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
-- A table hashes a string key whole at every access, and compares it with
-- the key it finds: a 16 MiB key costs milliseconds a store, and each
-- access is charged by the key's length.
local big = ("x"):rep(2^24 - 100)
local t = {}
for i = 1, 1e8 do t[big] = i end
