-- upper, lower, reverse, rep and .. build strings: charged by the size built.
-- output: 8388608
-- error: ^vm_string_build\.lua:5: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local s = ("x"):rep(2^23)
for i = 1, 1e9 do local a = s:upper() .. s:lower():reverse() local b = ("y"):rep(#s) if i == 1 then print(#b) end end
