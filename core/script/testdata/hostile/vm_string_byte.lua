-- string.byte of a whole string pushes a value per byte: charged by count.
-- error: ^vm_string_byte\.lua:4: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local s = ("x"):rep(60000)
for i = 1, 1e9 do local a = s:byte(1, -1) end
