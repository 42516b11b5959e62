-- A __tostring that returns a table or a function would print its address.
-- output: false	tostring_meta.lua:4: '__tostring' must return a string
-- error: ^tostring_meta\.lua:5: '__tostring' must return a string$
print(pcall(tostring, setmetatable({}, {__tostring = function() return {} end})))
print(string.format("%s", setmetatable({}, {__tostring = function() return print end})))
