-- Strings grow without bound through `..`: each step doubles the string.
-- error: ^concat\.lua:4: concatenation would make a string of 33554432 bytes, more than the 16777216 allowed$
local s = ("x"):rep(2^20)
for i = 1, 40 do s = s .. s end
