-- Errors caught in a loop, deep in the stack: pcall builds no traceback.
-- output: false	vm_pcall_errors.lua:4: deep
-- error: ^vm_pcall_errors\.lua:6: instruction budget of \d+ exhausted \(on long strings, big tables or caught errors\)$
local function deep(n) if n == 0 then error("deep") end return 1 + deep(n - 1) end
print(pcall(deep, 900))
while true do pcall(deep, 900) end
