-- sim.world in a loop: every world is held until the script ends, so the
-- admission weighs a new world's estimate with those of the worlds built
-- before it, and refuses the first that would take them past the budget.
-- error: ^api_worlds\.lua:6: sim\.world: mutex\.ricartagrawala with n = 1000 needs about [\d.]+ MiB, and the \d+ worlds built before it hold about [\d.]+ MiB: together more than the memory budget of \d+ MiB \(every world is kept until the script ends\)$
for i = 1, 100000 do
  local w = sim.world{algorithm = "mutex.ricartagrawala", n = 1000}
end
