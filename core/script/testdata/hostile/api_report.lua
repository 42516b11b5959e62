-- report pads every row to its column's widest cell: a long cell is cut at
-- 200 bytes, and a table that would take the run's output past its limit
-- stops before it is built.
-- error: ^api_report\.lua:8: output limit of \d+ MiB reached: report would take the run's output \(print, log, report and expect messages\) to \d+ bytes$
local s = ("x"):rep(2^20)
local row, rows = {a = s, b = s, c = s}, {}
for i = 1, 40000 do rows[i] = row end
report(rows)
