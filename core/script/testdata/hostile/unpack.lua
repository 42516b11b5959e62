-- unpack of a billion values.
-- error: ^unpack\.lua:3: too many results to unpack$
print(unpack({}, 1, 1e9))
