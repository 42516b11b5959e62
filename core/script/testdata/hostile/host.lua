-- Nothing of the host is reachable.
-- output: nil	nil	nil	nil	nil	nil	nil	nil
print(io, os, debug, require, load, loadstring, dofile, collectgarbage)
