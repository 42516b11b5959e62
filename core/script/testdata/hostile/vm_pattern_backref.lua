-- A back-reference compares the capture at every try: its steps are
-- counted by length.
-- error: ^vm_pattern_backref\.lua:5: instruction budget of \d+ exhausted \(in a pattern match\)$
local s = ("x"):rep(2^22) .. "y"
print(s:match("^(x*)%1$"))
