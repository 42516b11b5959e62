-- Two requests at once under Ricart-Agrawala: the world records its
-- properties at the end; w:check judges one without recording it.
local w = sim.world{ algorithm = "mutex.ricartagrawala", n = 3, checks = {"mutex.safety", "mutex.liveness"} }
w:command(1, "request", {duration = 2})
w:command(2, "request", {duration = 2})
w:run()
expect(w:check("mutex.ordering"))
