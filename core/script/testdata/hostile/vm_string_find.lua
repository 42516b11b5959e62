-- A plain find scans the subject: it is charged by the length scanned.
-- error: ^vm_string_find\.lua:4: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local s = ("x"):rep(2^23)
for i = 1, 1e9 do local x = s:find("y", 1, true) end
