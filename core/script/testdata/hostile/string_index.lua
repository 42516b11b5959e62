-- The string module's own __index (gopher-lua's unsandboxed module) is gone.
-- error: ^string_index\.lua:3: attempt to index a non-table object\(nil\) with key 'rep'$
local r = string.__index.rep("x", 3e9)
