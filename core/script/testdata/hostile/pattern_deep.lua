-- A match as long as the subject (the old matcher recursed once per
-- character), and too many captures.
-- output: 1	200000
-- error: ^pattern_deep\.lua:6: too many captures at 32$
print(("x"):rep(200000):find(".*"))
print(("x"):find(("("):rep(100) .. "x" .. (")"):rep(100)))
