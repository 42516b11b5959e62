-- A million values on the stack at once.
-- error: ^stack_values\.lua:3: too many values on the stack \(registry overflow\)$
local n = select("#", string.byte(("x"):rep(2^20), 1, -1))
