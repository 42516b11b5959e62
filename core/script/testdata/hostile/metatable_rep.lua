-- The strings' metatable holds the sandboxed module: rep is capped there too.
-- error: ^metatable_rep\.lua:3: string\.rep would make a string of 3000000000 bytes, more than the 16777216 allowed$
local r = getmetatable("").__index.rep("x", 3e9)
