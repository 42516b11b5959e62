-- Commands rejected for a 16 MiB argument: neither the error nor the
-- command event in the trace quotes more than 80 bytes of it.
-- output: false	api_command_args.lua:7: w:command: process 1 rejected request: argument "duration" must be an integer, got "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"... (16777152 bytes)
-- output: 30	351
local w = sim.world{algorithm = "mutex.raymond", n = 3}
local s = ("\1"):rep(2^24 - 64)
print(pcall(w.command, w, 1, "request", {duration = s}))
for i = 1, 29 do pcall(w.command, w, 1, "request", {duration = s}) end
local cmds = w:events{type = "command"}
print(#cmds, #cmds[30].args)
