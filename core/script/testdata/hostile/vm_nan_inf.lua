-- Lua 5.1's numbers: math.huge is infinite, and infinities and NaN print as
-- C prints them; table.maxn exists.
-- output: inf	-inf	true	inf	nan	[  inf][-INF]	4
print(math.huge, -math.huge, math.huge == 1/0, 2^2000, tostring(0/0), string.format("[%5.1f][%G]", 1/0, -1/0), table.maxn({1, 2, nil, 4}))
