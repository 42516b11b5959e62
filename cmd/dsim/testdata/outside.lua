-- Lamport's algorithm on links that reorder, which it does not tolerate: the run warns.
local w = sim.world{ algorithm = "mutex.lamport", n = 2, fifo = false }
w:run()
expect(true, "ran")
