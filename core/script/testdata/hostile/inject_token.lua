-- A hand-made TOKEN with no fields reaches Ricart-Agrawala's second algorithm.
-- output: quiescent
local w = sim.world{algorithm = "mutex.ricartagrawala2", n = 3, checks = {}}
w:inject{from = 1, to = 2, kind = "TOKEN"}
print(w:run().reason)
