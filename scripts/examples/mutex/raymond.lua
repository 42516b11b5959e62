-- Raymond's tree algorithm (1989), one of the token-based algorithms the lecture notes "Synchronization, Coordination and Agreement" list: HOLDER pointers toward
-- the privilege, a request queue and an ASKED flag at every process, REQUEST up the tree and
-- PRIVILEGE back down the same edges.
-- 1) INITIALIZE from the root sets every HOLDER to the parent, with n-1 messages.
-- 2) A request d edges away from the idle privilege costs d REQUESTs and d PRIVILEGEs: the last
--    process of a line of d+1, for d = 1..5, and a leaf of a binary tree of 15 (d = 3).
-- 3) The root is in its critical section while 4 and 6 ask, then 5. 2 asks the root once for 4
--    and 5 (ASKED), so after the root the privilege serves 2's subtree first: entries 1 4 5 6.
-- 4) Measured: every process of a balanced binary tree asks once, in a random order, after the
--    previous one is served; the messages per entry grow with the height, log n, not with n.

local w = sim.world{ algorithm = "mutex.raymond", n = 7 }
w:run()
local parents = {}
for id = 1, 7 do parents[#parents + 1] = w:node(id):get("holder") end
expect(table.concat(parents, " ") == "1 1 1 2 2 3 3" and w:stats().messages.INITIALIZE == 6,
  "INITIALIZE: HOLDER " .. table.concat(parents, " ") .. " (the parents), n-1 = 6 messages")

local function cost(w, id)
  local before = w:stats()
  w:at(w:now() + 1, function() w:command(id, "request", { duration = 1 }) end)
  w:run()
  local after = w:stats()
  return (after.messages.REQUEST or 0) - (before.messages.REQUEST or 0),
         (after.messages.PRIVILEGE or 0) - (before.messages.PRIVILEGE or 0)
end

for d = 1, 5 do
  w = sim.world{ algorithm = "mutex.raymond", n = d + 1, topology = "line" }
  w:run()
  local req, priv = cost(w, d + 1)
  expect(req == d and priv == d, string.format("line, d=%d: %d REQUEST + %d PRIVILEGE = 2d", d, req, priv))
end
w = sim.world{ algorithm = "mutex.raymond", n = 15 }
w:run()
local req, priv = cost(w, 8)
expect(req == 3 and priv == 3, string.format("binary tree of 15, leaf 8 (d=3): %d REQUEST + %d PRIVILEGE", req, priv))
req, priv = cost(w, 8)
expect(req == 0 and priv == 0, "the holder enters again without a message")

w = sim.world{ algorithm = "mutex.raymond", n = 7 }
local order = {}
w:on("state", function(ev)
  if ev.key == "cs" and ev.value == "held" then order[#order + 1] = ev.node end
end)
w:at(0, function() w:command(1, "request", { duration = 10 }) end)
w:at(1, function() w:command(4, "request", { duration = 2 }) end)
w:at(1, function() w:command(6, "request", { duration = 2 }) end)
w:at(2, function() w:command(5, "request", { duration = 2 }) end)
w:run()
expect(table.concat(order, " ") == "1 4 5 6", "entries " .. table.concat(order, " ") .. ": 2's subtree, then 6")
expect(w:stats().messages.REQUEST == 8 and w:stats().messages.PRIVILEGE == 8,
  "8 REQUEST and 8 PRIVILEGE for the four entries")

local rows = {}
for h = 1, 6 do
  local n = 2 ^ (h + 1) - 1
  w = sim.world{ algorithm = "mutex.raymond", n = n, trace = false }
  w:run()
  local ids = {}
  for id = 1, n do ids[id] = id end
  for i = n, 2, -1 do
    local j = math.random(i)
    ids[i], ids[j] = ids[j], ids[i]
  end
  local total, worst = 0, 0
  for _, id in ipairs(ids) do
    local r, p = cost(w, id)
    total, worst = total + r + p, math.max(worst, r + p)
  end
  rows[#rows + 1] = { n = n, height = h, per_entry = string.format("%.2f", total / n), worst = worst,
                      ["4h"] = 4 * h }
  expect(worst <= 4 * h, string.format("n=%d: no entry costs more than twice the diameter 2h (%d)", n, worst))
end
report(rows, { "n", "height", "per_entry", "worst", "4h" })
