-- print shows 50 entries of a table and 64 KiB of a line: it stops walking
-- and copying there, so printing a huge value costs no more than that.
-- output: 500000	{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, ...}
-- error: ^vm_print_big\.lua:7: instruction budget of \d+ exhausted \(endless loop\?\)$
local t = {} for i = 1, 5e5 do t[i] = i end
print(#t, t)
local s, n = ("x"):rep(2^23), 0 for i = 1, 1e9 do n = n + #tostring(s) end
