-- A cell of report is cut at 200 bytes, with "...": one long value does
-- not pad every row of its column.
-- output:      b  a
-- output: ------  -----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------
-- output:      1  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...
-- output: 100000  y
report({{a = ("x"):rep(2^20), b = 1}, {a = "y", b = 100000}}, {"b", "a"})
