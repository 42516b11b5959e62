-- A gsub whose result outgrows the limit stops as it grows, from a
-- replacement function too.
-- error: ^vm_gsub_grow\.lua:5: string\.gsub would make a string of \d+ bytes, more than the 16777216 allowed$
local s = ("x"):rep(2^16)
local t = s:gsub("x", function(c) return c:rep(2^9) end)
