-- table.concat walks every element, even empty ones, and unpack pushes
-- them: both charged by count.
-- error: ^vm_table_concat\.lua:5: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local t = {} for i = 1, 2^16 do t[i] = "" end
for i = 1, 1e9 do local s = table.concat(t) local a = unpack(t, 1, 60000) end
