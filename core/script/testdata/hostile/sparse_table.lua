-- Far integer keys live in the hash part: no gigabyte array of nils.
-- output: 1	nil	0	3
local t = {}
t[6e7] = 1
t[2^40] = 2
local u = {1, 2}
u[3] = 3
print(t[6e7], t[6e7 - 1], #t, #u)
