-- The two generals: Silberschatz, Galvin and Gagne, "Operating System Concepts", chapter
-- "Distributed Coordination", section "Reaching Agreement", unreliable communications.
--
-- General A (P1) sends B (P2) the attack time; each message received is acknowledged, k messages
-- in all (config rounds), and a general attacks only if every message addressed to it came. With
-- every message delivered both attack. An adversary that captures the last messenger (the link is
-- cut as it leaves) leaves its sender attacking alone, for k = 1..5 alike: the sender cannot tell
-- whether it arrived, so no number of acknowledgements is enough.

local rows = {}
for k = 1, 5 do
  local full = sim.world{ algorithm = "agreement.twogenerals", n = 2, config = { rounds = k } }
  full:run()
  expect(full:node(1):get("decision") == 1 and full:node(2):get("decision") == 1,
         "k=" .. k .. ": every messenger through, both attack")
  expect(full:count{ type = "send" } == k, "k=" .. k .. ": " .. k .. " messages")

  local w = sim.world{ algorithm = "agreement.twogenerals", n = 2, config = { rounds = k } }
  local lost
  w:on("send", function(ev)
    if ev.msg.seq == k then
      lost = string.format("#%d %d->%d", k, ev.from, ev.to)
      w:cut(ev.from, ev.to)
    end
  end)
  w:run()
  local a, b = w:node(1):get("decision"), w:node(2):get("decision")
  local alone = k % 2 == 1 and 1 or 2 -- the sender of message k
  expect(a + b == 1 and w:node(alone):get("decision") == 1,
         string.format("k=%d: message %s lost: P%d attacks alone", k, lost, alone))
  rows[#rows + 1] = { k = k, lost = lost, A = a, B = b }
end
report(rows, { "k", "lost", "A", "B" })
