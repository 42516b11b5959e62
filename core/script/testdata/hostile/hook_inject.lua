-- A hook that re-injects every delivery: twice the messages at each step.
-- error: ^hook_inject\.lua:[46]: (memory budget of \d+ MiB exceeded: .*|instruction budget of \d+ exhausted \(.*\)|world 1: livelock: .*)$
local w = sim.world{algorithm = "mutex.tokenring", n = 3, max_events = 0}
w:on("deliver", function(ev) w:inject{from = ev.from, to = ev.node, kind = "TOKEN"} end)
w:command(1, "request")
w:run()
