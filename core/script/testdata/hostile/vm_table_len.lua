-- # of a table emptied from its end scans the nils left in its array:
-- charged by the count scanned.
-- output: 1
-- error: ^vm_table_len\.lua:7: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local t = {} for i = 1, 2^18 do t[i] = i end
for i = 2^18, 2, -1 do t[i] = nil end
print(#t) while true do local n = #t end
