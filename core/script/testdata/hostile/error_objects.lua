-- Errors whose object is a table, nil or a function.
-- output: false	{}
-- output: false	nil
-- error: ^error_objects\.lua:7: error object is a function value$
print(pcall(error, {}))
print(pcall(error, nil))
error(print)
