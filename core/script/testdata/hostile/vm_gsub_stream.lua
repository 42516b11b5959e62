-- gsub of 1M matches: upstream held a MatchData for each (hundreds of MiB)
-- before it built anything; the result is now built as matches are found.
-- output: 0	1048576	2097152
local s = ("x"):rep(2^20)
local t, n = s:gsub("x", "")
local u = s:gsub("x", "%0%0")
print(#t, n, #u)
