-- gsub with a long replacement for every character: a terabyte in one call.
-- error: ^gsub\.lua:4: string\.gsub would make a string of \d+ bytes, more than the 16777216 allowed$
local s = ("x"):rep(2^20)
local t = s:gsub(".", s)
