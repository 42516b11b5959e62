-- string.format with a long %s copies it: charged by the size built.
-- output: [   é][é   ]
-- error: ^vm_string_format\.lua:5: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
print(string.format("[%5s][%-5s]", "é", "é"))
local s = ("x"):rep(2^23) for i = 1, 1e9 do local t = string.format("%s", s) end
