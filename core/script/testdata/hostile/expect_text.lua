-- expect messages are capped like log's.
-- output: done
local s = ("x"):rep(2^20)
for i = 1, 20 do expect(true, s) end
print("done")
