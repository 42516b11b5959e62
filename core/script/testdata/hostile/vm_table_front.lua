-- table.insert and table.remove at the front of a big table move every
-- element: charged by the count moved.
-- error: ^vm_table_front\.lua:5: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local t = {} for i = 1, 2^18 do t[i] = i end
while true do table.insert(t, 1, 0) table.remove(t, 1) end
