-- table.sort of a big table, again and again: charged n log n.
-- output: 1	262144
-- error: ^vm_table_sort\.lua:5: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local t = {} for i = 1, 2^18 do t[i] = 2^18 - i + 1 end
for i = 1, 1e9 do table.sort(t) if i == 1 then print(t[1], t[#t]) end end
