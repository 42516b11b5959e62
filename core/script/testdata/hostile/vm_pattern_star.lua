-- A repetition over 4 MiB: upstream's matcher pushed a backtracking entry
-- per character, 256 MiB of them; a repetition is now one entry.
-- output: 4194302	4194302	4194301	nil
-- budget: 40000000
local s = ("x"):rep(2^22 - 2)
print(#s:match("^x*$"), #s:match("^.-$"), #s:match("^x(x+)$"), s:match("^x*y"))
