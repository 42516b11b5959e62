-- The same with ==, on strings of one length.
-- error: ^vm_string_equal\.lua:4: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local a, b = ("x"):rep(2^23) .. "a", ("x"):rep(2^23) .. "b"
while a ~= b do end
