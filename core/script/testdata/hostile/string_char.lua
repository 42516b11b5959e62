-- string.char wraps around no more, and has a portable integer rule.
-- output: ABC
-- error: ^string_char\.lua:5: bad argument #1 to char \(invalid value\)$
print(string.char(65, 66, 67))
print(string.char(256))
