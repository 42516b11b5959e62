-- Comparing two long strings that differ only at the end reads them both:
-- the comparison is charged by length, so the loop ends within the budget.
-- output: true	true	false
-- error: ^vm_string_compare\.lua:7: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local a, b = ("x"):rep(2^23) .. "a", ("x"):rep(2^23) .. "b"
print(a < b, a <= b, a == b)
while true do local c = a < b end
