-- output: table: #1	table: #1	function: #2	table: #3
-- output: table: #1	table: #20004
-- Naming a fresh table in a loop keeps none of them alive: the names stay
-- a counter (the same everywhere), the objects stay collectable.
local t = {}
print(tostring(t), tostring(t), tostring(print), tostring({}))
for i = 1, 20000 do local s = tostring({}) end
print(tostring(t), tostring({}))
