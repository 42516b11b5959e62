-- Timestamp ordering rejecting a late write: Silberschatz, Galvin and Gagne, "Operating System
-- Concepts", chapter "Distributed Coordination", section "Concurrency Control", "Timestamping", with
-- the write rule of the timestamp-based protocol: if TS(Ti) < R-timestamp(Q), the value of Q that Ti
-- produces was needed before, and the system assumed it would never be produced: the write is
-- rejected and Ti rolled back; a transaction rolled back is given a new timestamp and restarted.
-- Timestamps are a site's logical counter concatenated with its id: <1,1> is site 1's first, <1,2>
-- site 2's.
--
-- Two sites: A at site 1, B at site 2. At t=0 site 1 begins T1 = read(B) write(A), timestamp <1,1>,
-- and site 2 begins T2 = read(A), timestamp <1,2>: the younger. T1's read of B goes to site 2 (a
-- round trip of 2 ticks); meanwhile T2's read of A reaches site 1 at t=1 and sets R-timestamp(A) to
-- <1,2>. At t=2 T1 writes A: TS(T1) = <1,1> < R-timestamp(A), so the write comes too late and is
-- rejected, and T1 is rolled back. The rejection carries the item's timestamp, past which site 1's
-- logical clock advances (the chapter's LCi rule), so T1 restarts with the new timestamp <2,1>,
-- reads B again and writes A, now accepted: both commit, in timestamp order T2 then T1.

local w = sim.world{ algorithm = "cc.timestamp", ids = { 1, 2 }, config = { restart = 5 },
  checks = { "cc.serializable" } }
w:command(1, "begin", { ops = "read(B) write(A)", t = 1 })
w:command(2, "begin", { ops = "read(A)", t = 2 })
w:run()

local M = 2 ^ 31 -- a timestamp <c, site> is c * 2^31 + site in the state
local function stamp(ts) return string.format("<%d,%d>", math.floor(ts / M), ts % M) end

-- T1's runs at its home site: begun (or restarted), aborted, committed; the waits for the
-- answers (status 3, then running again) left out.
local t1, rejected, prev = {}, nil, nil
for _, e in ipairs(w:events()) do
  if e.type == "state" and e.key == "txn" and e.value[1] == 1 then
    local st = e.value[2]
    if st ~= 3 and not (st == 0 and prev == 3) then
      t1[#t1 + 1] = string.format("%s%s", ({ [0] = "running", "committed", "aborted" })[st], stamp(e.value[3]))
    end
    prev = st
  end
  if e.type == "log" and e.text:find("rejected") then rejected = string.format("t=%d %s", e.t, e.text) end
end
print("T1: " .. table.concat(t1, " "))
print("rejection: " .. rejected)
expect(table.concat(t1, " ") == "running<1,1> aborted<1,1> running<2,1> committed<2,1>",
  "T1 runs with <1,1>, is rolled back, restarts with the new timestamp <2,1> and commits")
expect(rejected == "t=2 write(A) by T1 rejected: TS(T1) < R-timestamp(A)",
  "the write of A by T1 rejected at t=2: TS(T1) < R-timestamp(A)")
local t2 = w:node(2):get("txn")
expect(t2[1] == 2 and t2[2] == 1 and stamp(t2[3]) == "<1,2>", "T2 committed with <1,2>")

-- A's timestamps at site 1 after the run: R-timestamp T2's, W-timestamp T1's new one.
local a = w:node(1):get("item_ts")
expect(a[1] == 0 and stamp(a[2]) == "<1,2>" and stamp(a[3]) == "<2,1>",
  "R-timestamp(A) = <1,2>, W-timestamp(A) = <2,1>: " .. stamp(a[2]) .. ", " .. stamp(a[3]))
expect(w:count{ type = "send", kind = "ABORT" } == 0, "A is at T1's own site: the rejection costs no message")
local ok, text = w:check("cc.serializable")
expect(ok, text)
