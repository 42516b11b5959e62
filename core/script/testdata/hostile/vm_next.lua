-- next(t) skips the nils of the array and the keys deleted from the hash,
-- all of them again at every call: charged by the count skipped.
-- output: 262144	262144	k65536	65536
-- error: ^vm_next\.lua:9: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local a, h = {}, {}
for i = 1, 2^18 do a[i] = i end for i = 1, 2^18 - 1 do a[i] = nil end
for i = 1, 2^16 do h["k" .. i] = i end for i = 1, 2^16 - 1 do h["k" .. i] = nil end
local k1, v1 = next(a) local k2, v2 = next(h) print(k1, v1, k2, v2)
while true do local x = next(h) end
