-- format through the metatable prints dsim's names for tables and functions,
-- never an address, and a table is no number.
-- output: table: #1 function: #2
-- error: ^metatable_format\.lua:6: bad argument #2 to format \(number expected, got table\)$
print(getmetatable("").__index.format("%s %s", {}, print))
print(("%d"):format({}))
