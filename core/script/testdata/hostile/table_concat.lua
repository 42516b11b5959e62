-- table.concat of 5000 strings of 1 MiB.
-- error: ^table_concat\.lua:6: table\.concat would make a string of \d+ bytes, more than the 16777216 allowed$
local s = ("x"):rep(2^20)
local t = {}
for i = 1, 5000 do t[i] = s end
local u = table.concat(t)
