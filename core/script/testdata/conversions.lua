-- Every library function that turns a number into an integer, given the
-- numbers where Go's own conversion is undefined (NaN, infinities, out of
-- range) and a few where it is not. Natively and under WebAssembly the
-- output must be the same: conversions_test.go compares it with
-- conversions.golden on both.
local values = {
  {"nan", 0/0}, {"inf", 1/0}, {"-inf", -1/0}, {"2^63", 2^63}, {"-2^63", -2^63},
  {"2^63-1024", 2^63 - 1024}, {"1e300", 1e300}, {"-1e300", -1e300}, {"2^53+1", 2^53 + 1},
  {"3.7", 3.7}, {"-3.7", -3.7}, {"0", 0}, {"-0", -0.0}, {"255", 255}, {"256", 256},
}
local calls = {
  {"tostring", function(x) return tostring(x) end},
  {"..", function(x) return x .. "" end},
  {"%d", function(x) return ("%d"):format(x) end},
  {"%i", function(x) return ("%i"):format(x) end},
  {"%u", function(x) return ("%u"):format(x) end},
  {"%x", function(x) return ("%x"):format(x) end},
  {"%X", function(x) return ("%X"):format(x) end},
  {"%o", function(x) return ("%o"):format(x) end},
  {"%c", function(x) return #(("%c"):format(x)) end},
  {"%5.1f", function(x) return ("%5.1f"):format(x) end},
  {"%g", function(x) return ("%g"):format(x) end},
  {"sub i", function(x) return ("abcdef"):sub(x, 3) end},
  {"sub j", function(x) return ("abcdef"):sub(2, x) end},
  {"byte", function(x) return ("abcdef"):byte(x) end},
  {"char", function(x) return #string.char(x) end},
  {"rep", function(x) return #(("ab"):rep(x)) end},
  {"find init", function(x) return ("abcabc"):find("b", x) end},
  {"match init", function(x) return ("abcabc"):match("c", x) end},
  {"gsub n", function(x) return (("aaa"):gsub("a", "b", x)) end},
  {"select", function(x) return select(x, "a", "b", "c") end},
  {"unpack i", function(x) return unpack({1, 2, 3}, x, 2) end},
  {"unpack j", function(x) return unpack({1, 2, 3}, 2, x) end},
  {"remove", function(x) local t = {1, 2, 3} return table.remove(t, x) end},
  {"insert", function(x) local t = {1, 2, 3} table.insert(t, x, 9) return #t end},
  {"concat i", function(x) return table.concat({1, 2, 3}, ",", x, 3) end},
  {"concat j", function(x) return table.concat({1, 2, 3}, ",", 1, x) end},
  {"ldexp", function(x) return math.ldexp(1, x) end},
  {"floor", function(x) return math.floor(x) end},
  {"fmod", function(x) return math.fmod(x, 7) end},
  {"tonumber base", function(x) return tonumber("11", x) end},
  {"random", function(x) return math.random(x) end},
  {"randomseed", function(x) math.randomseed(x) return "ok" end},
  {"table key", function(x) local t = {} t[x] = 1 return t[x] end},
  {"#", function(x) local t = {} t[x] = 1 return #t end},
  {"error level", function(x) local ok, e = pcall(error, "e", x) return e end},
}
for _, c in ipairs(calls) do
  local row = {}
  for _, v in ipairs(values) do
    local ok, a, b = pcall(c[2], v[2])
    if ok then
      row[#row + 1] = v[1] .. "=" .. tostring(a) .. (b ~= nil and ("," .. tostring(b)) or "")
    else
      row[#row + 1] = v[1] .. "!" .. (tostring(a):gsub("^[^:]*:%d+: ", ""))
    end
  end
  print(c[1] .. ": " .. table.concat(row, "  "))
end
-- The functions Go computes with assembly on amd64 and with Go under wasm
-- (math.Exp and math.Log, and what calls them): the sandbox's are portable.
local reals = {0.1, 0.5, 1.5, 2.5, 3.7, 10, 100, 1e-5, 0.7777777}
for _, f in ipairs{"exp", "log", "log10", "sinh", "cosh", "tanh"} do
  local row = {}
  for _, x in ipairs(reals) do row[#row + 1] = ("%.17g"):format(math[f](x)) end
  print(f .. ": " .. table.concat(row, " "))
end
local row = {}
for _, x in ipairs(reals) do
  row[#row + 1] = ("%.17g %.17g"):format(x ^ 2.5, math.pow(1.5, x))
end
print("pow: " .. table.concat(row, " ") .. (" %.17g"):format(1.5 ^ 2.5))
