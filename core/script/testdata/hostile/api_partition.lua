-- Partitions of thousands of ids, again and again: a partition event's text
-- shows the first 64 ids of each group, and the trace's texts count
-- against the memory budget.
-- error: ^api_partition\.lua:8: (memory budget of \d+ MiB exceeded: .*|instruction budget of \d+ exhausted \(.*\))$
local w = sim.world{algorithm = "election.changroberts", n = 2000}
local a, b = {}, {}
for i = 1, 1000 do a[i] = i; b[i] = i + 1000 end
for i = 1, 1e7 do w:partition(a, b) end
