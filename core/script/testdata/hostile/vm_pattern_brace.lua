-- %b scans to the end of the subject from every position: its steps are
-- counted by length.
-- error: ^vm_pattern_brace\.lua:5: instruction budget of \d+ exhausted \(in a pattern match\)$
local s = ("("):rep(2^20)
print(s:find("%b()"))
