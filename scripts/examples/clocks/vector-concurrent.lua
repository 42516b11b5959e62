-- Vector clocks telling concurrent events apart: the lecture notes "Synchronization, Coordination
-- and Agreement", section 3.1.3.5 "Vector clock", with the example of their first reference,
-- Coulouris, Dollimore and Kindberg, "Distributed Systems: Concepts and Design" (4th ed.),
-- section 11.4 "Logical time and logical clocks": three processes and six events.
--
-- p1 makes an internal event a, then b, sending m1 to p2; p2 receives it (c) and sends m2 to p3
-- (d); p3 makes an internal event e, then receives m2 (f). The vectors are a = (1,0,0),
-- b = (2,0,0), c = (2,1,0), d = (2,2,0), e = (0,0,1), f = (2,2,2). e is concurrent with a, b, c
-- and d: neither vector is below the other. Lamport's clocks cannot say so, as C(e) = 1 < C(b).
--
-- World 2 lets the three processes make 30 random events each (40% of them sends to a random
-- peer) on links that reorder messages; each receive is an event too. The clock.vector checker,
-- which computes happened-before from the sends and deliveries, finds V(a) < V(b) exactly when a
-- happened before b.

local w = sim.world{ algorithm = "clock.vector", ids = { 1, 2, 3 } }
w:at(1, function() w:command(1, "internal"); w:command(3, "internal") end) -- a, e
w:at(2, function() w:command(1, "send", { to = 2 }) end)                   -- b; m1 arrives at 3: c
w:at(4, function() w:command(2, "send", { to = 3 }) end)                   -- d; m2 arrives at 5: f
w:run()

-- The events in the order they happened, named as in the text.
local names = { "a", "e", "b", "c", "d", "f" }
local V, k = {}, 0
for _, e in ipairs(w:events{ type = "state" }) do
  if e.old then k = k + 1; V[names[k]] = e.value end
end
local function text(v) return "(" .. table.concat(v, ",") .. ")" end
local function below(u, v) -- u < v: every entry <=, and not equal
  local less = false
  for k = 1, #u do
    if u[k] > v[k] then return false end
    less = less or u[k] < v[k]
  end
  return less
end

local got = {}
for _, n in ipairs{ "a", "b", "c", "d", "e", "f" } do got[#got + 1] = n .. "=" .. text(V[n]) end
expect(table.concat(got, " ") == "a=(1,0,0) b=(2,0,0) c=(2,1,0) d=(2,2,0) e=(0,0,1) f=(2,2,2)",
       "the vector timestamps: " .. table.concat(got, " "))
for _, n in ipairs{ "a", "b", "c", "d" } do
  expect(not below(V[n], V.e) and not below(V.e, V[n]), n .. " " .. text(V[n]) .. " and e (0,0,1) are concurrent")
end
expect(below(V.a, V.b) and below(V.b, V.c) and below(V.c, V.d) and below(V.d, V.f) and below(V.e, V.f),
       "a → b → c → d → f and e → f: each vector is below the next")

local r = sim.world{ algorithm = "clock.vector", n = 3, fifo = false, latency = { "uniform", 1, 8 },
                     config = { events = 30, rate = 0.2, sends = 0.4 } }
r:run()
local sent, received, concurrent = #r:events{ type = "send" }, #r:events{ type = "deliver" }, 0
local evs = {}
for _, e in ipairs(r:events{ type = "state" }) do
  if e.old then evs[#evs + 1] = e.value end
end
for i = 1, #evs do
  for j = i + 1, #evs do
    if not below(evs[i], evs[j]) and not below(evs[j], evs[i]) then concurrent = concurrent + 1 end
  end
end
expect(#evs == 90 + received and received == sent and concurrent > 0,
       string.format("world 2: 90 random events (%d of them sends) and %d receives; %d pairs of events are concurrent",
                     sent, received, concurrent))
