-- A pattern that backtracks exponentially.
-- error: ^pattern\.lua:3: instruction budget of \d+ exhausted \(in a pattern match\)$
print(string.find(("a"):rep(40), ("a*"):rep(40) .. "b"))
