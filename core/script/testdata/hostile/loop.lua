-- An endless loop, an endless loop in pcall, and pcall in an endless loop.
-- error: ^loop\.lua:5: instruction budget of \d+ exhausted \(endless loop\?\)$
local function f() end
for i = 1, 1000 do pcall(f) end
while true do pcall(function() while true do end end) end
