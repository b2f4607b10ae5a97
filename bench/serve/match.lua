-- wrk script: POST /api/v1/match, cycling through texts of bench/serve/texts.txt (one text a
-- line, `\n` for a newline inside a text).
local texts = {}
for line in io.lines(os.getenv("TEXTS") or "bench/serve/texts.txt") do
  texts[#texts + 1] = line:gsub("\\n", "\n")
end
local i = 0
request = function()
  i = i % #texts + 1
  return wrk.format("POST", "/api/v1/match", {["Content-Type"] = "text/plain"}, texts[i])
end
