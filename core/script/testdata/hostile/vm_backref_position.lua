-- output: true	abc	0
-- output: nil	nil
-- output: 1	4	ab
-- A back-reference to a position capture never matches, as in Lua 5.1; it
-- had sliced the subject one past its end (a Go panic through pcall).
print(pcall(string.gsub, "abc", "()%1", "x"))
print(string.find("abc", "()%1"), string.match("abc", "()%1"))
print(string.find("abab", "(ab)%1"))
