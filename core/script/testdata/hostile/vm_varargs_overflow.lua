-- A call whose frame overflows the stack of values as it is set up: the
-- error named the line of a frame that had not started (a Go panic).
-- error: ^vm_varargs_overflow\.lua:5: too many values on the stack \(registry overflow\)$
local t = {} for i = 1, 60000 do t[i] = i end
local function f(n, ...) if n == 0 then return 0 end return 1 + f(n - 1, unpack(t)) end
print(f(10))
