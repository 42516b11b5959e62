-- Two million processes: refused before anything is built, with the figures.
-- error: ^big_world\.lua:3: sim\.world: election\.changroberts with n = 2000000 needs about \d+(\.\d+)? [MG]iB \(about [^)]* per process\), more than the memory budget of \d+ MiB; the largest n that fits is \d+.*$
local w = sim.world{algorithm = "election.changroberts", n = 2000000}
w:run()
